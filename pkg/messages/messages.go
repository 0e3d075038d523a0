// Package messages validates the messages of a handler result's rich-mode transcript, one at a
// time, and writes the ones it keeps with their tool calls in the flat form.
//
// A message that breaks a rule is dropped with exactly one soft warning, at its own path or
// deeper; the other messages are unaffected. Everything a message carries besides the keys the
// contract checks passes through as the exact JSON text it arrived as.
package messages

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Roles are the accepted values of a message's role, in the order messages quote them.
var Roles = [...]string{"system", "user", "assistant", "tool"}

// ToolCall is one tool call in the flat form {"id"?, "name", "arguments"?}, located in the input.
type ToolCall struct {
	ID, Name, Arguments jsonscan.Span // ID and Arguments are absent when not given
	ArgumentsWS         bool          // Arguments holds whitespace and is written compacted
}

// Message is a segment of kept messages, located in the input: one message that is rebuilt (to
// resolve duplicate keys or flatten its tool calls), or a run of consecutive messages that are
// copied as written, separators included. Runs keep the descriptors of a transcript of many
// small messages far smaller than the transcript itself.
type Message struct {
	Index     int           // position in the input array of the (first) message, for paths
	Count     int           // messages in the segment
	Span      jsonscan.Span // the message, or the run from its first message to its last
	copied    bool          // written as its input bytes: compacted when compact is set
	compact   bool          // the copied bytes hold whitespace between tokens
	members   [2]int32      // a rebuilt message's members in Reader.members.List
	calls     [2]int32      // its tool calls in Reader.calls
	toolCalls int32         // index of the tool_calls member to write in flat form, or -1
}

// Reader reads the messages array of one result. Its zero value is ready after Reset.
type Reader struct {
	s       *jsonscan.Scanner
	warn    *softwarn.Collector
	members jsonscan.Members // the members of every kept message that is not written verbatim
	entry   jsonscan.Members // the keys of the tool call being read
	fnKeys  jsonscan.Members // the keys of its function object
	calls   []ToolCall
	kept    []Message
	n       int         // messages kept
	dups    []duplicate // duplicate keys of the message being read, reported if it is kept
}

// duplicate is a duplicate key found inside a message, reported only if the message is kept so
// that a dropped message costs exactly one warning.
type duplicate struct {
	call     int // index of the tool call it is in, or -1 for the message itself
	function bool
	key      string
}

// Reset prepares r to read messages from s, reporting to warn.
func (r *Reader) Reset(s *jsonscan.Scanner, warn *softwarn.Collector) {
	r.s, r.warn = s, warn
	r.members.Reset()
	r.calls = r.calls[:0]
	r.kept = r.kept[:0]
	r.n = 0
}

// Cap is the largest capacity r holds on to, so that a pool can refuse to keep a huge Reader.
func (r *Reader) Cap() int {
	return max(cap(r.members.List), cap(r.calls), cap(r.kept), cap(r.entry.List), cap(r.fnKeys.List))
}

// Len is the number of messages kept.
func (r *Reader) Len() int { return r.n }

// Kept returns the kept messages in input order, as segments.
func (r *Reader) Kept() []Message { return r.kept }

// root is where messages are in a result.
var root = softwarn.At("messages")

// ReadArray reads the messages array at the scanner's position, which must be '['.
func (r *Reader) ReadArray() {
	i := 0
	for ok := r.s.ArrayStart(); ok; ok = r.s.ArrayNext() {
		r.Read(root, i)
		i++
	}
}

// Read reads one message at the scanner's position: it is kept, or dropped with one warning at
// loc.Index(i) or deeper.
func (r *Reader) Read(loc softwarn.Loc, i int) {
	s := r.s
	start := s.Pos()
	if kind := s.Peek(); kind != jsonscan.Object {
		s.SkipValue()
		if s.Err() == nil {
			r.warn.Add(notObject(loc.Index(i), kind))
		}
		return
	}
	ws0 := s.WS()
	first := r.members.Begin()
	callsFrom := len(r.calls)
	r.dups = r.dups[:0]
	data := s.Data()
	var f facts
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		key := s.KeyToken()
		_, keyFlags := s.Key()
		wsv, vstart := s.WS(), s.Pos()
		switch string(s.KeyName()) {
		case "tool_calls":
			r.calls = r.calls[:callsFrom]
			r.forgetCallDuplicates()
			f.calls = r.readToolCalls()
		case "thinking":
			f.thinking = readThinking(s)
		default:
			s.SkipValue()
		}
		value := jsonscan.Span{Start: vstart, End: s.Pos()}
		if j := r.members.Put(data, key, keyFlags, value, s.WS() != wsv); j >= 0 {
			r.dups = append(r.dups, duplicate{call: -1, key: string(r.members.Name(data, j))})
		}
	}
	if s.Err() != nil {
		return
	}
	if w, ok := r.check(loc, i, &f); !ok {
		r.warn.Add(w)
		r.members.Drop()
		r.calls = r.calls[:callsFrom]
		return
	}
	if len(r.dups) > 0 {
		r.reportDuplicates(loc.Index(i))
	}
	r.n++
	span := jsonscan.Span{Start: start, End: s.Pos()}
	toolCalls := -1
	if f.calls.kind == jsonscan.Array {
		toolCalls = r.members.Find(data, "tool_calls")
	}
	if len(r.dups) > 0 || toolCalls >= 0 {
		r.kept = append(r.kept, Message{Index: i, Count: 1, Span: span, toolCalls: int32(toolCalls),
			members: [2]int32{int32(first), int32(len(r.members.List))}, calls: [2]int32{int32(callsFrom), int32(len(r.calls))}})
		return
	}
	r.members.Drop()
	r.appendCopied(i, span, s.WS() != ws0)
}

// appendCopied adds message i, to be copied as written, to the run of copied messages before it
// when it directly follows that run in the input.
func (r *Reader) appendCopied(i int, span jsonscan.Span, ws bool) {
	if n := len(r.kept); n > 0 {
		if prev := &r.kept[n-1]; prev.copied && prev.Index+prev.Count == i {
			prev.compact = prev.compact || ws || span.Start-prev.Span.End != 1 // more than the ',' between
			prev.Span.End = span.End
			prev.Count++
			return
		}
	}
	r.kept = append(r.kept, Message{Index: i, Count: 1, Span: span, copied: true, compact: ws, toolCalls: -1})
}

func (r *Reader) forgetCallDuplicates() {
	kept := r.dups[:0]
	for _, d := range r.dups {
		if d.call < 0 {
			kept = append(kept, d)
		}
	}
	r.dups = kept
}

func (r *Reader) reportDuplicates(at softwarn.Loc) {
	for _, d := range r.dups {
		l := at
		if d.call >= 0 {
			l = l.Key("tool_calls").Index(d.call)
			if d.function {
				l = l.Key("function")
			}
		}
		r.warn.Add(l.Key(d.key).Warn(softwarn.DuplicateKey, softwarn.Dropped,
			"duplicate key "+quote(d.key)+"; the last value was kept and the earlier ones dropped, as the platform's parser does"))
	}
}

// AppendJSON appends the kept messages as a JSON array, or null when none was kept.
func (r *Reader) AppendJSON(dst []byte) []byte {
	if r.n == 0 {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range r.kept {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = r.AppendMessage(dst, &r.kept[i])
	}
	return append(dst, ']')
}

// AppendMessage appends one segment of kept messages, comma-separated when it holds several:
// members in input order, tool_calls in flat form.
func (r *Reader) AppendMessage(dst []byte, m *Message) []byte {
	data := r.s.Data()
	if m.copied {
		return jsonscan.AppendValue(dst, data, m.Span, m.compact)
	}
	dst = append(dst, '{')
	for i := m.members[0]; i < m.members[1]; i++ {
		mem := &r.members.List[i]
		if i > m.members[0] {
			dst = append(dst, ',')
		}
		key := mem.Key()
		dst = append(dst, data[key.Start:key.End]...)
		dst = append(dst, ':')
		if i == m.toolCalls {
			dst = r.appendCalls(dst, r.calls[m.calls[0]:m.calls[1]])
			continue
		}
		dst = jsonscan.AppendValue(dst, data, mem.Value(), mem.WS())
	}
	return append(dst, '}')
}

func (r *Reader) appendCalls(dst []byte, calls []ToolCall) []byte {
	data := r.s.Data()
	dst = append(dst, '[')
	for i, c := range calls {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		if c.ID.Present() {
			dst = append(dst, `"id":`...)
			dst = append(dst, data[c.ID.Start:c.ID.End]...)
			dst = append(dst, ',')
		}
		dst = append(dst, `"name":`...)
		dst = append(dst, data[c.Name.Start:c.Name.End]...)
		if c.Arguments.Present() {
			dst = append(dst, `,"arguments":`...)
			dst = jsonscan.AppendValue(dst, data, c.Arguments, c.ArgumentsWS)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// Check applies the message rules to raw, one JSON value, as if it were messages[0] of a
// result: it reports whether the message is kept, and otherwise the one warning that drops it.
// An error means raw is not one well-formed JSON value.
func Check(raw []byte) (kept bool, w softwarn.Warning, err error) {
	var (
		s    jsonscan.Scanner
		warn softwarn.Collector
		r    Reader
	)
	s.Reset(raw, 1000)
	r.Reset(&s, &warn)
	s.Peek()
	r.Read(root, 0)
	if s.AtEnd(); s.Err() != nil {
		return false, softwarn.Warning{}, s.Err()
	}
	if r.Len() == 1 {
		return true, softwarn.Warning{}, nil
	}
	return false, warn.Warnings()[0], nil
}

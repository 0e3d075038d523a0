// Package messages validates the messages of a handler result's rich-mode transcript, one at a
// time, and writes the ones it keeps with their tool calls in the flat form.
//
// A message that breaks a rule is dropped with exactly one soft warning, at its own path or
// deeper; the other messages are unaffected. Everything a message carries besides the keys the
// contract checks passes through as the exact JSON text it arrived as.
package messages

import (
	"fmt"
	"math"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// roles are the accepted values of a message's role, in the order messages quote them. The
// rules read this unexported array, so nothing outside the package can change what is valid.
var roles = [...]string{"system", "user", "assistant", "tool"}

// Roles returns the accepted values of a message's role, in the order warnings quote them. The
// slice is a fresh copy: changing it changes nothing else.
func Roles() []string { return append([]string(nil), roles[:]...) }

// ToolCall is one tool call in the flat form {"id"?, "name", "arguments"?}, located in the input.
type ToolCall struct {
	ID, Name, Arguments jsonscan.Span32 // ID and Arguments are absent when not given
	ArgumentsWS         bool            // Arguments holds whitespace and is written compacted
}

// segmentKind says how a segment of kept messages is written.
type segmentKind uint8

const (
	copied  segmentKind = iota // the input bytes, compacted if they hold whitespace
	spliced                    // the input bytes with the tool_calls value replaced by the flat form
	rebuilt                    // member by member: duplicate keys resolved, tool_calls flattened
)

// Message is a segment of kept messages, located in the input: a run of consecutive messages
// that are copied as written (separators included), one message whose tool calls are spliced
// in flat form, or one that is rebuilt member by member. Runs keep the descriptors of a
// transcript of many small messages far smaller than the transcript itself.
type Message struct {
	Index, Count int32           // input position of the (first) message, for paths; messages in the segment
	Span         jsonscan.Span32 // the message, or the run from its first message to its last
	ref          [2]int32        // spliced: the tool_calls value's span; rebuilt: its members in Reader.members
	calls        [2]int32        // its tool calls in Reader.calls
	kind         segmentKind
	compact      bool // the input bytes hold whitespace between tokens
}

// Reader reads the messages array of one result. Its zero value is ready after Reset.
//
// Reader, and the Message, ToolCall and segment accessors that come with it, are the
// normalizer's own machinery: Reset takes the module's internal scanner, so only code inside
// this module can use them. From outside, check one message with Check, or normalize a whole
// result with package normalize, whose Result has the record and its warnings.
type Reader struct {
	s       *jsonscan.Scanner
	warn    *softwarn.Collector
	members jsonscan.Members // the members of the message being read, and of kept rebuilt ones
	entry   jsonscan.Members // the keys of the tool call being read
	fnKeys  jsonscan.Members // the keys of its function object
	calls   chunked[ToolCall]
	kept    chunked[Message]
	callAt  chunked[int32] // with Observer: where each call in calls starts, as an object
	n       int            // messages kept
	dups    []duplicate    // duplicate keys of the message being read, reported if it is kept
	// callReason is why the first tool call of the message's tool_calls that does not
	// normalize does not (callFacts.bad): what its warning says. It is kept here, not in the
	// facts, which every message zeroes; it is read only where that message's reading set it.
	callReason softwarn.Parts
	// listAll lists every member of every message, as the reading of a message with a
	// duplicate key does: for tests, which compare the two readings.
	listAll bool
	// KeepFlatCalls keeps in the call table the calls of messages copied as they are (their
	// tool_calls already in the flat form), which the record does not need: the explain view
	// reads every kept call from the table. Without it a transcript of small flat calls costs
	// no table at all (28 bytes a call, more than a small call's own bytes).
	KeepFlatCalls bool
	// Observer, when set, is told of every message that is an object, kept or dropped, as
	// soon as it is read, and the table keeps where each call is (CallAt): what package
	// normalize's View shows of the messages, so that advice on them never reads the array
	// again and keeps no table of its own. It is meant with KeepFlatCalls, which puts every
	// kept call in the table.
	Observer Observer
}

// Observer is told of the messages a Reader reads.
type Observer interface {
	// Message is message m, just read. Its members are m.Members[0] to m.Members[1] of
	// members, each key once at its first place with its last value, as the record has them;
	// they are valid only during the call, and must not be changed.
	Message(m Located, members *jsonscan.Members)
}

// Located is a message of the input that is an object, as an Observer is told of it.
type Located struct {
	Index   int32           // its position in the messages array
	Span    jsonscan.Span32 // the message
	Members [2]int32        // its members in the Members passed with it
	Calls   [2]int32        // its tool calls in the table (none when dropped)
	Kept    bool
}

// duplicate is a duplicate key found inside a message, reported only if the message is kept so
// that a dropped message costs exactly one warning.
type duplicate struct {
	call     int // index of the tool call it is in, or -1 for the message itself
	function bool
	key      string // the key's text, for the path
	written  string // the key as written, escapes included, for the message
}

// Reset prepares r to read messages from s, reporting to warn.
func (r *Reader) Reset(s *jsonscan.Scanner, warn *softwarn.Collector) {
	r.s, r.warn = s, warn
	r.members.Reset()
	r.truncateCalls(0)
	r.kept.truncate(0)
	r.n = 0
}

// truncateCalls forgets the calls of the table from the n-th on.
func (r *Reader) truncateCalls(n int) {
	r.calls.truncate(n)
	r.callAt.truncate(n)
}

// Cap is the largest capacity r holds on to, so that a pool can refuse to keep a huge Reader.
func (r *Reader) Cap() int {
	return max(cap(r.members.List), r.calls.footprint(), r.kept.footprint(), cap(r.entry.List), cap(r.fnKeys.List))
}

// Len is the number of messages kept.
func (r *Reader) Len() int { return r.n }

// Calls is the number of tool calls in the table: every call of the kept messages with
// KeepFlatCalls, else those the record rewrites.
func (r *Reader) Calls() int { return r.calls.len() }

// Call is the kept messages' tool call i, in the order they come (as the record writes them).
func (r *Reader) Call(i int) ToolCall { return *r.calls.at(i) }

// CallAt is where the kept messages' tool call i starts, as an object in the input; only with
// an Observer.
func (r *Reader) CallAt(i int) int { return int(*r.callAt.at(i)) }

// Segments is the number of segments the kept messages are in.
func (r *Reader) Segments() int { return r.kept.len() }

// Segment returns segment i of the kept messages, in input order.
func (r *Reader) Segment(i int) *Message { return r.kept.at(i) }

// root is where messages are in a result.
var root = softwarn.At("messages")

// ReadArray reads the messages array at the scanner's position, which must be '['.
func (r *Reader) ReadArray() {
	i := 0
	for ok := r.s.ArrayStart(); ok; ok = r.s.ArrayNext() {
		r.read(&root, i)
		i++
	}
}

// Read reads one message at the scanner's position: it is kept, or dropped with one warning at
// loc.Index(i) or deeper.
func (r *Reader) Read(loc softwarn.Loc, i int) { r.read(&loc, i) }

// read is Read with loc by reference: a Loc holds its steps in place (168 bytes on 64-bit
// machines), and only a warning reads it, not each message.
func (r *Reader) read(loc *softwarn.Loc, i int) {
	s := r.s
	start := s.Pos()
	if kind := s.Peek(); kind != jsonscan.Object {
		s.SkipValue()
		switch {
		case s.Err() != nil:
		case r.warn.Full():
			r.warn.Skip("messages")
		default:
			w := notObject(loc.Index(i), kind)
			if kind == jsonscan.String && jsonscan.StringHoldsJSON(s.Data(), jsonscan.Span{Start: start, End: s.Pos()}, jsonscan.Object) {
				w.Found, w.Expected = "a string holding the JSON text of an object", "a message object"
				w.Fix = "the message was serialized twice (json.dumps of a message, or of a model_dump_json()): send the object itself"
			}
			r.warn.Add(w)
		}
		return
	}
	ws0, at := s.WS(), s.Pos() // at: after any whitespace Peek skipped
	first := r.members.Begin()
	callsFrom := r.calls.len()
	data := s.Data()
	// Only a message rebuilt member by member (one with a duplicate key) and an Observer need
	// the list of all its members. Until a duplicate turns up, the five keys the switch reads
	// are told apart by a bit each, and only the others go to the list: most messages have
	// no other (role and content, a tool message's tool_call_id). A duplicate sends the
	// reading back to the message's start, to read it again listing every member.
	listed := r.Observer != nil || r.listAll
	mark := s.Mark()
	var f facts
	for {
		r.dups = r.dups[:0]
		var seen, twice uint8
		var v jsonscan.Span // the member's value, whose end ObjectNextAfter takes in a register
		for ok := s.ObjectStart(); ok; ok = s.ObjectNextAfter(v) {
			key := s.KeyToken()
			name, keyFlags := s.UnescapedKey()
			wsv, vstart := s.WS(), s.Pos()
			var bit uint8
			switch string(name) {
			case "tool_calls":
				r.truncateCalls(callsFrom)
				r.forgetDuplicates(func(d duplicate) bool { return d.call >= 0 })
				f.calls, bit = r.readToolCalls(), 1
				v = jsonscan.Span{Start: vstart, End: s.Pos()}
			case "thinking":
				f.thinking, bit = readThinking(s), 2
				v = jsonscan.Span{Start: vstart, End: s.Pos()}
			case "role":
				v = skipValue(s)
				f.role, bit = v, 4
			case "content":
				v = skipValue(s)
				f.content, bit = v, 8
			case "tool_call_id":
				v = skipValue(s)
				f.callID, bit = v, 16
			default:
				v = skipValue(s)
			}
			if bit != 0 && !listed {
				twice |= seen & bit
				seen |= bit
				continue
			}
			if j := r.members.Put(data, key, keyFlags, v, s.WS() != wsv); j >= 0 {
				r.dups = append(r.dups, duplicate{call: -1, key: string(r.members.Name(data, j)), written: string(data[key.Start:key.End])})
			}
		}
		if listed || s.Err() != nil || twice == 0 && len(r.dups) == 0 {
			break
		}
		s.Rewind(mark)
		r.truncateCalls(callsFrom)
		r.members.Drop()
		r.members.Begin()
		f, listed = facts{}, true
	}
	if s.Err() != nil {
		return
	}
	if !r.valid(&f) && r.drop(loc, i, &f, at, first, callsFrom) {
		return
	}
	if len(r.dups) > 0 {
		r.reportDuplicates(loc.Index(i))
	}
	r.n++
	span := jsonscan.Span{Start: start, End: s.Pos()}.Pack()
	ws := s.WS() != ws0
	if len(r.dups) > 0 && f.calls.kind == jsonscan.Array && f.calls.flat && !r.KeepFlatCalls {
		r.backfillFlat(int(f.calls.span.Start), math.MaxInt) // rebuilt: written from the table
	}
	calls := [2]int32{int32(callsFrom), int32(r.calls.len())}
	if r.Observer != nil {
		r.observe(i, at, first, callsFrom, true)
	}
	switch {
	case len(r.dups) > 0:
		r.kept.append(Message{Index: int32(i), Count: 1, Span: span, kind: rebuilt, compact: ws,
			ref: [2]int32{int32(first), int32(len(r.members.List))}, calls: calls})
		return
	case f.calls.kind == jsonscan.Array && !f.calls.flat:
		r.kept.append(Message{Index: int32(i), Count: 1, Span: span, kind: spliced, compact: ws,
			ref: [2]int32{f.calls.span.Start, f.calls.span.End}, calls: calls})
	default:
		r.appendCopied(int32(i), span, ws)
		if !r.KeepFlatCalls {
			r.truncateCalls(callsFrom)
		}
	}
	r.members.Drop()
}

// drop drops message i, just read, which valid found invalid, with the one warning that
// drops it, and reports true; or, should the warning find nothing wrong, keeps it and reports
// false. The message starts at at, its members are from first on, its calls from callsFrom on.
func (r *Reader) drop(loc *softwarn.Loc, i int, f *facts, at, first, callsFrom int) bool {
	if r.warn.Full() {
		r.warn.Skip("messages") // it would only be counted: spare building it
	} else {
		w, ok := r.describe(loc.Index(i), f)
		if ok {
			return false
		}
		r.warn.Add(w)
	}
	r.truncateCalls(callsFrom)
	if r.Observer != nil {
		r.observe(i, at, first, callsFrom, false)
	}
	r.members.Drop()
	return true
}

// observe tells the Observer of message i, which starts at start and was just read, with its
// members from first on and its calls from callsFrom on.
func (r *Reader) observe(i, start, first, callsFrom int, kept bool) {
	m := Located{Index: int32(i), Span: jsonscan.Span{Start: start, End: r.s.Pos()}.Pack(),
		Members: [2]int32{int32(first), int32(len(r.members.List))}, Calls: [2]int32{int32(callsFrom), int32(r.calls.len())}, Kept: kept}
	r.Observer.Message(m, &r.members)
}

// appendCopied adds message i, to be copied as written, to the run of copied messages before it
// when it directly follows that run in the input.
func (r *Reader) appendCopied(i int32, span jsonscan.Span32, ws bool) {
	if r.kept.len() > 0 {
		if prev := r.kept.last(); prev.kind == copied && prev.Index+prev.Count == i {
			prev.compact = prev.compact || ws || span.Start-prev.Span.End != 1 // more than the ',' between
			prev.Span.End = span.End
			prev.Count++
			return
		}
	}
	r.kept.append(Message{Index: i, Count: 1, Span: span, kind: copied, compact: ws})
}

// skipValue is s.SkipValue, but a string, the commonest value, goes straight to its scan.
func skipValue(s *jsonscan.Scanner) jsonscan.Span {
	if d, i := s.Data(), s.Pos(); i < len(d) && d[i] == '"' {
		return s.StringValue()
	}
	return s.SkipValue()
}

// forgetDuplicates forgets the duplicates found in a value that a later one replaced.
func (r *Reader) forgetDuplicates(void func(duplicate) bool) {
	kept := r.dups[:0]
	for _, d := range r.dups {
		if !void(d) {
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
		r.warn.Add(l.Key(d.key).Warning(softwarn.DuplicateKey, softwarn.Dropped,
			softwarn.Parts{Problem: "duplicate key " + jsonscan.ShortToken(d.written), Done: softwarn.LastValueKept}))
	}
}

// AppendJSON appends the kept messages as a JSON array, or null when none was kept.
func (r *Reader) AppendJSON(dst []byte) []byte {
	if r.n == 0 {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range r.kept.len() {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = r.AppendMessage(dst, r.kept.at(i))
	}
	return append(dst, ']')
}

// AppendMessage appends one segment of kept messages, comma-separated when it holds several:
// members in input order, tool_calls in flat form.
func (r *Reader) AppendMessage(dst []byte, m *Message) []byte {
	switch m.kind {
	case spliced:
		dst = r.s.AppendValue(dst, jsonscan.Span{Start: int(m.Span.Start), End: int(m.ref[0])}, m.compact)
		dst = r.appendCalls(dst, m.calls)
		return r.s.AppendValue(dst, jsonscan.Span{Start: int(m.ref[1]), End: int(m.Span.End)}, m.compact)
	case rebuilt:
		return r.appendRebuilt(dst, m)
	}
	return r.s.AppendValue(dst, m.Span.Unpack(), m.compact)
}

func (r *Reader) appendRebuilt(dst []byte, m *Message) []byte {
	data := r.s.Data()
	dst = append(dst, '{')
	for i := m.ref[0]; i < m.ref[1]; i++ {
		mem := &r.members.List[i]
		if i > m.ref[0] {
			dst = append(dst, ',')
		}
		key := mem.Key()
		dst = append(dst, data[key.Start:key.End]...)
		dst = append(dst, ':')
		if value := mem.Value(); data[value.Start] == '[' && string(r.members.Name(data, int(i))) == "tool_calls" {
			dst = r.appendCalls(dst, m.calls)
			continue
		}
		dst = r.s.AppendValue(dst, mem.Value(), mem.WS())
	}
	return append(dst, '}')
}

func (r *Reader) appendCalls(dst []byte, calls [2]int32) []byte {
	data := r.s.Data()
	dst = append(dst, '[')
	for i := calls[0]; i < calls[1]; i++ {
		c := r.calls.at(int(i))
		if i > calls[0] {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		if c.ID.End > c.ID.Start {
			dst = append(dst, `"id":`...)
			dst = append(dst, data[c.ID.Start:c.ID.End]...)
			dst = append(dst, ',')
		}
		dst = append(dst, `"name":`...)
		dst = append(dst, data[c.Name.Start:c.Name.End]...)
		if c.Arguments.End > c.Arguments.Start {
			dst = append(dst, `,"arguments":`...)
			dst = r.s.AppendValue(dst, c.Arguments.Unpack(), c.ArgumentsWS)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// Check applies the message rules to raw, one JSON value, as Normalize applies them to
// messages[0] of a result with default options, such as {"final_response": "x", "messages":
// [raw]}. Its answer is exactly Normalize's there:
//   - kept: whether the record keeps the message;
//   - warnings: the warnings that result's record lists, in order: a dropped message has the
//     one warning that drops it; a kept one usually none, but one per duplicate key
//     (duplicate_key: the last value is kept). At most normalize.DefaultMaxWarnings are listed,
//     then one warnings_limited that counts the rest, as in a record;
//   - err, always a *SyntaxError: raw is not one well-formed JSON value, or (TooDeep) it nests
//     deeper than a message may inside such a result, where Normalize rejects the whole result
//     as InvalidJSON: normalize.DefaultMaxDepth counts the result object and the messages
//     array, so a message may nest two levels fewer; or (TooManyDigits) it holds an integer
//     the platform's parser does not read (normalize.MaxIntDigits), which Normalize rejects too.
//
// It does not apply Normalize's limit on the size of a result (normalize.DefaultMaxBytes), only
// the hard one Normalize has too: offsets are kept in 32 bits, so a raw of 2 GiB or more is
// refused (a *SyntaxError with TooLarge set) before it is read.
func Check(raw []byte) (kept bool, warnings []softwarn.Warning, err error) {
	if len(raw) > math.MaxInt32 {
		return false, nil, &SyntaxError{Line: 1, Column: 1, TooLarge: true, Reason: fmt.Sprintf("a message of %d bytes; expected under 2 GiB (offsets are kept in 32 bits)", len(raw))}
	}
	var (
		s    jsonscan.Scanner
		warn softwarn.Collector
		r    Reader
	)
	s.Reset(raw, messageMaxDepth)
	warn.SetLimit(softwarn.DefaultLimit)
	r.Reset(&s, &warn)
	s.Peek()
	r.read(&root, 0)
	if s.AtEnd(); s.Err() != nil {
		return false, nil, syntaxError(raw, s.Err())
	}
	warn.Close()
	return r.Len() == 1, warn.Warnings(), nil
}

// resultLevels are the levels above a message in a result: the result object and the messages
// array.
const resultLevels = 2

// messageMaxDepth is the nesting a message may have inside a result nested to the default
// limit.
const messageMaxDepth = jsonscan.DefaultMaxDepth - resultLevels

// SyntaxError says where the input to Check is not one well-formed JSON value, or that it nests
// too deep. Branch on the type (errors.As) and its fields, never on the message text.
//
// It carries the facts normalize.InvalidJSONError carries for the same error in a result,
// except JSONLines, which is about a file of results, not one message.
type SyntaxError struct {
	Offset int    // byte offset of the problem, from 0
	Line   int    // line of the problem, from 1
	Column int    // column in characters (code points) within that line, from 1, as Python counts
	Reason string // what was found and what was expected
	// TooDeep: the message nests deeper than it may inside a result (normalize.DefaultMaxDepth,
	// less the two levels of the result object and its messages array), where Normalize
	// rejects the whole result with InvalidJSONError.TooDeep. An encoder writes such nesting
	// as readily as any other, so the fix is the structure, not the writing.
	TooDeep bool
	// TooManyDigits: an integer literal has more digits than the platform's parser reads
	// (normalize.MaxIntDigits), where Normalize rejects the whole result with
	// InvalidJSONError.TooManyDigits.
	TooManyDigits bool
	// TooLarge: raw is 2 GiB or more and was not read: a size refusal, where Normalize answers
	// PayloadTooLargeError, not malformed JSON.
	TooLarge bool
}

func (e *SyntaxError) Error() string {
	if e.TooLarge {
		return "too large: " + e.Reason
	}
	return fmt.Sprintf("invalid JSON at line %d, column %d (byte offset %d): %s", e.Line, e.Column, e.Offset, e.Reason)
}

// syntaxError places the scanner's error in data as normalize's InvalidJSONError does (line,
// and column in characters); only the error path counts them.
func syntaxError(data []byte, e *jsonscan.SyntaxError) *SyntaxError {
	line, col := e.LineColumn(data)
	reason := e.Reason
	if base, ok := strings.CutSuffix(reason, jsonscan.JSONLinesAdvice); ok && e.JSONLines {
		reason = base + " (one message per line): pass one message per call"
	}
	if e.TooDeep { // the scanner's reason names the message's own limit: say where it comes from
		reason += fmt.Sprintf(" (a message sits %d levels down in a result, which may nest %d)", resultLevels, jsonscan.DefaultMaxDepth)
	}
	return &SyntaxError{Offset: e.Offset, Line: line, Column: col, Reason: reason, TooDeep: e.TooDeep, TooManyDigits: e.TooManyDigits}
}

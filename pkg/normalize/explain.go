package normalize

import (
	"bytes"
	"hash/maphash"
	"strconv"
	"unicode/utf8"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// lint finds the explain view's notes. It is the human path, not the hot one: it walks the
// input's kept messages a second time with the scanner, keeping a few facts per message and
// about 30 bytes per tool call, decoding nothing, and it lists at most as many notes as
// warnings (the rest are counted), so that explain on a hostile transcript stays within a
// small multiple of the input.
func lint(r *Result) []softwarn.Warning {
	n := noteList{limit: r.maxWarnings}
	if r.finalKind == jsonscan.String && !r.truncated {
		finalNotes(r, &n)
	}
	var w messageWalk
	w.run(r, &n)
	return n.close()
}

// finalNotes notes a final_response that the platform accepts but the judge can do nothing
// with: a whole result serialized twice, only whitespace, or a placeholder that str() of a
// missing value prints.
func finalNotes(r *Result, n *noteList) {
	at := softwarn.At("final_response")
	text := jsonscan.StringText(r.final, jsonscan.Span{Start: 0, End: len(r.final)})
	switch {
	case holdsResult(r.final, r.s.MaxDepth()):
		if n.take() {
			n.list = append(n.list, at.Warn(softwarn.FinalResponseSerialized, softwarn.Kept,
				`is the JSON text of a whole result (an object with "final_response"), graded as it is: `+
					`the result was serialized twice (json.dumps of a JSON string); return the object itself`))
		}
	case len(bytes.TrimSpace(text)) == 0:
		if n.take() {
			n.list = append(n.list, at.Warn(softwarn.FinalResponsePlaceholder, softwarn.Kept,
				"is only whitespace: accepted (it is not empty), but the judge has nothing to grade; "+
					"return at least a one-sentence summary of what the agent did or why it failed"))
		}
	default:
		switch t := string(bytes.TrimSpace(text)); t {
		case "None", "null", "undefined", "NaN", "nil":
			if n.take() {
				n.list = append(n.list, at.Warn(softwarn.FinalResponsePlaceholder, softwarn.Kept,
					"is the text "+strconv.Quote(t)+", what str() prints for a missing value: the judge grades that text; "+
						"return the agent's answer, or a summary of why there is none"))
			}
		}
	}
}

// noteList keeps the notes up to a limit and counts the rest; take says whether to build the
// next one.
type noteList struct {
	list  []softwarn.Warning
	limit int
	more  int
}

func (n *noteList) take() bool {
	if n.limit > 0 && len(n.list) >= n.limit {
		n.more++
		return false
	}
	return true
}

func (n *noteList) close() []softwarn.Warning {
	if n.more > 0 {
		n.list = append(n.list, softwarn.At("messages").Warn(softwarn.NotesLimited, softwarn.Kept,
			strconv.Itoa(n.more)+" more notes were not listed: a record lists at most "+strconv.Itoa(n.limit)+
				"; act on the ones listed and normalize again"))
	}
	return n.list
}

// holdsResult reports whether the final_response token is the JSON text of an object with
// final_response (a result serialized twice), read with the result's own depth limit.
func holdsResult(final []byte, maxDepth int) bool {
	text := bytes.TrimSpace(jsonscan.StringText(final, jsonscan.Span{Start: 0, End: len(final)}))
	var s jsonscan.Scanner
	s.Reset(text, maxDepth)
	if s.Peek() != jsonscan.Object {
		return false
	}
	found := false
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		found = found || string(s.KeyName()) == "final_response"
		s.SkipValue()
	}
	return found && s.AtEnd()
}

// messageWalk is one pass over the input's messages for the notes. The tool calls are the
// record's (messages.Reader.Call), in the order the walk meets them; the walk keeps where each
// is, whether it is answered, and a hash of its id: about 30 bytes a call, for there may be a
// million.
type messageWalk struct {
	r        *Result
	data     []byte           // the messages array, as sent
	calls    []callRef        // where kept call k is
	answered []bool           // whether a tool message answers kept call k
	byID     map[uint64]int32 // call by a hash of its id; the last call with an id wins
	byFolded map[uint64]int32 // first call by a hash of its id folded, once an id is unmatched
	seed     maphash.Seed
	msg      messageFacts
}

// callRef is where a kept tool call is: message and index in the input.
type callRef struct{ msg, index int32 }

// messageFacts is what the notes need of one message; its last value of each key counts, as
// in the record.
type messageFacts struct {
	isTool       bool
	toolCallID   jsonscan.Span // the string token, absent when missing or null
	functionCall bool          // present and not null
	uses         int           // Anthropic tool_use blocks in content
	results      int           // Anthropic tool_result blocks in content
	calls        int           // in its last tool_calls
	otherArgs    []otherArgs   // the calls whose arguments are under another key: few
}

// otherArgs is a call whose arguments are under args, input or parameters, not arguments.
type otherArgs struct {
	index int
	key   string
}

// run walks the kept messages, giving their notes, then the notes of the calls nothing
// answered. If the walk and the record's call table were ever out of step, the calls' notes
// would name the wrong calls: they are left out then.
func (w *messageWalk) run(r *Result, n *noteList) (inStep bool) {
	data, depth := r.s.Data(), r.s.MaxDepth()
	sp := lastMessages(data, depth)
	if !sp.Present() {
		return r.msgs.Calls() == 0
	}
	w.r, w.data, w.seed = r, data[sp.Start:sp.End], maphash.MakeSeed()
	w.calls, w.answered = make([]callRef, 0, r.msgs.Calls()), make([]bool, r.msgs.Calls())
	w.byID = map[uint64]int32{}
	if !w.walk(depth, n) {
		return false
	}
	w.noteUnanswered(n)
	return true
}

// walk reads each kept message and gives its notes; it reports whether it met exactly the
// calls the record kept.
func (w *messageWalk) walk(depth int, n *noteList) bool {
	kept := keptRanges(w.r)
	var s jsonscan.Scanner
	s.Reset(w.data, depth)
	if s.Peek() != jsonscan.Array { // null, or not an array: no message was kept
		return len(w.answered) == 0
	}
	i := 0
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		for len(kept) > 0 && i >= kept[0][1] {
			kept = kept[1:]
		}
		if len(kept) > 0 && i >= kept[0][0] && s.Peek() == jsonscan.Object {
			w.read(&s)
			if !w.register(i) {
				return false
			}
			w.note(n, i)
		} else {
			s.SkipValue()
		}
		i++
	}
	return s.Err() == nil && len(w.calls) == len(w.answered)
}

// keptRanges is the input index ranges of the kept messages, in order.
func keptRanges(r *Result) [][2]int {
	var kept [][2]int
	for k := range r.msgs.Segments() {
		seg := r.msgs.Segment(k)
		kept = append(kept, [2]int{int(seg.Index), int(seg.Index + seg.Count)})
	}
	return kept
}

// register records the calls of kept message i, just read; false when there are more than the
// record kept (the walk is out of step).
func (w *messageWalk) register(i int) bool {
	for j := range w.msg.calls {
		k := len(w.calls)
		if k >= len(w.answered) {
			return false
		}
		w.calls = append(w.calls, callRef{msg: int32(i), index: int32(j)})
		if id, ok := w.callID(k); ok {
			w.byID[maphash.Bytes(w.seed, id)] = int32(k)
			w.addFolded(k, id)
		}
	}
	return true
}

// callID is the text of kept call k's id, when it has one (a string).
func (w *messageWalk) callID(k int) ([]byte, bool) {
	data, sp := w.r.s.Data(), w.r.msgs.Call(k).ID.Unpack()
	if !sp.Present() || data[sp.Start] != '"' {
		return nil, false
	}
	return jsonscan.StringText(data, sp), true
}

// answer marks the call that id answers; false when no earlier call has that id.
func (w *messageWalk) answer(id []byte) bool {
	k, ok := w.byID[maphash.Bytes(w.seed, id)]
	if !ok {
		return false
	}
	if theirs, _ := w.callID(int(k)); !bytes.Equal(theirs, id) {
		return false // a hash collision
	}
	w.answered[k] = true
	return true
}

// folded is an id in lower case without surrounding space, for "did you mean"; ids that are
// not valid UTF-8 (lone surrogates) are not folded.
func folded(id []byte) ([]byte, bool) {
	if !utf8.Valid(id) {
		return nil, false
	}
	return bytes.ToLower(bytes.TrimSpace(id)), true
}

// addFolded indexes call k by its folded id, once byFolded exists.
func (w *messageWalk) addFolded(k int, id []byte) {
	if w.byFolded == nil {
		return
	}
	if f, ok := folded(id); ok {
		h := maphash.Bytes(w.seed, f)
		if _, seen := w.byFolded[h]; !seen {
			w.byFolded[h] = int32(k)
		}
	}
}

// didYouMean suggests the id of an earlier call that id matches but for case or surrounding
// space. The folded index is built the first time it is needed: most transcripts never do.
func (w *messageWalk) didYouMean(id []byte) string {
	if w.byFolded == nil {
		w.byFolded = map[uint64]int32{}
		for k := range w.calls {
			if theirs, ok := w.callID(k); ok {
				w.addFolded(k, theirs)
			}
		}
	}
	f, ok := folded(id)
	if !ok {
		return ""
	}
	k, ok := w.byFolded[maphash.Bytes(w.seed, f)]
	if !ok {
		return ""
	}
	theirs, _ := w.callID(int(k))
	if g, _ := folded(theirs); bytes.Equal(theirs, id) || !bytes.Equal(f, g) {
		return ""
	}
	return "; did you mean " + jsonscan.ShortToken(tokenText(w.r.s.Data(), w.r.msgs.Call(int(k)).ID.Unpack())) + "? ids are matched exactly"
}

// tokenText is the token at sp, as written.
func tokenText(data []byte, sp jsonscan.Span) string { return string(data[sp.Start:sp.End]) }

// noteUnanswered notes the calls no tool message answered.
func (w *messageWalk) noteUnanswered(n *noteList) {
	data := w.r.s.Data()
	for k, c := range w.calls {
		if w.answered[k] || !n.take() {
			continue
		}
		at := softwarn.At("messages").Index(int(c.msg)).Key("tool_calls").Index(int(c.index))
		call := w.r.msgs.Call(k)
		name := jsonscan.ShortToken(tokenText(data, call.Name.Unpack()))
		if _, ok := w.callID(k); ok {
			id := jsonscan.ShortToken(tokenText(data, call.ID.Unpack()))
			n.list = append(n.list, at.Warn(softwarn.ToolCallUnanswered, softwarn.Kept, "tool call "+name+" (id "+id+
				") has no tool message answering it; add {\"role\": \"tool\", \"tool_call_id\": "+id+", \"content\": <the result>} after it"))
			continue
		}
		n.list = append(n.list, at.Warn(softwarn.ToolCallUnanswered, softwarn.Kept, "tool call "+name+
			" has no id, so no tool message can answer it; give it an id and answer it with "+
			"{\"role\": \"tool\", \"tool_call_id\": <the id>, \"content\": ...}"))
	}
}

// messageAt is where kept message i is; built only for a note.
func messageAt(i int) softwarn.Loc { return softwarn.At("messages").Index(i) }

// note gives the notes of kept message i, whose facts were just read.
func (w *messageWalk) note(n *noteList, i int) {
	m := &w.msg
	if m.isTool {
		w.noteResult(n, i)
	}
	if m.functionCall && n.take() {
		n.list = append(n.list, messageAt(i).Key("function_call").Warn(softwarn.LegacyFunctionCall, softwarn.Kept,
			"function_call is OpenAI's legacy field, kept as sent, but the trace shows calls only from tool_calls: "+
				"send it as \"tool_calls\": [{\"id\": <an id>, \"name\": <name>, \"arguments\": <arguments>}]"))
	}
	if m.uses > 0 && n.take() {
		n.list = append(n.list, messageAt(i).Key("content").Warn(softwarn.AnthropicContentBlocks, softwarn.Kept,
			"holds "+plural(m.uses, "Anthropic tool_use block")+"; the trace shows tool calls only from tool_calls: "+
				"move each to tool_calls as {\"id\": <id>, \"name\": <name>, \"arguments\": <input>}"))
	}
	if m.results > 0 && n.take() {
		n.list = append(n.list, messageAt(i).Key("content").Warn(softwarn.AnthropicContentBlocks, softwarn.Kept,
			"holds "+plural(m.results, "Anthropic tool_result block")+"; the trace links results only from tool messages: "+
				"send each as {\"role\": \"tool\", \"tool_call_id\": <tool_use_id>, \"content\": <content>}"))
	}
	for _, c := range m.otherArgs {
		if n.take() {
			n.list = append(n.list, messageAt(i).Key("tool_calls").Index(c.index).Warn(softwarn.ToolCallArgumentsKey, softwarn.Kept,
				"has no \"arguments\" but has "+strconv.Quote(c.key)+" ("+argumentsKeyOrigin(c.key)+
					"), which the flat form does not keep: the trace shows this call without arguments; send them as \"arguments\""))
		}
	}
}

// noteResult links tool message i to the call it answers, or notes why it cannot be.
func (w *messageWalk) noteResult(n *noteList, i int) {
	if !w.msg.toolCallID.Present() {
		if n.take() {
			n.list = append(n.list, messageAt(i).Warn(softwarn.ToolResultUnmatched, softwarn.Kept,
				"a tool message without tool_call_id, so the trace cannot link this result to its call; "+
					"add \"tool_call_id\": <the id of the assistant tool call it answers>"))
		}
		return
	}
	id := jsonscan.StringText(w.data, w.msg.toolCallID)
	if w.answer(id) || !n.take() {
		return
	}
	n.list = append(n.list, messageAt(i).Key("tool_call_id").Warn(softwarn.ToolResultUnmatched, softwarn.Kept,
		"tool_call_id "+jsonscan.ShortToken(tokenText(w.data, w.msg.toolCallID))+" answers no earlier tool call, so the trace cannot link this result "+
			"to its call; use the id of the assistant tool call it answers"+w.didYouMean(id)))
}

// read reads the message object at the scanner into w.msg.
func (w *messageWalk) read(s *jsonscan.Scanner) {
	m := &w.msg
	*m = messageFacts{otherArgs: m.otherArgs[:0]}
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		switch string(s.KeyName()) {
		case "role":
			v := w.stringAt(s.SkipValue())
			m.isTool = v.Present() && string(jsonscan.StringText(w.data, v)) == "tool"
		case "tool_call_id":
			m.toolCallID = w.stringAt(s.SkipValue())
		case "function_call":
			m.functionCall = w.data[s.SkipValue().Start] != 'n'
		case "content":
			m.uses, m.results = w.contentBlocks(s)
		case "tool_calls":
			m.calls, m.otherArgs = 0, m.otherArgs[:0]
			if s.Peek() != jsonscan.Array {
				s.SkipValue()
				continue
			}
			for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
				if key := w.readCall(s); key != "" {
					m.otherArgs = append(m.otherArgs, otherArgs{index: m.calls, key: key})
				}
				m.calls++
			}
		default:
			s.SkipValue()
		}
	}
}

// stringAt is v when it is a string token, else absent.
func (w *messageWalk) stringAt(v jsonscan.Span) jsonscan.Span {
	if v.Present() && w.data[v.Start] == '"' {
		return v
	}
	return jsonscan.Span{}
}

// contentBlocks counts the Anthropic tool_use and tool_result blocks of the content at the
// scanner, which the trace does not link.
func (w *messageWalk) contentBlocks(s *jsonscan.Scanner) (uses, results int) {
	if s.Peek() != jsonscan.Array {
		s.SkipValue()
		return 0, 0
	}
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		if s.Peek() != jsonscan.Object {
			s.SkipValue()
			continue
		}
		typ := ""
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			isType := string(s.KeyName()) == "type"
			if v := w.stringAt(s.SkipValue()); isType {
				typ = ""
				if v.Present() {
					typ = string(jsonscan.StringText(w.data, v))
				}
			}
		}
		switch typ {
		case "tool_use":
			uses++
		case "tool_result":
			results++
		}
	}
	return uses, results
}

// readCall reads the tool call at the scanner and returns the other key its arguments are
// under, or "". As in the record, OpenAI's nested shape takes them from function.
func (w *messageWalk) readCall(s *jsonscan.Scanner) string {
	// Not an object: an earlier tool_calls of a message whose last one the record kept.
	if s.Peek() != jsonscan.Object {
		s.SkipValue()
		return ""
	}
	var entry, function argumentsKeys
	nested := false
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := s.KeyName()
		if string(name) != "function" {
			entry.see(name)
			s.SkipValue()
			continue
		}
		if nested = s.Peek() == jsonscan.Object; !nested {
			s.SkipValue()
			continue
		}
		function = argumentsKeys{}
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			function.see(s.KeyName())
			s.SkipValue()
		}
	}
	if nested {
		entry = function
	}
	if entry.arguments {
		return ""
	}
	return entry.other
}

// argumentsKeys is what readCall notes of one object's keys.
type argumentsKeys struct {
	arguments bool
	other     string
}

func (a *argumentsKeys) see(name []byte) {
	switch string(name) {
	case "arguments":
		a.arguments = true
	case "args", "input", "parameters":
		if a.other == "" {
			a.other = string(name)
		}
	}
}

func argumentsKeyOrigin(key string) string {
	switch key {
	case "args":
		return "LangChain's name for them"
	case "input":
		return "Anthropic's name for them"
	}
	return "a function schema's name"
}

// lastMessages finds the value of the result object's last "messages" key (the one that
// counts), without decoding the rest: a final_response of megabytes is not copied for it.
func lastMessages(data []byte, maxDepth int) jsonscan.Span {
	var s jsonscan.Scanner
	s.Reset(data, maxDepth)
	var last jsonscan.Span
	if s.Peek() != jsonscan.Object {
		return last
	}
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		isMessages := string(s.KeyName()) == "messages"
		if v := s.SkipValue(); isMessages {
			last = v
		}
	}
	return last
}

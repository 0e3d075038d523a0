package normalize

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// lint finds the explain view's notes. It is the human path, not the hot one: it walks the
// input's kept messages a second time with the scanner, keeping a few facts per message and
// per tool call and decoding nothing, and it lists at most as many notes as warnings (the
// rest are counted), so that explain on a hostile transcript costs about what normalizing it
// does.
func lint(r *Result) []softwarn.Warning {
	n := noteList{limit: r.maxWarnings}
	if r.finalKind == jsonscan.String && !r.truncated && holdsResult(r.final) && n.take() {
		n.list = append(n.list, softwarn.At("final_response").Warn(softwarn.FinalResponseSerialized, softwarn.Kept,
			`is the JSON text of a whole result (an object with "final_response"), graded as it is: the result was serialized twice (json.dumps of a JSON string); return the object itself`))
	}
	var w messageWalk
	w.run(r, &n)
	return n.close()
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
// final_response: a result serialized twice.
func holdsResult(final []byte) bool {
	sp := jsonscan.Span{Start: 0, End: len(final)}
	if !jsonscan.StringHoldsJSON(final, sp, jsonscan.Object) {
		return false
	}
	var inner map[string]json.RawMessage
	return json.Unmarshal(jsonscan.StringText(final, sp), &inner) == nil && inner["final_response"] != nil
}

// messageWalk is one pass over the input's messages for the notes: where the tool calls seen
// so far are (to link tool messages to them, and to list the calls nothing answers). The
// calls themselves are the record's (messages.Reader.Call), in the same order: the walk keeps
// 9 bytes per call, for there may be a million.
type messageWalk struct {
	r        *Result
	data     []byte         // the messages array, as sent
	calls    []callRef      // where kept call k is
	answered []bool         // whether a tool message answers kept call k
	byID     map[string]int // call by id; the last call with an id wins
	byFolded map[string]int // call + 1 by id in lower case, for "did you mean"
	msg      messageFacts
}

// callRef is where a kept tool call is: message and index in the input.
type callRef struct{ msg, index int32 }

// callID is kept call k's id, and whether it has one (a string).
func (w *messageWalk) callID(k int) (string, bool) {
	data, sp := w.r.s.Data(), w.r.msgs.Call(k).ID.Unpack()
	if !sp.Present() || data[sp.Start] != '"' {
		return "", false
	}
	return string(jsonscan.StringText(data, sp)), true
}

// messageFacts is what the notes need of one message; its last value of each key counts, as
// in the record.
type messageFacts struct {
	role         string
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

func (w *messageWalk) run(r *Result, n *noteList) {
	data, depth := r.s.Data(), r.s.MaxDepth()
	sp := lastMessages(data, depth)
	if !sp.Present() {
		return
	}
	w.r, w.data = r, data[sp.Start:sp.End]
	w.byID, w.byFolded = map[string]int{}, map[string]int{}
	w.calls, w.answered = make([]callRef, 0, r.msgs.Calls()), make([]bool, r.msgs.Calls())
	var kept [][2]int // input index ranges of the kept messages, in order
	for k := range r.msgs.Segments() {
		seg := r.msgs.Segment(k)
		kept = append(kept, [2]int{int(seg.Index), int(seg.Index + seg.Count)})
	}
	var s jsonscan.Scanner
	s.Reset(w.data, depth)
	i := 0
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		for len(kept) > 0 && i >= kept[0][1] {
			kept = kept[1:]
		}
		if len(kept) > 0 && i >= kept[0][0] && s.Peek() == jsonscan.Object {
			w.read(&s)
			w.note(n, i)
		} else {
			s.SkipValue()
		}
		i++
	}
	root := softwarn.At("messages")
	for k, c := range w.calls {
		if w.answered[k] || !n.take() {
			continue
		}
		at := root.Index(int(c.msg)).Key("tool_calls").Index(int(c.index))
		name := strconv.Quote(string(jsonscan.StringText(data, w.r.msgs.Call(k).Name.Unpack())))
		if id, ok := w.callID(k); ok {
			n.list = append(n.list, at.Warn(softwarn.ToolCallUnanswered, softwarn.Kept,
				"tool call "+name+" (id "+strconv.Quote(id)+") has no tool message answering it; add {\"role\": \"tool\", \"tool_call_id\": "+strconv.Quote(id)+", \"content\": <the result>} after it"))
		} else {
			n.list = append(n.list, at.Warn(softwarn.ToolCallUnanswered, softwarn.Kept,
				"tool call "+name+" has no id, so no tool message can answer it; give it an id and answer it with {\"role\": \"tool\", \"tool_call_id\": <the id>, \"content\": ...}"))
		}
	}
}

// note gives the notes of kept message i, whose facts were just read, and registers its calls.
func (w *messageWalk) note(n *noteList, i int) {
	m := &w.msg
	at := softwarn.At("messages").Index(i)
	for j := range m.calls {
		k := len(w.calls)
		if k >= len(w.answered) {
			break // cannot happen: the walk sees the calls the record kept
		}
		w.calls = append(w.calls, callRef{msg: int32(i), index: int32(j)})
		if id, ok := w.callID(k); ok {
			w.byID[id] = k
			if folded := strings.ToLower(strings.TrimSpace(id)); w.byFolded[folded] == 0 {
				w.byFolded[folded] = k + 1 // 0 is "none"
			}
		}
	}
	switch {
	case m.role != "tool":
	case m.toolCallID.Present():
		id := string(jsonscan.StringText(w.data, m.toolCallID))
		if k, ok := w.byID[id]; ok {
			w.answered[k] = true
		} else if n.take() {
			n.list = append(n.list, at.Key("tool_call_id").Warn(softwarn.ToolResultUnmatched, softwarn.Kept,
				"tool_call_id "+strconv.Quote(id)+" answers no earlier tool call, so the trace cannot link this result to its call; use the id of the assistant tool call it answers"+
					w.didYouMean(id)))
		}
	case n.take():
		n.list = append(n.list, at.Warn(softwarn.ToolResultUnmatched, softwarn.Kept,
			"a tool message without tool_call_id, so the trace cannot link this result to its call; add \"tool_call_id\": <the id of the assistant tool call it answers>"))
	}
	if m.functionCall && n.take() {
		n.list = append(n.list, at.Key("function_call").Warn(softwarn.LegacyFunctionCall, softwarn.Kept,
			"function_call is OpenAI's legacy field, kept as sent, but the trace shows calls only from tool_calls: send it as \"tool_calls\": [{\"id\": <an id>, \"name\": <name>, \"arguments\": <arguments>}]"))
	}
	if m.uses > 0 && n.take() {
		n.list = append(n.list, at.Key("content").Warn(softwarn.AnthropicContentBlocks, softwarn.Kept,
			"holds "+plural(m.uses, "Anthropic tool_use block")+"; the trace shows tool calls only from tool_calls: move each to tool_calls as {\"id\": <id>, \"name\": <name>, \"arguments\": <input>}"))
	}
	if m.results > 0 && n.take() {
		n.list = append(n.list, at.Key("content").Warn(softwarn.AnthropicContentBlocks, softwarn.Kept,
			"holds "+plural(m.results, "Anthropic tool_result block")+"; the trace links results only from tool messages: send each as {\"role\": \"tool\", \"tool_call_id\": <tool_use_id>, \"content\": <content>}"))
	}
	for _, c := range m.otherArgs {
		if n.take() {
			n.list = append(n.list, at.Key("tool_calls").Index(c.index).Warn(softwarn.ToolCallArgumentsKey, softwarn.Kept,
				"has no \"arguments\" but has "+strconv.Quote(c.key)+" ("+argumentsKeyOrigin(c.key)+"), which the flat form does not keep: the trace shows this call without arguments; send them as \"arguments\""))
		}
	}
}

// didYouMean suggests the id of a call that id matches but for case or whitespace.
func (w *messageWalk) didYouMean(id string) string {
	if k := w.byFolded[strings.ToLower(strings.TrimSpace(id))]; k > 0 {
		if theirs, _ := w.callID(k - 1); theirs != id {
			return "; did you mean " + strconv.Quote(theirs) + "? ids are matched exactly"
		}
	}
	return ""
}

// read reads the message object at the scanner into w.msg.
func (w *messageWalk) read(s *jsonscan.Scanner) {
	m := &w.msg
	*m = messageFacts{otherArgs: m.otherArgs[:0]}
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		switch string(s.KeyName()) {
		case "role":
			m.role = ""
			if v := s.SkipValue(); w.data[v.Start] == '"' {
				m.role = string(jsonscan.StringText(w.data, v))
			}
		case "tool_call_id":
			m.toolCallID = jsonscan.Span{}
			if v := s.SkipValue(); w.data[v.Start] == '"' {
				m.toolCallID = v
			}
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
			if v := s.SkipValue(); isType {
				typ = ""
				if w.data[v.Start] == '"' {
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

// readCall reads the tool call at the scanner (an object: its message was kept) and returns
// the other key its arguments are under, or "". As in the record, OpenAI's nested shape takes them from function.
func (w *messageWalk) readCall(s *jsonscan.Scanner) string {
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

package normalize

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// lint finds the explain view's notes in the kept messages. It is the human path, not the hot
// one, so it decodes each kept message again with encoding/json rather than widening the scan.
func lint(r *Result) []softwarn.Warning {
	notes := finalResponseNotes(r)
	return append(notes, messageNotes(r)...)
}

// messageNotes finds the notes about the kept messages and their tool calls.
func messageNotes(r *Result) []softwarn.Warning {
	var (
		notes []softwarn.Warning
		calls []*call
		byID  = map[string]*call{}
		buf   []byte
	)
	root := softwarn.At("messages")
	for k := range r.msgs.Segments() {
		seg := r.msgs.Segment(k)
		buf = append(r.msgs.AppendMessage(append(buf[:0], '['), seg), ']')
		var list []json.RawMessage
		if err := json.Unmarshal(buf, &list); err != nil {
			continue
		}
		for j, raw := range list {
			var msg struct {
				Role         string          `json:"role"`
				ToolCallID   *string         `json:"tool_call_id"`
				Content      json.RawMessage `json:"content"`
				FunctionCall json.RawMessage `json:"function_call"`
				ToolCalls    []struct {
					ID   *string `json:"id"`
					Name string  `json:"name"`
				} `json:"tool_calls"`
			}
			if err := decodeExact(raw, &msg); err != nil {
				continue
			}
			at := root.Index(int(seg.Index) + j)
			for j, tc := range msg.ToolCalls {
				c := &call{at: at.Key("tool_calls").Index(j), name: tc.Name}
				if tc.ID != nil {
					c.id, c.hasID = *tc.ID, true
					byID[c.id] = c
				}
				calls = append(calls, c)
			}
			switch {
			case msg.Role == "tool" && msg.ToolCallID != nil:
				if c, ok := byID[*msg.ToolCallID]; ok {
					c.answered = true
				} else {
					notes = append(notes, at.Key("tool_call_id").Warn(softwarn.ToolResultUnmatched, softwarn.Kept,
						"tool_call_id "+strconv.Quote(*msg.ToolCallID)+" answers no earlier tool call, so the trace cannot link this result to its call; use the id of the assistant tool call it answers"+
							didYouMean(*msg.ToolCallID, calls)))
				}
			case msg.Role == "tool":
				notes = append(notes, at.Warn(softwarn.ToolResultUnmatched, softwarn.Kept,
					"a tool message without tool_call_id, so the trace cannot link this result to its call; add \"tool_call_id\": <the id of the assistant tool call it answers>"))
			}
			if len(msg.FunctionCall) > 0 && string(msg.FunctionCall) != "null" {
				notes = append(notes, at.Key("function_call").Warn(softwarn.LegacyFunctionCall, softwarn.Kept,
					"function_call is OpenAI's legacy field, kept as sent, but the trace shows calls only from tool_calls: send it as \"tool_calls\": [{\"id\": <an id>, \"name\": <name>, \"arguments\": <arguments>}]"))
			}
			notes = append(notes, contentNotes(at, msg.Content)...)
		}
	}
	notes = append(notes, argumentsKeyNotes(r)...)
	for _, c := range calls {
		switch {
		case !c.hasID:
			notes = append(notes, c.at.Warn(softwarn.ToolCallUnanswered, softwarn.Kept,
				"tool call "+strconv.Quote(c.name)+" has no id, so no tool message can answer it; give it an id and answer it with {\"role\": \"tool\", \"tool_call_id\": <the id>, \"content\": ...}"))
		case !c.answered:
			notes = append(notes, c.at.Warn(softwarn.ToolCallUnanswered, softwarn.Kept,
				"tool call "+strconv.Quote(c.name)+" (id "+strconv.Quote(c.id)+") has no tool message answering it; add {\"role\": \"tool\", \"tool_call_id\": "+strconv.Quote(c.id)+", \"content\": <the result>} after it"))
		}
	}
	return notes
}

// contentNotes recognises Anthropic tool blocks inside content, which the trace does not link.
func contentNotes(at softwarn.Loc, content json.RawMessage) []softwarn.Warning {
	var parts []struct {
		Type string `json:"type"`
	}
	if len(content) == 0 || content[0] != '[' || json.Unmarshal(content, &parts) != nil {
		return nil
	}
	var uses, results int
	for _, p := range parts {
		switch p.Type {
		case "tool_use":
			uses++
		case "tool_result":
			results++
		}
	}
	var notes []softwarn.Warning
	if uses > 0 {
		notes = append(notes, at.Key("content").Warn(softwarn.AnthropicContentBlocks, softwarn.Kept,
			"holds "+plural(uses, "Anthropic tool_use block")+"; the trace shows tool calls only from tool_calls: move each to tool_calls as {\"id\": <id>, \"name\": <name>, \"arguments\": <input>}"))
	}
	if results > 0 {
		notes = append(notes, at.Key("content").Warn(softwarn.AnthropicContentBlocks, softwarn.Kept,
			"holds "+plural(results, "Anthropic tool_result block")+"; the trace links results only from tool messages: send each as {\"role\": \"tool\", \"tool_call_id\": <tool_use_id>, \"content\": <content>}"))
	}
	return notes
}

// decodeExact decodes a kept message into v, matching keys exactly: encoding/json matches
// struct fields without regard to case, and the contract's keys are case-sensitive, so only
// the exact keys are handed to it.
func decodeExact(buf []byte, v any) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(buf, &raw); err != nil {
		return err
	}
	for k := range raw {
		switch k {
		case "role", "tool_call_id", "content", "tool_calls", "function_call":
		default:
			delete(raw, k)
		}
	}
	exact, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	return json.Unmarshal(exact, v)
}

// call is a kept tool call, as the notes see it.
type call struct {
	at       softwarn.Loc
	id, name string
	hasID    bool
	answered bool
}

// didYouMean suggests the id of a call that id matches but for case or whitespace.
func didYouMean(id string, calls []*call) string {
	want := strings.ToLower(strings.TrimSpace(id))
	for _, c := range calls {
		if c.hasID && c.id != id && strings.ToLower(strings.TrimSpace(c.id)) == want {
			return "; did you mean " + strconv.Quote(c.id) + "? ids are matched exactly"
		}
	}
	return ""
}

// finalResponseNotes notes a final_response that is the JSON text of a whole result (an object
// with final_response): the result was serialized twice, and the platform grades that text.
func finalResponseNotes(r *Result) []softwarn.Warning {
	if r.finalKind != jsonscan.String || len(r.final) < 2 || r.truncated {
		return nil
	}
	text := jsonscan.StringText(r.final, jsonscan.Span{Start: 0, End: len(r.final)})
	var inner map[string]json.RawMessage
	if json.Unmarshal(text, &inner) != nil {
		return nil
	}
	if _, ok := inner["final_response"]; !ok {
		return nil
	}
	return []softwarn.Warning{softwarn.At("final_response").Warn(softwarn.FinalResponseSerialized, softwarn.Kept,
		`is the JSON text of a whole result (an object with "final_response"), graded as it is: the result was serialized twice (json.dumps of a JSON string); return the object itself`)}
}

// argumentsKeyNotes notes tool calls whose arguments are under another SDK's key: the flat
// form keeps only "arguments", so they are not in the record. It walks the input's messages
// again with the scanner (the record keeps no other keys of a call), decoding nothing, so a
// hostile transcript costs no more memory here than its notes.
func argumentsKeyNotes(r *Result) []softwarn.Warning {
	data, depth := r.s.Data(), r.s.MaxDepth()
	sp := lastMessages(data, depth)
	if !sp.Present() {
		return nil
	}
	var kept [][2]int // input index ranges of the kept messages, in order
	for k := range r.msgs.Segments() {
		seg := r.msgs.Segment(k)
		kept = append(kept, [2]int{int(seg.Index), int(seg.Index + seg.Count)})
	}
	var notes []softwarn.Warning
	var s jsonscan.Scanner
	s.Reset(data[sp.Start:sp.End], depth)
	i := 0
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		for len(kept) > 0 && i >= kept[0][1] {
			kept = kept[1:]
		}
		if len(kept) > 0 && i >= kept[0][0] && s.Peek() == jsonscan.Object {
			notes = append(notes, callArgumentsNotes(&s, softwarn.At("messages").Index(i))...)
		} else {
			s.SkipValue()
		}
		i++
	}
	return notes
}

// callArgumentsNotes reads the message object at the scanner and notes its tool calls that
// have arguments only under another SDK's key (its last tool_calls counts, as in the record).
func callArgumentsNotes(s *jsonscan.Scanner, at softwarn.Loc) []softwarn.Warning {
	var notes []softwarn.Warning
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		if string(s.KeyName()) != "tool_calls" || s.Peek() != jsonscan.Array {
			s.SkipValue()
			continue
		}
		notes = notes[:0]
		j := 0
		for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
			if key := otherArgumentsKey(s); key != "" {
				notes = append(notes, at.Key("tool_calls").Index(j).Warn(softwarn.ToolCallArgumentsKey, softwarn.Kept,
					"has no \"arguments\" but has "+strconv.Quote(key)+" ("+argumentsKeyOrigin(key)+"), which the flat form does not keep: the trace shows this call without arguments; send them as \"arguments\""))
			}
			j++
		}
	}
	return notes
}

// otherArgumentsKey reads the tool call at the scanner and returns the other SDK's key its
// arguments are under (args, input, parameters), or "" when it has "arguments" or none of
// them. For OpenAI's nested shape the keys of function count.
func otherArgumentsKey(s *jsonscan.Scanner) string {
	if s.Peek() != jsonscan.Object {
		s.SkipValue()
		return ""
	}
	var entry, function argumentsKeys
	nested := false
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := s.KeyName()
		if string(name) == "function" && s.Peek() == jsonscan.Object {
			nested, function = true, argumentsKeys{}
			for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
				function.see(s.KeyName())
				s.SkipValue()
			}
			continue
		}
		if string(name) == "function" {
			nested = false // null (or anything else): the flat shape
		}
		entry.see(name)
		s.SkipValue()
	}
	if nested {
		entry = function
	}
	if entry.arguments {
		return ""
	}
	return entry.other
}

// argumentsKeys is what otherArgumentsKey notes of one object's keys.
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

func argumentsKeyOrigin(key string) string {
	switch key {
	case "args":
		return "LangChain's name for them"
	case "input":
		return "Anthropic's name for them"
	}
	return "a function schema's name"
}

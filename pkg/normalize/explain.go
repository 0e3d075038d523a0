package normalize

import (
	"encoding/json"
	"strconv"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// lint finds the explain view's notes in the kept messages. It is the human path, not the hot
// one, so it decodes each kept message again with encoding/json rather than widening the scan.
func lint(r *Result) []softwarn.Warning {
	type call struct {
		at       softwarn.Loc
		id, name string
		hasID    bool
		answered bool
	}
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
				Role       string          `json:"role"`
				ToolCallID *string         `json:"tool_call_id"`
				Content    json.RawMessage `json:"content"`
				ToolCalls  []struct {
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
			if msg.Role == "tool" && msg.ToolCallID != nil {
				if c, ok := byID[*msg.ToolCallID]; ok {
					c.answered = true
				} else {
					notes = append(notes, at.Key("tool_call_id").Warn(softwarn.ToolResultUnmatched, softwarn.Kept,
						"tool_call_id "+strconv.Quote(*msg.ToolCallID)+" answers no earlier tool call, so the trace cannot link this result to its call; use the id of the assistant tool call it answers"))
				}
			}
			notes = append(notes, contentNotes(at, msg.Content)...)
		}
	}
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
		case "role", "tool_call_id", "content", "tool_calls":
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

package normalize

import (
	"encoding/json"

	"github.com/dystopic/normalizer/internal/jsonscan"
)

// Message is one message of the record, decoded: what Result.Messages returns. Text fields
// are unescaped; every other value is its JSON text as the record holds it, verbatim (numbers
// as written, key order kept), for the caller to decode as it needs.
type Message struct {
	// Role is "system", "user", "assistant" or "tool".
	Role string
	// Content is the content's JSON text: a JSON string, an array of content parts, or null;
	// nil when the message has no content key. Text returns a string content as text.
	Content json.RawMessage
	// ToolCallID is the tool call a tool message answers; "" when absent or null.
	ToolCallID string
	// ToolCalls are the message's tool calls, in the flat form; nil when absent or null.
	ToolCalls []ToolCall
	// Thinking holds the message's reasoning blocks, each an object's JSON text; nil when
	// absent or null.
	Thinking []json.RawMessage
	// Extra holds the keys that pass through (name, refusal, function_call, …), each with
	// its value's JSON text; nil when there are none.
	Extra map[string]json.RawMessage
	// JSON is the whole message as the record holds it.
	JSON json.RawMessage
}

// Text returns the content when it is a JSON string, unescaped, and reports whether it is.
func (m *Message) Text() (string, bool) {
	if len(m.Content) < 2 || m.Content[0] != '"' {
		return "", false
	}
	return string(jsonscan.StringText(m.Content, jsonscan.Span{Start: 0, End: len(m.Content)})), true
}

// ToolCall is a tool call in the flat form every accepted call normalizes to.
type ToolCall struct {
	// ID is the call's id; "" when absent or null.
	ID string
	// Name is the tool's name.
	Name string
	// Arguments is the arguments' JSON text, verbatim whatever its type: arguments sent as a
	// JSON-encoded string stay a JSON string. nil when absent.
	Arguments json.RawMessage
}

// Metadata is the record's metadata, decoded: what Result.Metadata returns. The recognised
// keys that passed their rule are in their fields; numbers keep their JSON text (a
// json.Number: "1842", or "10.0", which passes as a whole number too).
type Metadata struct {
	Model             string      // "" when absent
	SystemPromptID    string      // system_prompt_id; "" when absent
	TotalInputTokens  json.Number // total_input_tokens; "" when absent
	TotalOutputTokens json.Number // total_output_tokens; "" when absent
	AgentRuntimeMS    json.Number // agent_runtime_ms; "" when absent
	// Extra holds the keys that are not recognised, stored opaquely, each with its value's
	// JSON text; nil when there are none.
	Extra map[string]json.RawMessage
	// JSON is the whole metadata object as the record holds it, its keys in input order.
	JSON json.RawMessage
}

// NumMessages is the number of messages kept: len(r.Messages()), without building them.
func (r *Result) NumMessages() int { r.live(); return r.msgs.Len() }

// Messages returns the messages kept, decoded, in record order; nil when rich mode is off.
// They are built from the record on each call (the record holds spans of the input, not
// messages), so a caller that needs them more than once keeps the slice; nothing in it refers
// to r or to the input, so it stays valid after Release. A caller that only forwards the
// record uses AppendJSON, which builds nothing.
func (r *Result) Messages() []Message {
	r.live()
	if r.msgs.Len() == 0 {
		return nil
	}
	buf := r.msgs.AppendJSON(nil)
	var s jsonscan.Scanner
	s.Reset(buf, r.s.MaxDepth())
	out := make([]Message, 0, r.msgs.Len())
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		out = append(out, readMessage(&s))
	}
	if s.Err() != nil {
		panic("normalize: the record's messages do not read back: " + s.Err().Error())
	}
	return out
}

// Metadata returns the metadata kept, decoded; nil when the record's metadata is null. Like
// Messages, it is built on each call and stays valid after Release.
func (r *Result) Metadata() *Metadata {
	r.live()
	if r.meta.kind != jsonscan.Object {
		return nil
	}
	buf := r.meta.appendJSON(nil, &r.s)
	var s jsonscan.Scanner
	s.Reset(buf, r.s.MaxDepth())
	m := &Metadata{JSON: buf}
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := string(s.KeyName())
		raw := valueAt(&s)
		switch name {
		case "model":
			m.Model = text(raw)
		case "system_prompt_id":
			m.SystemPromptID = text(raw)
		case "total_input_tokens":
			m.TotalInputTokens = json.Number(raw)
		case "total_output_tokens":
			m.TotalOutputTokens = json.Number(raw)
		case "agent_runtime_ms":
			m.AgentRuntimeMS = json.Number(raw)
		default:
			if m.Extra == nil {
				m.Extra = map[string]json.RawMessage{}
			}
			m.Extra[name] = raw
		}
	}
	if s.Err() != nil {
		panic("normalize: the record's metadata does not read back: " + s.Err().Error())
	}
	return m
}

// readMessage reads the message object at s's position. The record's messages are objects
// whose recognised keys hold what the contract allows (Result.read checked them).
func readMessage(s *jsonscan.Scanner) Message {
	var m Message
	start := s.Pos()
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := string(s.KeyName())
		switch name {
		case "tool_calls":
			m.ToolCalls = nil
			if s.Peek() != jsonscan.Array {
				s.SkipValue() // null
				continue
			}
			for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
				m.ToolCalls = append(m.ToolCalls, readToolCall(s))
			}
			if m.ToolCalls == nil {
				m.ToolCalls = []ToolCall{}
			}
		case "thinking":
			m.Thinking = nil
			if s.Peek() != jsonscan.Array {
				s.SkipValue()
				continue
			}
			m.Thinking = []json.RawMessage{}
			for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
				m.Thinking = append(m.Thinking, valueAt(s))
			}
		default:
			raw := valueAt(s)
			switch name {
			case "role":
				m.Role = text(raw)
			case "content":
				m.Content = raw
			case "tool_call_id":
				m.ToolCallID = text(raw)
			default:
				if m.Extra == nil {
					m.Extra = map[string]json.RawMessage{}
				}
				m.Extra[name] = raw
			}
		}
	}
	m.JSON = s.Data()[start:s.Pos()]
	return m
}

func readToolCall(s *jsonscan.Scanner) ToolCall {
	var c ToolCall
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := string(s.KeyName())
		raw := valueAt(s)
		switch name {
		case "id":
			c.ID = text(raw)
		case "name":
			c.Name = text(raw)
		case "arguments":
			c.Arguments = raw
		}
	}
	return c
}

// valueAt skips the value at s's position and returns its JSON text.
func valueAt(s *jsonscan.Scanner) json.RawMessage {
	sp := s.SkipValue()
	return s.Data()[sp.Start:sp.End]
}

// text is a JSON string's text, unescaped; "" for any other value (null).
func text(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	return string(jsonscan.StringText(raw, jsonscan.Span{Start: 0, End: len(raw)}))
}

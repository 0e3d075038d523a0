package porting

import (
	"bytes"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// autoGen is AutoGen AgentChat (autogen_agentchat.messages): {"source", "type": "TextMessage",
// "content"}, ToolCallRequestEvent's content a list of FunctionCall {"id", "arguments",
// "name"}, ToolCallExecutionEvent's a list of FunctionExecutionResult {"content", "name",
// "call_id"}.
var autoGen = register(source{
	name: "AutoGen",
	messages: []messageShape{
		{rank: 6, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool {
				return f.noRole && !f.parts && f.source.Present() && isAutoGenType(w.shortText(f.typ))
			},
			note: func(w *messageWalk, f foreignFacts) softwarn.Parts { return w.autoGenNote(&f, droppedMessage) }},
	},
})

// isAutoGenType is whether typ names an AutoGen AgentChat message or event class
// (TextMessage, ToolCallRequestEvent, ...): a capitalized identifier ending in normalize.Message or Event.
// Being an identifier, it can be shown in a note as it is.
func isAutoGenType(typ []byte) bool {
	if len(typ) == 0 || typ[0] < 'A' || typ[0] > 'Z' || !(bytes.HasSuffix(typ, []byte("Message")) || bytes.HasSuffix(typ, []byte("Event"))) {
		return false
	}
	for _, c := range typ {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// autoGenNote is what the note on an AutoGen AgentChat message says, by its type.
func (w *messageWalk) autoGenNote(f *foreignFacts, dropped string) softwarn.Parts {
	typ := w.text(f.typ)
	p := softwarn.Parts{Found: "an AutoGen AgentChat " + typ + ` ("source" and "type", no "role")`, Expected: `a chat message {"role", "content", ...}`, Done: dropped}
	switch typ {
	case "TextMessage", "MultiModalMessage", "StopMessage", "HandoffMessage", "ToolCallSummaryMessage":
		if w.text(f.source) == "user" {
			p.Fix = `send it as {"role": "user", "content": <its content>} (its source is "user")`
			return p
		}
		p.Fix = `send it as {"role": "assistant", "content": <its content>} (its source, ` +
			jsonscan.ShortToken(tokenText(w.data, f.source)) + `, is an agent, not "user")`
	case "ToolCallRequestEvent":
		p.Fix = `send it as {"role": "assistant", "tool_calls": <its content>}: its FunctionCall entries {"id", "arguments", "name"} are the flat form already`
	case "ToolCallExecutionEvent":
		p.Fix = `send each FunctionExecutionResult of its content as {"role": "tool", "tool_call_id": <call_id>, "content": <content>}`
	case "ThoughtEvent":
		p.Fix = `it holds the model's reasoning: leave it out, or put it in the thinking of the assistant message that follows it: "thinking": [{"type": "thinking", "thinking": <its content>}]`
	default:
		p.Fix = `it is an event, not a chat message: leave it out, or send what it shows as {"role": "assistant", "content": <its text>}`
	}
	return p
}

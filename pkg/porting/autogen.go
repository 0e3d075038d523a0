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
	name:     "AutoGen",
	factKeys: []string{"stop_reason"},
	results:  []resultShape{{rank: 16, hint: taskResultTranscript}},
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

// taskResultTranscript is the result shape of an AutoGen AgentChat TaskResult ({"messages":
// [...], "stop_reason"}) sent without the agent's answer: its messages are AutoGen's
// ({"source", "type": "TextMessage", "content"}), which the platform does not read as chat
// messages; the answer is the content of the last when that is a TextMessage's text.
func taskResultTranscript(f *objectFacts) (shapeHint, bool) {
	if textKind(f.messages) != jsonscan.Array || !f.has("stop_reason") {
		return shapeHint{}, false
	}
	answer := `"<the agent's answer>"`
	if last := lastElement(f.messages, f.maxDepth); shortString(member(last, "type", f.maxDepth), 32) == "TextMessage" &&
		textKind(member(last, "content", f.maxDepth)) == jsonscan.String {
		answer = `result.messages[-1].content`
	}
	fix := `send {"final_response": ` + answer + `, "messages": <each of its messages as a chat message>} ` +
		`(a TextMessage as {"role": "user" or "assistant", "content": <content>}, by its source)`
	return shapeHint{detail: `. It has "messages" and "stop_reason" but no answer: it looks like an AutoGen AgentChat TaskResult (what run() returns) sent without the agent's answer`, fix: fix}, true
}

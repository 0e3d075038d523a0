package porting

import (
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// pydanticAI is Pydantic AI (pydantic_ai). Its ModelMessagesTypeAdapter writes {"kind":
// "request" | "response", "parts": [...]}, each part with "part_kind" (system-prompt,
// user-prompt, tool-return, retry-prompt, text, tool-call, thinking), tool calls as
// {"tool_name", "args", "tool_call_id"}.
var pydanticAI = register(source{
	name:      "Pydantic AI",
	usageKeys: []string{"usage"},
	metaNames: []metaName{
		{key: "model", name: "model_name", rank: 1, whose: "Pydantic AI's", in: "a ModelResponse"},
		{key: "total_input_tokens", name: "input_tokens", rank: 1, whose: "Pydantic AI's", in: "usage"},
		{key: "total_input_tokens", name: "request_tokens", rank: 4, whose: "Pydantic AI's older"},
		{key: "total_output_tokens", name: "output_tokens", rank: 1, whose: "Pydantic AI's", in: "usage"},
		{key: "total_output_tokens", name: "response_tokens", rank: 4, whose: "Pydantic AI's older"},
	},
	transcripts: []transcriptShape{
		{key: "message_history", code: softwarn.TopLevelTranscriptKey, origin: "Pydantic AI's name for one (Agent.run's message_history)"},
	},
	parts:     []partMember{{key: "part_kind", kind: jsonscan.String, of: pydanticPartKind}},
	entryKeys: []string{"parts"},
	messages: []messageShape{
		{rank: 4, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool {
				kind := w.shortText(f.kind)
				return f.noRole && f.parts && (string(kind) == "request" || string(kind) == "response")
			},
			note: func(w *messageWalk, f foreignFacts) softwarn.Parts {
				return pydanticNote(w.text(f.kind), f.kinds, droppedMessage)
			}},
	},
})

// The kinds of Pydantic AI's parts, by their part_kind (its text part is pkText).
const (
	pkSystemPrompt partKinds = 1 << 0
	pkUserPrompt   partKinds = 1 << 1
	pkToolReturn   partKinds = 1 << 2
	pkRetryPrompt  partKinds = 1 << 3
	pkToolCall     partKinds = 1 << 5
	pkThinking     partKinds = 1 << 6
)

// pydanticPartKind is the kind of a part whose part_kind is kind.
func pydanticPartKind(kind []byte) partKinds { return pydanticPartKinds[string(kind)] }

// pydanticPartKinds maps Pydantic AI's part_kind values.
var pydanticPartKinds = map[string]partKinds{
	"system-prompt": pkSystemPrompt, "user-prompt": pkUserPrompt, "tool-return": pkToolReturn,
	"retry-prompt": pkRetryPrompt, "text": pkText, "tool-call": pkToolCall, "thinking": pkThinking,
}

// pydanticNote is what the note on a Pydantic AI ModelRequest or ModelResponse says: the
// messages its parts convert to, for the kinds of part it holds (all of its kind's, when none is
// known).
func pydanticNote(kind string, kinds partKinds, dropped string) softwarn.Parts {
	switch kind {
	case "request":
		convs := []struct {
			k    partKinds
			text string
		}{
			{pkSystemPrompt, `a system-prompt part as {"role": "system", "content": <content>}`},
			{pkUserPrompt, `a user-prompt part as {"role": "user", "content": <content>}`},
			{pkToolReturn, `a tool-return part as {"role": "tool", "tool_call_id": <tool_call_id>, "content": <content>} (json.dumps(content) when it is not a string)`},
			{pkRetryPrompt, `a retry-prompt part as {"role": "tool", "tool_call_id": <tool_call_id>, "content": <content>} (as "user" when it has no tool_name)`},
		}
		var fixes []string
		for _, c := range convs {
			if kinds&c.k != 0 {
				fixes = append(fixes, c.text)
			}
		}
		if len(fixes) == 0 {
			for _, c := range convs {
				fixes = append(fixes, c.text)
			}
		}
		return softwarn.Parts{Found: `a Pydantic AI ModelRequest ("kind": "request" with "parts", no "role")`, Expected: "chat messages", Done: dropped,
			Fix: "send each of its parts as a message: " + strings.Join(fixes, ", ")}
	case "response":
		if kinds&(pkText|pkToolCall|pkThinking) == 0 {
			kinds |= pkText | pkToolCall
		}
		var fields []string
		if kinds&pkText != 0 {
			fields = append(fields, `"content": <the content of its text parts>`)
		}
		if kinds&pkToolCall != 0 {
			fields = append(fields, `"tool_calls": [{"id": <tool_call_id>, "name": <tool_name>, "arguments": <args>}, ...]`)
		}
		if kinds&pkThinking != 0 {
			fields = append(fields, `"thinking": [{"type": "thinking", "thinking": <the content of its thinking parts>}]`)
		}
		return softwarn.Parts{Found: `a Pydantic AI ModelResponse ("kind": "response" with "parts", no "role")`, Expected: "a chat message", Done: dropped,
			Fix: `send it as one message: {"role": "assistant", ` + strings.Join(fields, ", ") + "}"}
	}
	return softwarn.Parts{}
}

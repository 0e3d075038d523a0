package porting

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// openAIChat is OpenAI's Chat Completions API and its SDKs (openai, openai-node). A streamed
// completion arrives as chunks, {"object": "chat.completion.chunk", "choices": [{"index",
// "delta": {"role"?, "content"?, "refusal"?, "tool_calls"?}, "finish_reason"}]}: the message
// is the chunks' deltas joined, which no chunk or delta is on its own.
var openAIChat = register(source{
	name:      "OpenAI Chat Completions",
	usageKeys: []string{"usage"},
	metaNames: []metaName{
		{key: "total_input_tokens", name: "prompt_tokens", rank: 3, whose: "OpenAI Chat Completions'"},
		{key: "total_output_tokens", name: "completion_tokens", rank: 3, whose: "OpenAI Chat Completions'"},
	},
	responses: []responseShape{{note: chatCompletionJSON}},
	printed:   []printedShape{{rank: 2, keys: []string{"choices", "object"}, note: chatCompletionRepr}},
	factKeys:  []string{"choices", "object"},
	results:   []resultShape{{rank: 2, hint: chatCompletionResult}},
	turns:     []turnShape{{rank: 8, read: chatCallsTurn}},
	legacy: []legacyMember{{member: "function_call", code: softwarn.LegacyFunctionCall, parts: softwarn.Parts{
		Problem: "function_call is OpenAI's legacy field, kept as sent, but the trace shows calls only from tool_calls: " +
			"send it as \"tool_calls\": [{\"id\": <an id>, \"name\": <name>, \"arguments\": <arguments>}]"}}},
	messages: []messageShape{
		{rank: 9, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool {
				return f.noRole && f.choices && string(w.shortText(f.object)) == "chat.completion.chunk"
			},
			note: func(*messageWalk, foreignFacts) softwarn.Parts {
				return softwarn.Parts{Found: `an OpenAI Chat Completions stream chunk ({"object": "chat.completion.chunk", "choices": [{"delta"}]}), not a message`,
					Expected: `a chat message {"role", "content", ...}`, Done: droppedMessage,
					Fix: `send the one message the stream's chunks make, not the chunks: ` + chatStreamMessage}
			}},
		{rank: 10, code: softwarn.MessageOtherFramework,
			is: func(_ *messageWalk, f foreignFacts) bool {
				return f.noRole && !f.other && !f.parts && !f.typ.Present()
			},
			note: func(*messageWalk, foreignFacts) softwarn.Parts {
				// A message that only lacks its role looks the same, so the note says both.
				return softwarn.Parts{Found: `no role, and only members a chat message has ("content", "refusal", "tool_calls"), as in an OpenAI Chat Completions stream delta (a chunk's choices[0].delta; the stream's last delta is {})`,
					Expected: `a chat message {"role", "content", ...}`, Done: droppedMessage,
					Fix: `give it its "role"; or, if these are a stream's deltas, send the one message they make, not the deltas: ` + chatStreamMessage}
			}},
	},
})

// chatStreamMessage is the message a streamed chat completion's deltas make.
const chatStreamMessage = `{"role": "assistant", "content": <the deltas' content texts, joined>, ` +
	`"tool_calls": [{"id", "name", "arguments": <the arguments texts of the deltas' tool_calls of one index, joined>}, ...] when they have tool_calls} ` +
	`(the SDKs' client.chat.completions.stream() joins them: finalMessage() in openai-node, get_final_completion() in openai-python)`

// isDeltaKey is whether key is a member of a chat completion stream's delta.
func isDeltaKey(key []byte) bool {
	switch string(key) {
	case "role", "content", "refusal", "tool_calls", "function_call", "audio":
		return true
	}
	return false
}

// chatCompletionJSON is the note's for an OpenAI chat completion's JSON text sent as
// final_response: its answer is its first choice's message content, unless that message asks
// for tool calls (then its content, if any, is a preamble).
func chatCompletionJSON(obj []byte, maxDepth int, dict bool) (what, answer string, ok bool) {
	if shortString(member(obj, "object", maxDepth), 32) != "chat.completion" {
		return "", "", false
	}
	msg := member(firstElement(member(obj, "choices", maxDepth), maxDepth), "message", maxDepth)
	switch {
	case textKind(member(msg, "tool_calls", maxDepth)) == jsonscan.Array:
		return `an OpenAI chat completion ("object": "chat.completion") whose message asks for tool calls`, "", true
	case blank(member(msg, "content", maxDepth)):
		return "", "", false
	}
	return `an OpenAI chat completion ("object": "chat.completion")`, codePath(dict, "completion", "choices", "0", "message", "content"), true
}

// chatCompletionResult is the result shape of an OpenAI chat completion (not a chunk of a
// stream: its choices hold message). One that holds tool calls stopped at a tool call
// (stopped_tool_call.go): its text, if any, is a preamble.
func chatCompletionResult(f *objectFacts) (shapeHint, bool) {
	choices := f.value("choices")
	if !isList(choices) || string(shortToken(f.value("object"), 64)) != "chat.completion" && member(firstElement(choices, f.maxDepth), "message", f.maxDepth) == nil {
		return shapeHint{}, false
	}
	if h, ok := f.chatStopped(); ok {
		return h, true
	}
	return sentInstead(`"choices"`, "an OpenAI chat completion", modelsResponse, "choices[0].message.content"), true
}

// chatStopped is the hint for an OpenAI chat completion whose first choice's message has
// tool_calls (finish_reason "tool_calls"): its content is null or a preamble.
func (f *objectFacts) chatStopped() (shapeHint, bool) {
	msg := member(firstElement(f.value("choices"), f.maxDepth), "message", f.maxDepth)
	if textKind(member(msg, "tool_calls", f.maxDepth)) != jsonscan.Array {
		return shapeHint{}, false
	}
	text := textKind(member(msg, "content", f.maxDepth)) != jsonscan.None
	return stoppedResponse(`"choices"`, "an OpenAI chat completion", "tool_calls in choices[0].message", text), true
}

// chatCompletionRepr is the note's for Python's text of an OpenAI chat completion, str() of its
// dict or its repr: a list of choices and object 'chat.completion' (not a chunk of a stream,
// whose text is in choices[0].delta), whose first choice's message holds text (a tool-call
// turn's content is None, and it is not this shape).
func chatCompletionRepr(p printedText) (what, answer string, is bool) {
	choices := p.value("choices")
	if len(choices) == 0 || choices[0] != '[' || emptyValue(choices) || !literalIs(p.value("object"), "'chat.completion'") {
		return "", "", false
	}
	var msg []byte
	if first := firstItem(choices); classLen(first) > 0 || len(first) > 0 && first[0] == '{' {
		msg, _ = memberOf(first, "message")
	}
	if msg == nil {
		return "", "", false
	}
	if _, ok := messageContent("", msg); !ok {
		return "", "", false
	}
	if p.form == printedDict {
		return "Python's str() of an OpenAI chat completion's dict ('object': 'chat.completion')", `result["choices"][0]["message"]["content"]`, true
	}
	return "Python's repr() of an OpenAI chat completion, " + string(p.class) + "(…)", "result.choices[0].message.content", true
}

// chatCallsTurn is a Chat Completions assistant message with tool_calls, whose calls are in
// OpenAI's nested shape ("function").
func chatCallsTurn(e turnFacts) (turn, bool) {
	if string(e.role) != "assistant" || textKind(e.calls) != jsonscan.Array || member(firstElement(e.calls, e.maxDepth), "function", e.maxDepth) == nil {
		return turn{}, false
	}
	return turn{kind: turnCall, text: e.saysText(), what: "an OpenAI Chat Completions assistant message with tool_calls", answer: "that message's content",
		loop: `append a tool message, {"role": "tool", "tool_call_id": ..., "content": ...}, for each of its tool_calls and call chat.completions.create again, until the message has no tool_calls`}, true
}

package porting

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
)

// A model's response or message whose last turn asks for a tool call holds no answer: the
// agent stopped at a tool call, and what text it has ("Let me look up order 4521.") is a
// preamble the model wrote before the call. A hint that pointed at that text, or at a content
// that is null, would have the porter send the preamble, or nothing, as the answer. These
// recognisers tell it so and ask for the answer the agent gives after the tool round. Each is
// sure of the shape: the call is in the response's own list of calls (an OpenAI chat message's
// tool_calls, Anthropic's tool_use blocks, Gemini's functionCall parts, a Responses API output
// that ends in a function_call item), never guessed from the text.

// stoppedFix is the fix of every stopped-at-a-tool-call hint.
const stoppedFix = `send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`

// stoppedAt is the sentence that says what the calls are, whether the response has text
// beside them (a preamble, not an answer) and that the agent stopped at a tool call.
func stoppedAt(calls string, text bool) string {
	if text {
		return "and it ends in " + calls + ": its text is the preamble the model wrote before the call, not an answer, and the agent stopped at a tool call"
	}
	return "and it has no text, only " + calls + ": the agent stopped at a tool call"
}

// stoppedResponse is the hint for a model's response, with the keys has, that looks like what
// and holds calls, with text beside them or none.
func stoppedResponse(has, what, calls string, text bool) shapeHint {
	return shapeHint{detail: ". It has " + has + ": it looks like " + what + ", " + modelsResponse + " rather than the handler's result, " +
		stoppedAt(calls, text), fix: stoppedFix}
}

// chatStopped is the hint for an OpenAI chat completion whose first choice's message has
// tool_calls (finish_reason "tool_calls"): its content is null or a preamble.
func (f *objectFacts) chatStopped() (shapeHint, bool) {
	msg := member(firstElement(f.choices, f.maxDepth), "message", f.maxDepth)
	if textKind(member(msg, "tool_calls", f.maxDepth)) != jsonscan.Array {
		return shapeHint{}, false
	}
	text := textKind(member(msg, "content", f.maxDepth)) != jsonscan.None
	return stoppedResponse(`"choices"`, "an OpenAI chat completion", "tool_calls in choices[0].message", text), true
}

// responsesStopped is probeHint's for an OpenAI Responses API response whose output ends in a
// function_call or custom_tool_call item: its output_text, when it has one, is a preamble.
func responsesStopped(output []byte, maxDepth int) (shapeHint, bool) {
	if !isList(output) {
		return shapeHint{}, false
	}
	typ := shortString(member(lastElement(output, maxDepth), "type", maxDepth), 32)
	if typ != "function_call" && typ != "custom_tool_call" {
		return shapeHint{}, false
	}
	return shapeHint{detail: `. This one looks like an OpenAI Responses API response (` + modelsResponse + ` rather than the handler's result): ` +
		`its "output" is a list of items that ends in a ` + typ + ` item, not text: the agent stopped at a tool call, and any text before the call is a preamble, not an answer`,
		fix: stoppedFix}, true
}

// messageStopped is finalValueHint's for a chat message sent as final_response that asks for
// tool calls ("role" and a non-empty "tool_calls"): choices[0].message of a completion that
// stopped at a tool call.
func messageStopped(obj []byte, maxDepth int) (shapeHint, bool) {
	if member(obj, "role", maxDepth) == nil || textKind(member(obj, "tool_calls", maxDepth)) != jsonscan.Array {
		return shapeHint{}, false
	}
	return shapeHint{detail: `. It has "role" and "tool_calls": it looks like a chat message that asks for a tool call rather than an answer: the agent stopped at a tool call`,
		fix: stoppedFix}, true
}

// undefinedFinalHint is missingFinalHint's for a result object that has only the contract's
// other keys (metadata, messages): final_response is the key that is missing, as
// JSON.stringify leaves out a key whose value is undefined (a response's text is undefined
// when the model wrote none, as when it stopped at a tool call) and Python's json.dumps never
// does. It names no value to send.
func (f *objectFacts) undefinedFinalHint() shapeHint {
	if f.count == 0 || f.count > len(f.keys) {
		return shapeHint{}
	}
	meta := false
	for _, k := range f.keys {
		if k != "metadata" && k != "messages" {
			return shapeHint{}
		}
		meta = meta || k == "metadata"
	}
	if !meta { // {"messages": []} alone is a transcript without its answer
		return shapeHint{}
	}
	return shapeHint{detail: `. It has ` + listKeys(f.keys, f.count) + ` and no other: final_response was left out, as JSON.stringify leaves out a key whose value is undefined ` +
		`(a response's text is undefined when the model wrote none, e.g. when the agent stopped at a tool call)`,
		fix: `send a non-empty final_response: the agent's answer, after the tool round when it stopped at a tool call, or a sentence saying what it did`}
}

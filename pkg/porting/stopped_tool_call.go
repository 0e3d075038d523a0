package porting

import (
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// A model's response or message whose last turn asks for a tool call holds no answer: the
// agent stopped at a tool call, and what text it has ("Let me look up order 4521.") is a
// preamble the model wrote before the call. A hint that pointed at that text, or at a content
// that is null, would have the porter send the preamble, or nothing, as the answer. These
// recognisers tell it so and ask for the answer the agent gives after the tool round. Each is
// sure of the shape: the call is in the response's own list of calls (a chat message's
// tool_calls, a source's content blocks or parts that call a tool, an output list that ends in
// a call item), never guessed from the text. The sources' files recognise their responses
// (openai_chat.go, openai_responses.go, and the model responses of shapehint.go); this file
// holds what every such hint says.

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
// when the model wrote none, as when it stopped at a tool call) and a dict's encoder never
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

// The contract fixes the message of an empty or null final_response (rule 5), so no hint can
// be added to it. The transcript often shows why it is empty, and the advice says so beside the
// message (normalize.ResponseShapeError.Advice, the error object's "advice" in the explain
// view): the last turn that is not a tool's result asks for a tool call (the agent stopped at a
// tool call: an OpenAI Responses function_call item, a chat message's tool_calls, an Anthropic
// tool_use block, a Gemini functionCall part, an AI SDK tool-call part or step), or it is an
// assistant's answer that final_response left out. Each is read from the call's own place in
// the shape, never guessed from text; the fix is in the words of the SDK the shape is.

// emptyFinalAdvice is the advice on the rejection of an empty or null final_response (got is
// the ResponseShapeError's Got), or nil when the transcript shows no reason. input is the
// result; the last "messages" counts (rule 12).
func emptyFinalAdvice(input []byte, maxDepth int, got string) *softwarn.Warning {
	msgs := member(input, "messages", maxDepth)
	var last turn
	results := false // tool results follow the last turn
	eachElement(msgs, maxDepth, func(i int, v []byte) bool {
		t := readTurn(v, "messages["+strconv.Itoa(i)+"]", maxDepth)
		switch {
		case t.result:
			results = true
		case t.kind != turnNone || t.other:
			last, results = t, false
			last.at = i
		}
		return true
	})
	empty := "empty"
	if got == "null" {
		empty = "null"
	}
	loc := softwarn.At("messages").Index(last.at)
	switch last.kind {
	case turnCall:
		p := "the transcript's last turn is " + last.what + ", and no answer follows it"
		if results {
			p += " (only tool results)"
		}
		if last.text {
			p += ": its text is the preamble the model wrote before the call, not an answer"
		}
		w := loc.Warning(softwarn.FinalResponseStoppedAtToolCall, "", softwarn.Parts{
			Problem: p + ": the agent stopped at a tool call, and final_response is " + empty,
			Fix:     "run the loop until the model answers (" + last.loop + "), then send " + last.answer})
		return &w
	case turnAnswer:
		w := loc.Warning(softwarn.FinalResponseAnswerInMessages, "", softwarn.Parts{
			Problem: "final_response is " + empty + ", but the transcript's last turn is " + last.what + ": it looks like the answer",
			Fix:     `send {"final_response": <` + last.answer + `>}`})
		return &w
	}
	return nil
}

// turnKind is what one turn of a transcript is, as emptyFinalAdvice reads it.
type turnKind uint8

const (
	turnNone   turnKind = iota
	turnCall            // it asks for tool calls
	turnAnswer          // an assistant's text, and no tool call
)

// turn is one element of messages: a tool call, an answer, a tool's result, another turn
// (other: a user's, say), or nothing recognised.
type turn struct {
	at     int
	kind   turnKind
	result bool // a tool's result: a tool message, a function_call_output item, tool_result blocks
	other  bool // a turn that is neither: the user's, the system's
	text   bool // a call turn has text beside its calls
	what   string
	loop   string // how to run the loop on, in the SDK's words (turnCall)
	answer string // what to send: its text, as the SDK names it (turnCall), or where it is (turnAnswer)
}

// readTurn reads one element of messages, at ref (messages[3]).
func readTurn(v []byte, ref string, maxDepth int) turn {
	if !isObject(v) {
		return turn{}
	}
	role := shortString(member(v, "role", maxDepth), 16)
	typ := shortString(member(v, "type", maxDepth), 32)
	content := member(v, "content", maxDepth)
	switch {
	case role == "tool" || role == "function" || typ == "function_call_output" || typ == "custom_tool_call_output":
		return turn{result: true}
	case typ == "function_call" || typ == "custom_tool_call":
		return turn{kind: turnCall, what: "an OpenAI Responses " + typ + " item",
			loop: `call responses.create again with a function_call_output item, {"type": "function_call_output", "call_id": ..., "output": ...}, ` +
				`for each function_call, until the response holds no function_call item`,
			answer: "that response's output_text"}
	case member(v, "stepNumber", maxDepth) != nil:
		return aiSDKStep(v, maxDepth)
	case role == "model" || member(v, "parts", maxDepth) != nil:
		return geminiTurn(v, role, ref, maxDepth)
	case role != "assistant":
		return turn{other: true, result: role == "user" && onlyToolResults(content, maxDepth)}
	}
	if calls := member(v, "tool_calls", maxDepth); textKind(calls) == jsonscan.Array {
		t := turn{kind: turnCall, text: textKind(content) == jsonscan.String && !blank(content) || hasText(content, maxDepth),
			what: "an assistant message with tool_calls", answer: "the model's answer",
			loop: "send each tool call's result back as a tool message and call the model again, until its message has no tool_calls"}
		if member(firstElement(calls, maxDepth), "function", maxDepth) != nil {
			t.what, t.answer = "an OpenAI Chat Completions assistant message with tool_calls", "that message's content"
			t.loop = `append a tool message, {"role": "tool", "tool_call_id": ..., "content": ...}, for each of its tool_calls and call chat.completions.create again, until the message has no tool_calls`
		}
		return t
	}
	if textKind(content) == jsonscan.String && !blank(content) {
		return turn{kind: turnAnswer, what: "an assistant message with text", answer: ref + ".content"}
	}
	return partsTurn(content, ref, maxDepth)
}

// partsTurn reads an assistant message whose content is a list of parts: Anthropic's content
// blocks (tool_use), the AI SDK's parts (tool-call), or text parts (text, output_text).
func partsTurn(content []byte, ref string, maxDepth int) turn {
	var tool, aisdk bool
	eachElement(content, maxDepth, func(_ int, part []byte) bool {
		switch shortString(member(part, "type", maxDepth), 16) {
		case "tool_use":
			tool = true
		case "tool-call":
			aisdk = true
		}
		return true
	})
	text := hasText(content, maxDepth)
	switch {
	case tool:
		return turn{kind: turnCall, text: text, what: "an Anthropic message with a tool_use block", answer: "the text of that message's text blocks",
			loop: `call messages.create again with a user message of tool_result blocks, {"type": "tool_result", "tool_use_id": ..., "content": ...}, ` +
				`one for each tool_use block, until its stop_reason is not "tool_use"`}
	case aisdk:
		return aiSDKCall(text)
	case text:
		return turn{kind: turnAnswer, what: "an assistant message with text", answer: `the "text" of ` + ref + `.content's text parts, joined`}
	}
	return turn{other: true}
}

// aiSDKStep reads an AI SDK StepResult sent as a message: a step whose finishReason is
// "tool-calls" stopped at them.
func aiSDKStep(v []byte, maxDepth int) turn {
	if shortString(member(v, "finishReason", maxDepth), 32) != "tool-calls" {
		return turn{other: true}
	}
	t := aiSDKCall(hasText(member(v, "content", maxDepth), maxDepth))
	t.what = `an AI SDK step whose finishReason is "tool-calls"`
	return t
}

func aiSDKCall(text bool) turn {
	return turn{kind: turnCall, text: text, what: "an AI SDK assistant message with a tool-call part", answer: "the result's text",
		loop: "give generateText the tools' execute functions and stopWhen: stepCountIs(5) (maxSteps: 5 in AI SDK 4), " +
			"so that it sends the tool results back and calls the model again"}
}

// geminiTurn reads a Gemini Content: role "model" with a functionCall (function_call, as
// Python's SDK writes it) part asks for calls; with functionResponse parts it is their results.
func geminiTurn(v []byte, role, ref string, maxDepth int) turn {
	var call, response, camel, text bool
	eachElement(member(v, "parts", maxDepth), maxDepth, func(_ int, part []byte) bool {
		c, cc := member(part, "function_call", maxDepth), member(part, "functionCall", maxDepth)
		call = call || isObject(c) || isObject(cc)
		camel = camel || isObject(cc) || isObject(member(part, "functionResponse", maxDepth))
		response = response || isObject(member(part, "function_response", maxDepth)) || isObject(member(part, "functionResponse", maxDepth))
		t := member(part, "text", maxDepth)
		text = text || textKind(t) == jsonscan.String && !blank(t) && string(member(part, "thought", maxDepth)) != "true"
		return true
	})
	switch {
	case response && !call:
		return turn{result: true}
	case call && camel:
		return turn{kind: turnCall, text: text, what: "a Gemini Content with a functionCall part", answer: "that response's text",
			loop: "call models.generateContent again with a functionResponse part for each functionCall, until the response has no functionCall part"}
	case call:
		return turn{kind: turnCall, text: text, what: "a Gemini Content with a function_call part", answer: "that response's text",
			loop: "call models.generate_content again with a function_response part, types.Part.from_function_response(name=..., response=...), " +
				"for each function_call, until the response has no function_call part"}
	case text && role == "model":
		return turn{kind: turnAnswer, what: "a Gemini Content of the model with text", answer: `the "text" of ` + ref + `.parts, joined`}
	}
	return turn{other: true}
}

// hasText reports whether a list of parts holds a part of type "text" or "output_text" with
// text that is not blank.
func hasText(list []byte, maxDepth int) bool {
	i, _ := textParts(list, "text", maxDepth)
	j, _ := textParts(list, "output_text", maxDepth)
	return i >= 0 || j >= 0
}

// onlyToolResults reports whether a user message's content is a list of Anthropic tool_result
// blocks and nothing else: the results of the calls before it.
func onlyToolResults(content []byte, maxDepth int) bool {
	all := isList(content) && textKind(content) == jsonscan.Array
	eachElement(content, maxDepth, func(_ int, part []byte) bool {
		all = shortString(member(part, "type", maxDepth), 16) == "tool_result"
		return all
	})
	return all
}

// rejectionAdvice is Hint's for a rejection whose message the contract fixes.
func rejectionAdvice(e *normalize.ResponseShapeError, input []byte, maxDepth int) {
	if e.Problem != normalize.EmptyResponseMessage {
		return
	}
	e.Advice = emptyFinalAdvice(input, maxDepth, e.Got)
}

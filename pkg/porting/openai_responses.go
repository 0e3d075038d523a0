package porting

import (
	"bytes"
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// openAIResponses is OpenAI's Responses API and the OpenAI Agents SDK, whose run items wrap
// Responses items.
var openAIResponses = register(source{
	name:      "OpenAI Responses",
	usageKeys: []string{"usage"},
	metaNames: []metaName{
		{key: "total_input_tokens", name: "input_tokens", rank: 1, whose: "OpenAI Responses'", in: "usage"},
		{key: "total_output_tokens", name: "output_tokens", rank: 1, whose: "OpenAI Responses'", in: "usage"},
	},
	responses: []responseShape{{note: responseJSON}},
	printed:   []printedShape{{rank: 3, keys: []string{"output", "object"}, note: responseRepr}},
	factKeys:  []string{"output_text"},
	probes: []resultShape{
		{rank: 1, hint: func(f *objectFacts) (shapeHint, bool) {
			if f.probe != "output" {
				return shapeHint{}, false
			}
			return responsesStopped(f.output, f.maxDepth)
		}},
		{rank: 2, hint: responseOutputProbe},
	},
	turns: []turnShape{{rank: 2, read: responsesItemTurn}},
	transcripts: []transcriptShape{
		{key: "new_items", code: softwarn.TopLevelTranscriptKey, origin: "the OpenAI Agents SDK's name for a run's items (RunResult.new_items)", fix: newItemsFix},
	},
	messages: []messageShape{
		{rank: 11, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool {
				return f.noRole && bytes.HasPrefix(w.shortText(f.typ), []byte("response."))
			},
			note: func(w *messageWalk, f foreignFacts) softwarn.Parts {
				return softwarn.Parts{Found: `an OpenAI Responses stream event ("type": "` + w.text(f.typ) + `"), not a message`,
					Expected: `a chat message {"role", "content", ...}`, Done: droppedMessage,
					Fix: `send the messages of the finished response instead of its stream's events: the items of ` +
						`<the "response.completed" event's response.output> (the SDKs give that response whole: stream.finalResponse() in openai-node, stream.get_final_response() in openai-python), ` +
						responsesItemsFix}
			}},
		{rank: 12, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool {
				t := string(w.shortText(f.typ))
				return f.noRole && (t == "custom_tool_call" || t == "custom_tool_call_output")
			},
			note: func(w *messageWalk, f foreignFacts) softwarn.Parts {
				send := `{"role": "assistant", "tool_calls": [{"id": <call_id>, "name": <name>, "arguments": <input>}]} (its input is the tool's free-form text, kept verbatim)`
				if w.text(f.typ) == "custom_tool_call_output" {
					send = `{"role": "tool", "tool_call_id": <call_id>, "content": <output>}`
				}
				return softwarn.Parts{Found: `an OpenAI Responses ` + w.text(f.typ) + ` item (a custom tool's), not a chat message`,
					Expected: `a chat message {"role", "content", ...}`, Done: droppedMessage,
					Fix: `send it as ` + send}
			}},
	},
})

// responsesItemsFix is how a response's output items become chat messages.
const responsesItemsFix = `each as a chat message: a message item as {"role": "assistant", "content": <the text of its output_text parts>}, ` +
	`a function_call item as {"role": "assistant", "tool_calls": [{"id": <its call_id>, "name": <its name>, "arguments": <its arguments>}]}`

// newItemsFix is how a run's items (the OpenAI Agents SDK's RunResult.new_items, RunItems that
// wrap a raw_item) become messages: result.to_input_list() gives the run's input items (the
// Responses API's: messages, function_call and function_call_output items), each of which
// converts to a chat message.
const newItemsFix = `send "messages" built from result.to_input_list(), the run's input items (not its RunItems): ` +
	`a message item as {"role": <role>, "content": <content>}, ` +
	`a function_call item as {"role": "assistant", "tool_calls": [{"id": <call_id>, "name": <name>, "arguments": <arguments>}]}, ` +
	`a function_call_output item as {"role": "tool", "tool_call_id": <call_id>, "content": <output>}`

// responseJSON is the note's for an OpenAI Responses API response's JSON text sent as
// final_response: its answer is the text of the output_text parts of its message items, which
// the SDKs' Response joins as output_text (the JavaScript SDK writes that into the JSON too),
// unless its output ends in a function_call or custom_tool_call item.
func responseJSON(obj []byte, maxDepth int, dict bool) (what, answer string, ok bool) {
	output := member(obj, "output", maxDepth)
	if shortString(member(obj, "object", maxDepth), 32) != "response" || !isList(output) {
		return "", "", false
	}
	const what0 = `an OpenAI Responses API response ("object": "response")`
	switch shortString(member(lastElement(output, maxDepth), "type", maxDepth), 32) {
	case "function_call", "custom_tool_call":
		return what0 + " whose output ends in a tool call", "", true
	}
	item, part, n := -1, -1, 0
	eachElement(output, maxDepth, func(i int, v []byte) bool {
		if shortString(member(v, "type", maxDepth), 16) != "message" {
			return true
		}
		first, k := textParts(member(v, "content", maxDepth), "output_text", maxDepth)
		if n += k; item < 0 && first >= 0 {
			item, part = i, first
		}
		return true
	})
	switch {
	case item < 0:
		return "", "", false
	case textKind(member(obj, "output_text", maxDepth)) == jsonscan.String:
		return what0, "response.output_text", true
	}
	return what0, codePath(dict, "response", "output", strconv.Itoa(item), "content", strconv.Itoa(part), "text") +
		joinedWith(n, "output_text parts") + "; the SDKs' Response object holds their text joined as its output_text property", true
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

// responseRepr is the note's for Python's text of an OpenAI Responses API response, str() of
// its dict or its repr: object 'response' and a list of output items. Its answer is the text
// of the output_text parts of its message items, which the SDK's Response.output_text joins (a
// dict has no output_text: that is a property of the Response object). A response without an
// output_text part (only tool calls, or reasoning) has no text to name.
func responseRepr(p printedText) (what, answer string, is bool) {
	if !literalIs(p.value("object"), "'response'") {
		return "", "", false
	}
	out := p.value("output")
	switch {
	case len(out) == 0 || out[0] != '[' || emptyValue(out) || !bytes.Contains(out, []byte("output_text")):
		return "", "", true
	case p.form == printedDict:
		return "Python's str() of an OpenAI Responses API response's dict ('object': 'response')",
			`the text of the 'output_text' parts of the message items in result["output"]`, true
	}
	return "Python's repr() of an OpenAI Responses API response, " + string(p.class) + "(…)", "result.output_text", true
}

// responseOutputProbe is the probe shape of an OpenAI Responses API response whose "output",
// a list of items, holds an output_text part. Without one (only tool calls, or reasoning) there
// is no text to point at.
func responseOutputProbe(f *objectFacts) (shapeHint, bool) {
	if f.probe != "output" || !isList(f.output) || !bytes.Contains(f.output, []byte(`"output_text"`)) {
		return shapeHint{}, false
	}
	fix := `send {"final_response": response.output_text} (the text of the output_text parts of its message items)`
	if textKind(f.value("output_text")) == jsonscan.String { // the JavaScript SDK writes output_text into the object
		fix = `send {"final_response": <its "output_text">}`
	}
	return shapeHint{detail: `. This one looks like an OpenAI Responses API response (` + modelsResponse + ` rather than the handler's result): its "output" is a list of items, not text`, fix: fix}, true
}

// responsesItemTurn is a Responses API item in a transcript: a function_call or
// custom_tool_call item asks for a call, and its output item is the call's result.
func responsesItemTurn(e turnFacts) (turn, bool) {
	what := "an OpenAI Responses function_call item"
	switch string(e.typ) {
	case "function_call_output", "custom_tool_call_output":
		return turn{result: true}, true
	case "custom_tool_call":
		what = "an OpenAI Responses custom_tool_call item"
	case "function_call":
	default:
		return turn{}, false
	}
	return turn{kind: turnCall, what: what,
		loop: `call responses.create again with a function_call_output item, {"type": "function_call_output", "call_id": ..., "output": ...}, ` +
			`for each function_call, until the response holds no function_call item`,
		answer: "that response's output_text"}, true
}

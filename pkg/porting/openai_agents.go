package porting

import (
	"bytes"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// openAIAgents is the OpenAI Agents SDK (openai-agents for Python, @openai/agents for
// JavaScript). A run's new items are RunItems, {"type": "message_output_item" |
// "tool_call_item" | "tool_call_output_item" | ..., "raw_item" (Python) or "rawItem"
// (JavaScript): the Responses item}; its history (RunResult.history in JavaScript) holds the
// items themselves, among them the JavaScript SDK's function_call_result, {"type":
// "function_call_result", "callId", "name", "output": {"type": "text", "text"}}.
var openAIAgents = register(source{
	name:     "OpenAI Agents SDK",
	factKeys: []string{"state"},
	results: []resultShape{{rank: 9, hint: func(f *objectFacts) (shapeHint, bool) {
		return runStateHint(f.value("state"), f.maxDepth)
	}}},
	// a run item's, in Python and in JavaScript
	entryKeys: []string{"raw_item", "call_id", "rawItem", "callId"},
	transcripts: []transcriptShape{
		{key: "newItems", code: softwarn.TopLevelTranscriptKey, origin: "the OpenAI Agents SDK's name for a run's items in JavaScript (RunResult.newItems)",
			fix: `build "messages" from the run's items: ` + runItemsFix(true)},
	},
	messages: []messageShape{
		{rank: 15, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool {
				return f.noRole && f.rawItem && bytes.HasSuffix(w.shortText(f.typ), []byte("_item"))
			},
			note: func(w *messageWalk, f foreignFacts) softwarn.Parts {
				raw := "raw_item"
				if f.rawCamel {
					raw = "rawItem"
				}
				return softwarn.Parts{Found: `an OpenAI Agents SDK RunItem ("type": "` + w.text(f.typ) + `", its item in "` + raw + `"), not a message`,
					Expected: `a chat message {"role", "content", ...}`, Done: droppedMessage,
					Fix: runItemsFix(f.rawCamel)}
			}},
		{rank: 16, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool {
				return f.noRole && string(w.shortText(f.typ)) == "function_call_result"
			},
			note: func(*messageWalk, foreignFacts) softwarn.Parts {
				return softwarn.Parts{Found: `an OpenAI Agents SDK function_call_result item (a tool's result in a RunResult's history), not a chat message`,
					Expected: `a chat message {"role", "content", ...}`, Done: droppedMessage,
					Fix: `send it as {"role": "tool", "tool_call_id": <callId>, "content": <the text of its output>}`}
			}},
	},
})

// runItemsFix is how RunItems become chat messages, in the spelling of JavaScript's SDK (camel)
// or Python's.
func runItemsFix(camel bool) string {
	raw, callID, result := "raw_item", "call_id", "function_call_output"
	if camel {
		raw, callID, result = "rawItem", "callId", "function_call_result"
	}
	return `send each RunItem's ` + raw + ` as a chat message, not the RunItem: ` +
		`a message item as {"role": <its role>, "content": <the text of its output_text parts>}, ` +
		`a function_call item as {"role": "assistant", "tool_calls": [{"id": <its ` + callID + `>, "name": <its name>, "arguments": <its arguments>}]}, ` +
		`a ` + result + ` item as {"role": "tool", "tool_call_id": <its ` + callID + `>, "content": <its output's text>}`
}

// runStateHint is missingFinalHint's for an OpenAI Agents SDK RunResult serialized by
// JavaScript's JSON.stringify, which writes its RunState, {"state": {"$schemaVersion",
// "currentAgent", "currentStep", ...}}: the answer, the RunResult's finalOutput, is the output
// of its current step when that is a final output.
func runStateHint(state []byte, maxDepth int) (shapeHint, bool) {
	if !isObject(state) || member(state, "$schemaVersion", maxDepth) == nil || member(state, "currentAgent", maxDepth) == nil {
		return shapeHint{}, false
	}
	h := shapeHint{detail: `. It has "state" with "$schemaVersion" and "currentAgent": it looks like an OpenAI Agents SDK RunResult as JSON.stringify writes it (its RunState), ` +
		`the whole run rather than the handler's result`}
	step := member(state, "currentStep", maxDepth)
	if shortString(member(step, "type", maxDepth), 64) != "next_step_final_output" {
		return h, true
	}
	switch output := member(step, "output", maxDepth); {
	case !blank(output):
		h.fix = `send {"final_response": <the RunResult's finalOutput>}, which this JSON holds in state.currentStep.output`
	case isObject(output):
		h.fix = `send {"final_response": <the RunResult's finalOutput as text>}, e.g. JSON.stringify of it or a sentence built from it: it is an object (structured output)`
	}
	return h, true
}

package porting

import (
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// aiSDK is Vercel's AI SDK (the ai package). generateText's result.steps are StepResults,
// {"stepNumber", "content": [parts], "finishReason", "usage", "request", "response": {...,
// "messages"}}: a step of the run, not a message; the run's messages are the response's
// ModelMessages, {"role", "content": [{"type": "text" | "tool-call" | "tool-result", ...}]}.
var aiSDK = register(source{
	name:     "AI SDK",
	factKeys: []string{"steps"},
	results: []resultShape{{rank: 10, hint: func(f *objectFacts) (shapeHint, bool) {
		return generateTextHint(f.value("steps"), f.maxDepth)
	}}},
	metaNames: []metaName{
		{key: "total_input_tokens", name: "inputTokens", rank: 2, whose: "the AI SDK's", in: "usage and totalUsage"},
		{key: "total_output_tokens", name: "outputTokens", rank: 2, whose: "the AI SDK's", in: "usage and totalUsage"},
	},
	outputs: []outputShape{{code: softwarn.MessageOtherFramework, read: toolResultOutput, note: toolResultOutputNote}},
	// a StepResult before any message's shape; a tool-call part after the other sources' parts
	turns: []turnShape{{rank: 3, read: aiSDKStep}, {rank: 12, part: "tool-call", call: aiSDKCall(false)}},
	messages: []messageShape{
		{rank: 14, code: softwarn.MessageOtherFramework,
			is: func(_ *messageWalk, f foreignFacts) bool { return f.noRole && f.stepNum },
			note: func(*messageWalk, foreignFacts) softwarn.Parts {
				return softwarn.Parts{Found: `an AI SDK StepResult (an entry of result.steps: "stepNumber", "content", "finishReason"), not a message`,
					Expected: `a chat message {"role", "content", ...}`, Done: droppedMessage,
					Fix: `send the run's messages, not its steps: (await result.response).messages, each converted: ` +
						`an assistant message as {"role": "assistant", "content": <the text of its text parts>, "tool_calls": [{"id": <its toolCallId>, "name": <its toolName>, "arguments": JSON.stringify(<its input>)}, ...] from its tool-call parts}, ` +
						`each tool-result part of a tool message as {"role": "tool", "tool_call_id": <its toolCallId>, "content": <its output.value, as JSON text unless it is text>}`}
			}},
	},
})

// generateTextHint is missingFinalHint's for an AI SDK generateText result serialized by
// JSON.stringify, which writes its fields ("steps", "totalUsage", ...) but not its getters:
// result.text is the text of its last step, unless that step ends in tool calls.
func generateTextHint(steps []byte, maxDepth int) (shapeHint, bool) {
	first := firstElement(steps, maxDepth)
	if member(first, "stepNumber", maxDepth) == nil || member(first, "content", maxDepth) == nil || member(first, "finishReason", maxDepth) == nil {
		return shapeHint{}, false
	}
	h := shapeHint{detail: `. It has "steps" of StepResults ("stepNumber", "content", "finishReason"): it looks like an AI SDK generateText result as JSON.stringify writes it, ` +
		`the whole run rather than the handler's result`}
	last := lastElement(steps, maxDepth)
	switch {
	case shortString(member(last, "finishReason", maxDepth), 32) == "tool-calls":
		h.detail += `, and its last step ends in tool calls: the agent stopped at a tool call`
		h.fix = stoppedFix
	default:
		if i, _ := textParts(member(last, "content", maxDepth), "text", maxDepth); i >= 0 {
			h.fix = `send {"final_response": result.text}, the text of its last step`
		}
	}
	return h, true
}

// A tool's output in the AI SDK is a ToolResultOutput, {"type": "text" | "json" | "error-text" |
// "error-json" | "content", "value"}: sent whole as a tool message's content, its warning says
// to send JSON.stringify(output) (or, for "text", a content part's type, to wrap it in an
// array), which would keep the wrapper; the tool's output is output.value.

// toolResultOutput reads the ToolResultOutput obj: its type, and what its note says to send in
// its place.
func toolResultOutput(obj []byte, maxDepth int) (outputFacts, bool) {
	t := member(obj, "type", maxDepth)
	value := member(obj, "value", maxDepth)
	if len(t) < 2 || t[0] != '"' || len(t) > 16 || value == nil {
		return outputFacts{}, false
	}
	tb := jsonscan.StringText(t, jsonscan.Span{Start: 0, End: len(t)})
	switch {
	case (string(tb) == "text" || string(tb) == "error-text") && value[0] == '"':
		return outputFacts{tb, `"content": output.value, the tool's text as it is`}, true
	case string(tb) == "json" || string(tb) == "error-json":
		return outputFacts{tb, `"content": JSON.stringify(output.value), the tool's output as JSON text`}, true
	case string(tb) == "content" && value[0] == '[':
		return outputFacts{tb, `"content": output.value, its list of parts (a text part is {"type": "text", "text"}, as OpenAI's)`}, true
	}
	return outputFacts{}, false
}

func toolResultOutputNote(o outputFacts) softwarn.Parts {
	t, send, instead := string(o.kind), o.send, "JSON.stringify(output)" // what the warning says to send
	if strings.HasPrefix(t, "error-") {
		send += " (the tool's error)"
	}
	if t == "text" { // a content part's type: the warning says to wrap it
		instead = "[output]"
	}
	return softwarn.Parts{
		Found:    `the AI SDK's tool output, {"type": "` + t + `", "value": ...} (a ToolResultOutput)`,
		Expected: "the tool's output itself",
		Done:     droppedMessage,
		Fix:      "send " + send + ", not " + instead + ", which would keep the wrapper"}
}

// aiSDKStep is an AI SDK StepResult sent as a message: a step whose finishReason is
// "tool-calls" stopped at them.
func aiSDKStep(e turnFacts) (turn, bool) {
	if member(e.v, "stepNumber", e.maxDepth) == nil {
		return turn{}, false
	}
	if shortString(member(e.v, "finishReason", e.maxDepth), 32) != "tool-calls" {
		return turn{other: true}, true
	}
	t := aiSDKCall(hasText(e.content, e.maxDepth))
	t.what = `an AI SDK step whose finishReason is "tool-calls"`
	return t, true
}

func aiSDKCall(text bool) turn {
	return turn{kind: turnCall, text: text, what: "an AI SDK assistant message with a tool-call part", answer: "the result's text",
		loop: "give generateText the tools' execute functions and stopWhen: stepCountIs(5) (maxSteps: 5 in AI SDK 4), " +
			"so that it sends the tool results back and calls the model again"}
}

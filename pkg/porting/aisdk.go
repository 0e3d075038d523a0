package porting

import "github.com/dystopic/normalizer/pkg/softwarn"

// aiSDK is Vercel's AI SDK (the ai package). generateText's result.steps are StepResults,
// {"stepNumber", "content": [parts], "finishReason", "usage", "request", "response": {...,
// "messages"}}: a step of the run, not a message; the run's messages are the response's
// ModelMessages, {"role", "content": [{"type": "text" | "tool-call" | "tool-result", ...}]}.
var aiSDK = register(source{
	name: "AI SDK",
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

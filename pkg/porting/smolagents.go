package porting

import "github.com/dystopic/normalizer/pkg/softwarn"

// smolagents is Hugging Face's smolagents: its MessageRole's "tool-call" and "tool-response",
// and ActionStep.dict() (memory steps: "step_number", "model_output", "tool_calls" in the
// nested shape, "observations").
var smolagents = register(source{
	name:       "smolagents",
	answerKeys: []string{"final_answer"}, // the final_answer tool's
	// a memory step's
	entryKeys: []string{"step_number", "model_output", "observations"},
	transcripts: []transcriptShape{
		{key: "steps", code: softwarn.TopLevelTranscriptKey, origin: "smolagents' name for an agent's memory steps (agent.memory.steps)"},
	},
	messages: []messageShape{
		{rank: 1, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool { return string(w.shortText(f.role)) == "tool-call" },
			note: func(*messageWalk, foreignFacts) softwarn.Parts {
				return softwarn.Parts{Found: `"role": "tool-call", smolagents' MessageRole.TOOL_CALL`, Expected: `"assistant" with the calls in "tool_calls"`, Done: droppedMessage,
					Fix: `send {"role": "assistant", "tool_calls": <the step's tool_calls>} (ActionStep.tool_calls, each {"id", "type": "function", "function": {"name", "arguments"}}, a shape the platform reads), ` +
						`not the text "Calling tools: ...", which holds the calls as Python text`}
			}},
		{rank: 2, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool { return string(w.shortText(f.role)) == "tool-response" },
			note: func(*messageWalk, foreignFacts) softwarn.Parts {
				return softwarn.Parts{Found: `"role": "tool-response", smolagents' MessageRole.TOOL_RESPONSE`, Expected: `"tool"`, Done: droppedMessage,
					Fix: `send it as {"role": "tool", "tool_call_id": <the id of the call it answers>, "content": <its content>}`}
			}},
		{rank: 7, code: softwarn.MessageOtherFramework,
			is: func(_ *messageWalk, f foreignFacts) bool { return f.noRole && !f.parts && f.step && f.stepOut },
			note: func(*messageWalk, foreignFacts) softwarn.Parts {
				return softwarn.Parts{Found: `a smolagents memory step (ActionStep.dict(), with "step_number" and no "role")`, Expected: "chat messages", Done: droppedMessage,
					Fix: `send the step as messages: {"role": "assistant", "content": <model_output>, "tool_calls": <tool_calls>}, ` +
						`then for each call {"role": "tool", "tool_call_id": <its id>, "content": <observations>}`}
			}},
	},
})

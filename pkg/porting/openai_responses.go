package porting

import "github.com/dystopic/normalizer/pkg/softwarn"

// openAIResponses is OpenAI's Responses API and the OpenAI Agents SDK, whose run items wrap
// Responses items.
var openAIResponses = register(source{
	name: "OpenAI Responses",
	transcripts: []transcriptShape{
		{key: "new_items", code: softwarn.TopLevelTranscriptKey, origin: "the OpenAI Agents SDK's name for a run's items (RunResult.new_items)", fix: newItemsFix},
	},
})

// newItemsFix is how a run's items (the OpenAI Agents SDK's RunResult.new_items, RunItems that
// wrap a raw_item) become messages: result.to_input_list() gives the run's input items (the
// Responses API's: messages, function_call and function_call_output items), each of which
// converts to a chat message.
const newItemsFix = `send "messages" built from result.to_input_list(), the run's input items (not its RunItems): ` +
	`a message item as {"role": <role>, "content": <content>}, ` +
	`a function_call item as {"role": "assistant", "tool_calls": [{"id": <call_id>, "name": <name>, "arguments": <arguments>}]}, ` +
	`a function_call_output item as {"role": "tool", "tool_call_id": <call_id>, "content": <output>}`

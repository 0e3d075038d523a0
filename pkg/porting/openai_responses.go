package porting

import (
	"bytes"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// openAIResponses is OpenAI's Responses API and the OpenAI Agents SDK, whose run items wrap
// Responses items.
var openAIResponses = register(source{
	name: "OpenAI Responses",
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

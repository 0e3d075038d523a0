package codedoc

import (
	"strings"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Entries are the codes, the soft warnings' then the notes', in the order softwarn declares
// them: TestEveryCodeHasOneEntry keeps the two in step.
var Entries = []Entry{
	// Soft warnings.
	{
		Code:    softwarn.FinalResponseTruncated,
		Trigger: "`final_response` is longer than 50,000 Unicode code points (`normalize.MaxChars`), counted as Python's `len` counts them. The text is cut on a character boundary and `…[truncated]` appended. The warning is listed even past the limit on listed warnings.",
		Input:   `{"final_response": "` + strings.Repeat("x", normalize.MaxChars+1) + `"}`,
		Shown:   `{"final_response": "xxxxxxxx…"}   (50,001 characters)`,
	},
	{
		Code:    softwarn.FinalResponseLoneSurrogate,
		Trigger: "`final_response` holds a `\\uD800`–`\\uDFFF` escape that is not half of a surrogate pair, which encodes no character. Each becomes U+FFFD. The warning is listed even past the limit on listed warnings.",
		Input:   `{"final_response": "Sunny \ud83c all day"}`,
	},
	{
		Code:    softwarn.DuplicateKey,
		Trigger: "A key is given twice in the result object, a message, a tool call, its `function` object or metadata. The last value is kept in the place of the first, as Python's `json` does. There is one warning per key, however often it repeats; keys inside values that pass through (`content`, `arguments`, metadata values) are data and not checked.",
		Input:   `{"final_response": "Done.", "metadata": {"model": "gpt-4o-mini", "model": "gpt-4o"}}`,
		Fix:     "send each key once.",
	},
	{
		Code:    softwarn.MessagesNotArray,
		Trigger: "`messages` is neither an array nor null. Rich mode is off, and the run is graded on `final_response` alone.",
		Input:   `{"final_response": "Done.", "messages": {"role": "user", "content": "What is the weather in Oslo?"}}`,
	},
	{
		Code:    softwarn.MessageNotObject,
		Trigger: "An entry of `messages` is not an object. The entry is dropped; the other messages are kept.",
		Input:   `{"final_response": "Done.", "messages": ["What is the weather in Oslo?"]}`,
	},
	{
		Code:    softwarn.MessageRoleMissing,
		Trigger: "A message has no `role`, and its `type` names no item of another API that the normalizer recognises (which get `message_openai_responses_item` or `message_anthropic_block`). A LangChain message (`\"type\": \"human\"`) is named as one.",
		Input:   `{"final_response": "Done.", "messages": [{"type": "human", "content": "What is the weather in Oslo?"}]}`,
	},
	{
		Code:    softwarn.MessageRoleInvalid,
		Trigger: "A message's `role` is not one of `system`, `user`, `assistant`, `tool` (matched exactly). Roles of other APIs get their counterpart: `developer` is `system`, Gemini's `model` is `assistant`, `function` is `tool`.",
		Input:   `{"final_response": "Done.", "messages": [{"role": "developer", "content": "Answer briefly."}]}`,
	},
	{
		Code:    softwarn.MessageContentInvalid,
		Trigger: "A message's `content` is not a string, an array of content parts or null: a number, a boolean, or an object (a content part sent bare, or a tool's output sent as an object instead of as JSON text).",
		Input:   `{"final_response": "Done.", "messages": [{"role": "user", "content": {"type": "text", "text": "What is the weather in Oslo?"}}]}`,
	},
	{
		Code:    softwarn.MessageToolCallIDInvalid,
		Trigger: "A message's `tool_call_id` is neither a string nor null.",
		Input:   `{"final_response": "Done.", "messages": [{"role": "tool", "tool_call_id": 7, "content": "18°C"}]}`,
	},
	{
		Code:    softwarn.MessageToolCallsInvalid,
		Trigger: "A message's `tool_calls` is neither an array nor null (a single call sent bare, say).",
		Input:   `{"final_response": "Done.", "messages": [{"role": "assistant", "tool_calls": {"id": "call_1", "name": "get_weather", "arguments": {"city": "Oslo"}}}]}`,
	},
	{
		Code:    softwarn.ToolCallInvalid,
		Trigger: "An entry of a message's `tool_calls` cannot be normalized to the flat form: it is not an object, it has no tool name as a string (at `name`, or at `function.name` in OpenAI's shape), its `function` is not an object, or its `id` is neither a string nor null. The whole message is dropped, with this one warning at the first such call.",
		Input:   `{"final_response": "Done.", "messages": [{"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"arguments": "{\"city\": \"Oslo\"}"}}]}]}`,
	},
	{
		Code:    softwarn.MessageThinkingInvalid,
		Trigger: "A message's `thinking` is neither an array of objects nor null, or one of its entries is not an object.",
		Input:   `{"final_response": "Done.", "messages": [{"role": "assistant", "content": "18°C in Oslo.", "thinking": "The user wants the weather."}]}`,
	},
	{
		Code:    softwarn.OpenAIResponsesItem,
		Trigger: "A message without a `role` is an item of OpenAI's Responses API, by its `type`: `function_call`, `function_call_output`, `reasoning`, `computer_call`, `computer_call_output`, `web_search_call` or `file_search_call`. The warning says which chat message to send instead.",
		Input:   `{"final_response": "Done.", "messages": [{"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}]}`,
	},
	{
		Code:    softwarn.AnthropicBlockMessage,
		Trigger: "A message without a `role` is a content block sent where a message goes, by its `type`: Anthropic's `tool_use` or `tool_result`, or a bare `text` part.",
		Input:   `{"final_response": "Done.", "messages": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "18°C"}]}`,
	},
	{
		Code:    softwarn.MetadataNotObject,
		Trigger: "`metadata` is neither an object nor null. A string holding an object's JSON text is named as serialized twice; a list of objects also gets a `metadata_as_list` note.",
		Input:   `{"final_response": "Done.", "metadata": "{\"model\": \"gpt-4o\"}"}`,
	},
	{
		Code:    softwarn.MetadataKeyInvalid,
		Trigger: "A metadata key the contract checks fails its check: `model` and `system_prompt_id` must be strings, `total_input_tokens` and `total_output_tokens` whole, non-negative numbers, `agent_runtime_ms` a non-negative number. The key is dropped; the rest of metadata is kept.",
		Input:   `{"final_response": "Done.", "metadata": {"model": "gpt-4o", "total_input_tokens": "217"}}`,
	},
	{
		Code:        softwarn.WarningsLimited,
		Trigger:     "More warnings were found than a record lists (1,000 by default; `normalize.WithMaxWarnings`). This last warning counts the rest and names the top-level key the first of them is about; what they concern was dropped all the same.",
		Input:       `{"final_response": "Done.", "messages": [1, 2, 3, 4]}`,
		MaxWarnings: 2,
	},

	// Notes: the explain view only.
	{
		Code:    softwarn.ToolCallUnanswered,
		Trigger: "A kept tool call has no tool message answering it (none with its `id` as `tool_call_id`), or has no id at all. A call answered only by a message that was dropped says so.",
		Input:   `{"final_response": "It is 18°C in Oslo.", "messages": [{"role": "assistant", "tool_calls": [{"id": "call_1", "name": "get_weather", "arguments": {"city": "Oslo"}}]}]}`,
	},
	{
		Code:    softwarn.ToolResultUnmatched,
		Trigger: "A tool message's `tool_call_id` answers no earlier tool call (or one whose message was dropped, or one whose id is in another case), or the message has Anthropic's `tool_use_id` in its place.",
		Input:   `{"final_response": "It is 18°C in Oslo.", "messages": [{"role": "assistant", "tool_calls": [{"id": "call_1", "name": "get_weather", "arguments": {}}]}, {"role": "tool", "tool_call_id": "call_9", "content": "18°C"}]}`,
	},
	{
		Code:    softwarn.AnthropicContentBlocks,
		Trigger: "A message's `content` holds Anthropic `tool_use` or `tool_result` blocks, which the trace does not show as tool calls or tool results.",
		Input:   `{"final_response": "It is 18°C in Oslo.", "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}}]}]}`,
	},
	{
		Code:    softwarn.ToolCallArgumentsKey,
		Trigger: "A kept tool call has no `arguments` but has them under another SDK's key: LangChain's `args`, Anthropic's `input`, or a function schema's `parameters`. The flat form does not keep that key, so the trace shows the call without arguments.",
		Input:   `{"final_response": "It is 18°C in Oslo.", "messages": [{"role": "assistant", "tool_calls": [{"id": "call_1", "name": "get_weather", "args": {"city": "Oslo"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "18°C"}]}`,
	},
	{
		Code:    softwarn.TopLevelKeyVariant,
		Trigger: "`messages` or `metadata` is absent, and a top-level key is one of them spelled another way (another case or separators, `Messages`, `meta_data`; or `message`, `metadatas`) holding an array or an object as that key would. Keys are matched exactly, so it is dropped with the other unknown keys.",
		Input:   `{"final_response": "Done.", "Messages": [{"role": "user", "content": "What is the weather in Oslo?"}]}`,
	},
	{
		Code:    softwarn.MetadataKeyVariant,
		Trigger: "A metadata key is another SDK's name for a key the contract reads (`input_tokens`, `prompt_tokens`, `Model`, Ollama's `total_duration`), or a usage object holds the counts the contract reads at the top of metadata. It is kept as an ordinary key, unchecked, and the run is shown without the value.",
		Input:   `{"final_response": "Done.", "metadata": {"model": "gpt-4o", "prompt_tokens": 217}}`,
	},
	{
		Code:    softwarn.MetadataAsList,
		Trigger: "`metadata` is a list of objects of one key each, or of key/value pairs, rather than one object. Its `metadata_not_object` warning drops it; the note says how to merge it.",
		Input:   `{"final_response": "Done.", "metadata": [{"model": "gpt-4o"}, {"total_input_tokens": 217}]}`,
	},
	{
		Code:    softwarn.LegacyFunctionCall,
		Trigger: "An assistant message has OpenAI's legacy `function_call`, which the trace does not show: only `tool_calls` are shown as calls.",
		Input:   `{"final_response": "It is 18°C in Oslo.", "messages": [{"role": "assistant", "content": null, "function_call": {"name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}}]}`,
		Fix:     "move the call to `tool_calls`, in the flat form `{\"id\", \"name\", \"arguments\"}` (the message's words end with it, after a colon).",
	},
	{
		Code:    softwarn.FinalResponseSerialized,
		Trigger: "`final_response` is the JSON text of a whole result (an object with `final_response`): the result was serialized twice, and the judge grades that text.",
		Input:   `{"final_response": "{\"final_response\": \"It is 18°C in Oslo.\"}"}`,
	},
	{
		Code:    softwarn.FinalResponsePlaceholder,
		Trigger: "`final_response` is only whitespace, or a text some language prints for a missing value or an unserialized object (`None`, `null`, `undefined`, `[object Object]`, ...). It is accepted and graded as it is.",
		Input:   `{"final_response": "None"}`,
	},
	{
		Code:    softwarn.FinalResponseRepr,
		Trigger: "`final_response` looks like Python's `repr()` or `str()` of a result object or a dict (`ChatCompletion(...)`, `RunResult(...)`, `{'role': 'assistant', ...}`) rather than the answer's text. The note says where the answer is in it.",
		Input:   `{"final_response": "ChatCompletion(id='chatcmpl-1', choices=[Choice(finish_reason='stop', index=0, message=ChatCompletionMessage(content='It is 18°C in Oslo.', role='assistant'))], model='gpt-4o', object='chat.completion')"}`,
	},
	{
		Code:        softwarn.NotesLimited,
		Trigger:     "More notes were found than a record lists (as many as warnings: 1,000 by default). This last note counts the rest.",
		Input:       `{"final_response": "Done.", "messages": [{"role": "assistant", "tool_calls": [{"id": "call_1", "name": "a"}, {"id": "call_2", "name": "b"}, {"id": "call_3", "name": "c"}]}]}`,
		MaxWarnings: 2,
	},
	{
		Code:    softwarn.MessageOtherFramework,
		Trigger: "A message dropped by its warning is another framework's message: AutoGen AgentChat's, Pydantic AI's, smolagents', a Gemini `Content`, LangChain's `messages_to_dict`, or a tool message holding the AI SDK's tool output. The note names the shape and the messages to send instead.",
		Input:   `{"final_response": "Done.", "messages": [{"source": "user", "type": "TextMessage", "content": "What is the weather in Oslo?"}]}`,
	},
	{
		Code:    softwarn.MessageTextInParts,
		Trigger: "A kept message has no `content` but its text in Gemini's `parts` or LlamaIndex's `blocks`: the trace shows it without its text.",
		Input:   `{"final_response": "Done.", "messages": [{"role": "user", "parts": [{"text": "What is the weather in Oslo?"}]}]}`,
	},
	{
		Code:    softwarn.TopLevelTranscriptKey,
		Trigger: "A top-level key other frameworks keep a transcript under (`chat_history`, `history`, `steps`, `new_items`, ...) holds an array of objects, and there is no `messages`: it is dropped with the other unknown keys.",
		Input:   `{"final_response": "Done.", "chat_history": [{"role": "user", "content": "What is the weather in Oslo?"}]}`,
	},
	{
		Code:    softwarn.ToolCallsOtherFramework,
		Trigger: "A kept message holds its tool calls or its tool result where another framework keeps them, and not in `tool_calls` or a tool message: Strands' `toolUse` and `toolResult` content blocks (Bedrock Converse's), LlamaIndex's `additional_kwargs.tool_calls` and `tool_call_id` (Python's `model_dump`) or its `options.toolCall` and `options.toolResult` (JavaScript). The trace shows no tool call or result in it.",
		Input:   `{"final_response": "It is 18°C in Oslo.", "messages": [{"role": "assistant", "content": [{"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather", "input": {"city": "Oslo"}}}]}, {"role": "user", "content": [{"toolResult": {"toolUseId": "tooluse_1", "status": "success", "content": [{"text": "18°C"}]}}]}]}`,
	},
	{
		Code:    softwarn.FinalResponseObjectJSON,
		Trigger: "`final_response` is the JSON text of a model API's response (`JSON.stringify(completion)`, `json.dumps(data)`, `model_dump_json()`, indented or not): an OpenAI chat completion or Responses API response, an Anthropic message, a Gemini `generateContent` response, or a CrewAI `CrewOutput` or `LiteAgentOutput` whose `raw` holds text (`crew_output.model_dump_json()`). The judge grades that text. The note says where the answer's text is in the object, or that there is none because the model stopped at a tool call.",
		Input:   `{"final_response": "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"It is 18°C in Oslo.\"},\"finish_reason\":\"stop\"}]}"}`,
	},
	{
		Code:    softwarn.FinalResponsePreamble,
		Trigger: "`final_response` is the text of the last assistant message of `messages`, and that message calls tools (`tool_calls`, or `tool-call` or `tool_use` content parts) with only tool results after it: the text the model wrote before the call (\"Let me look that up.\"), not an answer. The agent stopped at a tool call, as a run capped at one step does.",
		Input:   `{"final_response": "Let me look that up.", "messages": [{"role": "user", "content": "Where is order 4521?"}, {"role": "assistant", "content": "Let me look that up.", "tool_calls": [{"id": "call_1", "name": "get_order", "arguments": "{\"order_id\": \"4521\"}"}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"status\": \"shipped\"}"}]}`,
	},
	{
		Code:    softwarn.FinalResponseStoppedAtToolCall,
		Trigger: "`final_response` is empty or null, and the transcript's last turn (tool results aside) is a tool call no answer follows: an assistant message with `tool_calls`, a Responses API `function_call` item, an Anthropic `tool_use` block, a Gemini `functionCall` part, an AI SDK step that ended in tool calls, a LangChain AIMessage with `tool_calls`. The agent stopped at a tool call; the advice names the SDK's call that runs the loop on.",
		Input:   `{"final_response": "", "messages": [{"role": "user", "content": "Where is order 4521?"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_order", "arguments": "{\"order_id\": \"4521\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"status\": \"shipped\"}"}]}`,
	},
	{
		Code:    softwarn.FinalResponseAnswerInMessages,
		Trigger: "`final_response` is empty or null, and the transcript's last turn is an assistant's text: the answer was left out of `final_response`. The advice points at the message that holds it.",
		Input:   `{"final_response": "", "messages": [{"role": "user", "content": "Where is order 4521?"}, {"role": "assistant", "content": "Order 4521 shipped on May 2."}]}`,
	},
}

package porting_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Transcripts of other agent frameworks: a message in AutoGen's, Pydantic AI's, smolagents' or
// Gemini's shape is dropped (rule 8) or kept without its text (Gemini's "parts"), and a
// transcript under another top-level key is ignored (rule 4). The explain view says what was
// sent and what to send instead, in one note at messages[i] (or at the key); the record and its
// warnings stay exactly what they are without explain.
func TestExplainOtherFrameworks(t *testing.T) {
	type note struct {
		path     string
		code     softwarn.Code
		action   softwarn.Action
		contains string
	}
	const fr = `{"final_response":"a","messages":[`
	dropped := func(i, contains string) note {
		return note{"messages[" + i + "]", softwarn.MessageOtherFramework, softwarn.Dropped, contains}
	}
	tests := []struct {
		name  string
		input string
		notes []note
	}{
		{"AutoGen TextMessage from the user", fr + `{"source":"user","models_usage":null,"metadata":{},"content":"Refund #4521","type":"TextMessage"}]}`,
			[]note{dropped("0", `found an AutoGen AgentChat TextMessage ("source" and "type", no "role"), expected a chat message {"role", "content", ...}; the message was dropped; `+
				`send it as {"role": "user", "content": <its content>} (its source is "user")`)}},
		{"AutoGen TextMessage from an agent", fr + `{"source":"assistant","content":"Done.","type":"TextMessage"}]}`,
			[]note{dropped("0", `send it as {"role": "assistant", "content": <its content>} (its source, "assistant", is an agent, not "user")`)}},
		{"AutoGen ToolCallRequestEvent", fr + `{"source":"assistant","content":[{"id":"call_1","arguments":"{\"order_id\": \"4521\"}","name":"get_order"}],"type":"ToolCallRequestEvent"}]}`,
			[]note{dropped("0", `send it as {"role": "assistant", "tool_calls": <its content>}: its FunctionCall entries {"id", "arguments", "name"} are the flat form already`)}},
		{"AutoGen ToolCallExecutionEvent", fr + `{"source":"assistant","content":[{"content":"shipped","name":"get_order","call_id":"call_1","is_error":false}],"type":"ToolCallExecutionEvent"}]}`,
			[]note{dropped("0", `send each FunctionExecutionResult of its content as {"role": "tool", "tool_call_id": <call_id>, "content": <content>}`)}},
		{"AutoGen ThoughtEvent", fr + `{"source":"assistant","content":"Let me look.","type":"ThoughtEvent"}]}`,
			[]note{dropped("0", `"thinking": [{"type": "thinking", "thinking": <its content>}]`)}},
		{"AutoGen event of another type", fr + `{"source":"assistant","content":[],"type":"MemoryQueryEvent"}]}`,
			[]note{dropped("0", `found an AutoGen AgentChat MemoryQueryEvent`)}},
		{"a type that is no AutoGen class", fr + `{"source":"x","type":"text","content":"hi"}]}`, nil},
		{"a type that is no identifier", fr + `{"source":"x","type":"A\nB Message","content":"hi"}]}`, nil},
		{"a type longer than any class name", fr + `{"source":"x","type":"A` + strings.Repeat("a", 100) + `Message","content":"hi"}]}`, nil},
		{"AutoGen shape with a role", fr + `{"role":"user","source":"user","type":"TextMessage","content":{}}]}`, nil},
		{"Pydantic AI ModelRequest", fr + `{"parts":[{"content":"Be brief.","timestamp":"2025-01-01T00:00:00Z","dynamic_ref":null,"part_kind":"system-prompt"},` +
			`{"content":"Refund #4521","timestamp":"2025-01-01T00:00:00Z","part_kind":"user-prompt"}],"instructions":null,"kind":"request"}]}`,
			[]note{dropped("0", `found a Pydantic AI ModelRequest ("kind": "request" with "parts", no "role"), expected chat messages; the message was dropped; send each of its parts as a message: `+
				`a system-prompt part as {"role": "system", "content": <content>}, a user-prompt part as {"role": "user", "content": <content>}`)}},
		{"Pydantic AI tool return", fr + `{"parts":[{"tool_name":"get_order","content":"shipped","tool_call_id":"call_1","part_kind":"tool-return"}],"kind":"request"}]}`,
			[]note{dropped("0", `send each of its parts as a message: a tool-return part as {"role": "tool", "tool_call_id": <tool_call_id>, "content": <content>} (json.dumps(content) when it is not a string)`)}},
		{"Pydantic AI ModelResponse", fr + `{"parts":[{"content":"Let me check.","part_kind":"text"},{"tool_name":"get_order","args":{"order_id":"4521"},"tool_call_id":"call_1","part_kind":"tool-call"}],` +
			`"usage":{"input_tokens":50},"model_name":"gpt-4o","timestamp":"2025-01-01T00:00:00Z","kind":"response"}]}`,
			[]note{dropped("0", `found a Pydantic AI ModelResponse ("kind": "response" with "parts", no "role"), expected a chat message; the message was dropped; `+
				`send it as one message: {"role": "assistant", "content": <the content of its text parts>, "tool_calls": [{"id": <tool_call_id>, "name": <tool_name>, "arguments": <args>}, ...]}`)}},
		{"Pydantic AI ModelResponse with thinking only", fr + `{"parts":[{"content":"hmm","part_kind":"thinking"}],"kind":"response"}]}`,
			[]note{dropped("0", `{"role": "assistant", "thinking": [{"type": "thinking", "thinking": <the content of its thinking parts>}]}`)}},
		{"Pydantic AI with role null", fr + `{"role":null,"parts":[],"kind":"request"}]}`,
			[]note{dropped("0", `a system-prompt part as {"role": "system", "content": <content>}, a user-prompt part as`)}},
		{"smolagents tool-call", fr + `{"role":"tool-call","content":[{"type":"text","text":"Calling tools:\n[{'id': 'call_1'}]"}],"tool_calls":null}]}`,
			[]note{dropped("0", `found "role": "tool-call", smolagents' MessageRole.TOOL_CALL, expected "assistant" with the calls in "tool_calls"; the message was dropped; send {"role": "assistant", "tool_calls": <the step's tool_calls>}`)}},
		{"smolagents tool-response", fr + `{"role":"tool-response","content":[{"type":"text","text":"Observation:\nshipped"}]}]}`,
			[]note{dropped("0", `send it as {"role": "tool", "tool_call_id": <the id of the call it answers>, "content": <its content>}`)}},
		{"smolagents memory step", fr + `{"step_number":1,"timing":{},"model_input_messages":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_order","arguments":{}}}],` +
			`"error":null,"model_output":"Checking.","observations":"shipped","is_final_answer":false}]}`,
			[]note{dropped("0", `found a smolagents memory step (ActionStep.dict(), with "step_number" and no "role"), expected chat messages`)}},
		{"Gemini model Content", fr + `{"role":"model","parts":[{"text":"Let me check."},{"function_call":{"id":"f1","name":"get_order","args":{"order_id":"4521"}}}]}]}`,
			[]note{dropped("0", `found a Gemini Content ("role": "model" with "parts"), expected a chat message {"role", "content", ...}: the platform reads a message's text from "content", not "parts"; `+
				`the message was dropped; send it as {"role": "assistant", "content": <the text of its text parts>, "tool_calls": [{"id": <its id when present, else one you generate, e.g. "call_1">, "name": <name>, "arguments": <args>}, ...] from its function_call parts}`)}},
		{"Gemini model Content of calls only", fr + `{"role":"model","parts":[{"functionCall":{"name":"get_order","args":{}}}]}]}`,
			[]note{dropped("0", `the message was dropped; send it as {"role": "assistant", "tool_calls": [{"id": <its id when present, else one you generate, e.g. "call_1">, "name": <name>, "arguments": <args>}, ...] from its functionCall parts}`)}},
		{"Gemini Content in REST's camelCase", fr + `{"role":"user","parts":[{"functionResponse":{"name":"get_order","response":{"status":"shipped"}}}]}]}`,
			[]note{{"messages[0]", softwarn.MessageTextInParts, softwarn.Kept, `the trace shows it without its text; send each functionResponse part as a message of its own: {"role": "tool", "tool_call_id": <its id when present, else the id you generated for the functionCall it answers (the next of the same name, in order)>, "content": JSON.stringify(<response>)} ` +
				`(its response is an object, and a tool message's content is text)`}}},
		{"Gemini Content as the Python SDK dumps it", fr + `{"role":"user","parts":[{"function_response":{"name":"get_order","response":{"status":"shipped"}}}]}]}`,
			[]note{{"messages[0]", softwarn.MessageTextInParts, softwarn.Kept, `the trace shows it without its text; send each function_response part as a message of its own: {"role": "tool", "tool_call_id": <its id when present, else the id you generated for the function_call it answers (the next of the same name, in order)>, "content": json.dumps(<response>)} ` +
				`(its response is an object, and a tool message's content is text)`}}},
		{"parts kept, function_call parts", fr + `{"role":"assistant","parts":[{"function_call":{"name":"get_order","args":{}}}]}]}`,
			[]note{{"messages[0]", softwarn.MessageTextInParts, softwarn.Kept, `move its function_call parts to "tool_calls": [{"id": <its id when present, else one you generate, e.g. "call_1">, "name": <name>, "arguments": <args>}, ...]`}}},
		{"Gemini Content without a role", fr + `{"parts":[{"text":"hi"}]}]}`,
			[]note{dropped("0", `("parts" and no "role", which Gemini reads as "user")`)}},
		{"Gemini role model without parts", fr + `{"role":"model","content":"hi"}]}`, nil},
		{"parts kept, text unread", fr + `{"role":"user","parts":[{"text":"Refund #4521"}]}]}`,
			[]note{{"messages[0]", softwarn.MessageTextInParts, softwarn.Kept, `found "parts" (Gemini's Content shape) and no "content", expected the message's text in "content": ` +
				`the platform reads a message's text only from "content", not "parts"; the message was kept, but the trace shows it without its text; move the text of its text parts to "content": <the text>`}}},
		{"parts and content null", fr + `{"role":"assistant","content":null,"parts":[{"text":"x"}]}]}`,
			[]note{{"messages[0]", softwarn.MessageTextInParts, softwarn.Kept, "no \"content\""}}},
		{"LlamaIndex ChatMessage", fr + `{"role":"user","additional_kwargs":{},"blocks":[{"block_type":"text","text":"Refund #4521"}]}]}`,
			[]note{{"messages[0]", softwarn.MessageTextInParts, softwarn.Kept, `found "blocks" (LlamaIndex's ChatMessage, as model_dump writes it) and no "content", expected the message's text in "content": ` +
				`the platform reads a message's text only from "content", not "blocks"; the message was kept, but the trace shows it without its text; ` +
				`send {"role": <its "role">, "content": <the text of its text blocks, joined>} (in Python, ChatMessage.content gives that text)`}}},
		{"blocks beside content", fr + `{"role":"user","content":"Refund #4521","blocks":[{"block_type":"text","text":"Refund #4521"}]}]}`, nil},
		{"blocks that are not an array", fr + `{"role":"user","blocks":{}}]}`, nil},
		{"parts beside content", fr + `{"role":"user","content":"Refund #4521","parts":[{"text":"Refund #4521"}]}]}`, nil},
		{"parts that are not an array", fr + `{"role":"user","parts":"x"}]}`, nil},
		{"the note comes before the message's other notes", fr + `{"role":"tool","parts":[{"text":"x"}]}]}`,
			[]note{
				{"messages[0]", softwarn.MessageTextInParts, softwarn.Kept, `found "parts"`},
				{"messages[0]", softwarn.ToolResultUnmatched, softwarn.Kept, "without tool_call_id"},
			}},
		{"LangChain messages_to_dict human", fr + `{"type":"human","data":{"content":"Refund #4521","additional_kwargs":{},"response_metadata":{},"type":"human","name":null,"id":null,"example":false}}]}`,
			[]note{dropped("0", `found a LangChain message as messages_to_dict (Python) or mapChatMessagesToStoredMessages (JavaScript) writes it ({"type": "human", "data": {...}}, no "role"), expected a chat message {"role", "content", ...}; the message was dropped; `+
				`send it as {"role": "user", "content": <data.content>}, or convert the list back with LangChain's helpers: in Python messages_from_dict(<the list>), then convert_to_openai_messages (langchain_core.messages); `+
				`in JavaScript mapStoredMessagesToChatMessages(<the list>) (@langchain/core/messages), then each message's content and tool_calls as above`)}},
		{"LangChain messages_to_dict ai with tool calls", fr + `{"type":"ai","data":{"content":"","tool_calls":[{"name":"get_order","args":{"order_id":"4521"},"id":"call_1","type":"tool_call"}],"type":"ai"}}]}`,
			[]note{dropped("0", `send it as {"role": "assistant", "content": <data.content>, "tool_calls": [{"id": <id>, "name": <name>, "arguments": <args>}, ...] from data.tool_calls}`)}},
		{"LangChain messages_to_dict tool", fr + `{"type":"tool","data":{"content":"shipped","tool_call_id":"call_1","type":"tool"}}]}`,
			[]note{dropped("0", `send it as {"role": "tool", "tool_call_id": <data.tool_call_id>, "content": <data.content>}`)}},
		{"LangChain messages_to_dict system", fr + `{"type":"system","data":{"content":"Be brief."}}]}`,
			[]note{dropped("0", `send it as {"role": "system", "content": <data.content>}`)}},
		{"a type of no LangChain message beside data", fr + `{"type":"chat","data":{"content":"x"}}]}`, nil},
		{"LangChain type with data that is no object", fr + `{"type":"human","data":"x"}]}`, nil},
		{"a dropped message of no known shape", fr + `{"speaker":"bot","text":"hi"}]}`, nil},
		{"in input order among the kept", fr + `{"source":"user","type":"TextMessage","content":"x"},{"role":"assistant","tool_calls":[{"id":"c1","name":"f"}]},{"role":"model","parts":[]}]}`,
			[]note{
				dropped("0", "AutoGen"),
				{"messages[1].tool_calls[0]", softwarn.ToolCallUnanswered, softwarn.Kept, `(id "c1")`},
				dropped("2", "Gemini"),
			}},
		{"transcript under steps", `{"final_response":"a","steps":[{"step_number":1,"model_output":"x"}]}`,
			[]note{{"steps", softwarn.TopLevelTranscriptKey, softwarn.Dropped, `found the key "steps" holding an array of objects, expected "messages" (the platform reads a transcript only from "messages", ` +
				`and "steps" is smolagents' name for an agent's memory steps (agent.memory.steps)); it was dropped with the other unknown keys, so the record has no messages and rich mode is off; ` +
				`if it holds the run's transcript, send it as "messages", each entry a chat message {"role": "system", "user", "assistant" or "tool", "content": ...}`}}},
		{"transcript under history", `{"history":[ {"role":"user","parts":[{"text":"hi"}]}],"final_response":"a"}`,
			[]note{{"history", softwarn.TopLevelTranscriptKey, softwarn.Dropped, `"history" is a chat's history in Gemini's SDKs`}}},
		{"the first transcript key only", `{"final_response":"a","chat_history":[{"role":"user","content":"x"}],"transcript":[{"role":"user"}]}`,
			[]note{{"chat_history", softwarn.TopLevelTranscriptKey, softwarn.Dropped, `"chat_history" is LangChain's usual name for one`}}},
		{"a transcript key with no origin", `{"final_response":"a","transcript":[{"speaker":"user"}]}`,
			[]note{{"transcript", softwarn.TopLevelTranscriptKey, softwarn.Dropped, `(the platform reads a transcript only from "messages"); it was dropped`}}},
		{"transcript key beside messages", `{"final_response":"a","messages":null,"new_items":[{"type":"message_output_item"}]}`, nil},
		{"transcript key beside a messages variant", `{"final_response":"a","new_items":[{}],"Messages":[{"role":"user","content":"x"}]}`,
			[]note{{"Messages", softwarn.TopLevelKeyVariant, softwarn.Dropped, `rename it "messages"`}}},
		{"transcript key holding no objects", `{"final_response":"a","history":["hi"],"steps":[],"message_history":{"a":[{}]}}`, nil},
		{"transcript key in another case", `{"final_response":"a","History":[{"role":"user","content":"x"}]}`, nil},
		// The application's own records under a transcript's name are no transcript: no note.
		{"steps of the application's own", `{"final_response":"Booked AF123.","steps":[{"name":"search_flights","status":"ok","duration_ms":120},{"name":"book","status":"ok"}]}`, nil},
		{"DSPy's LM history", `{"final_response":"Paris.","history":[{"prompt":null,"messages":[{"role":"user","content":"q"}],"kwargs":{},"outputs":["Paris."],"usage":{},"model":"openai/gpt-4o-mini"}]}`, nil},
		// The AI SDK's tool output (a ToolResultOutput) sent as a tool message's content: its
		// warning says JSON.stringify(output), which keeps the wrapper; the note says output.value.
		{"AI SDK json tool output", fr + `{"role":"tool","tool_call_id":"call_1","content":{"type":"json","value":{"temperature_c":21}}}]}`,
			[]note{{"messages[0].content", softwarn.MessageOtherFramework, softwarn.Dropped, `found the AI SDK's tool output, {"type": "json", "value": ...} (a ToolResultOutput), expected the tool's output itself; ` +
				`the message was dropped; send "content": JSON.stringify(output.value), the tool's output as JSON text, not JSON.stringify(output), which would keep the wrapper`}}},
		{"AI SDK text tool output", fr + `{"role":"tool","tool_call_id":"call_1","content":{"type":"text","value":"21°C"}}]}`,
			[]note{{"messages[0].content", softwarn.MessageOtherFramework, softwarn.Dropped, `{"type": "text", "value": ...} (a ToolResultOutput), expected the tool's output itself; ` +
				`the message was dropped; send "content": output.value, the tool's text as it is, not [output], which would keep the wrapper`}}},
		{"AI SDK error-text tool output", fr + `{"role":"tool","tool_call_id":"call_1","content":{"type":"error-text","value":"city not found"}}]}`,
			[]note{{"messages[0].content", softwarn.MessageOtherFramework, softwarn.Dropped, `send "content": output.value, the tool's text as it is (the tool's error), not`}}},
		{"AI SDK error-json tool output", fr + `{"role":"tool","tool_call_id":"call_1","content":{"type":"error-json","value":{"code":404}}}]}`,
			[]note{{"messages[0].content", softwarn.MessageOtherFramework, softwarn.Dropped, `send "content": JSON.stringify(output.value), the tool's output as JSON text (the tool's error), not`}}},
		{"AI SDK content tool output", fr + `{"role":"tool","tool_call_id":"call_1","content":{"type":"content","value":[{"type":"text","text":"21°C"}]}}]}`,
			[]note{{"messages[0].content", softwarn.MessageOtherFramework, softwarn.Dropped, `send "content": output.value, its list of parts (a text part is {"type": "text", "text"}, as OpenAI's), not`}}},
		{"a text type whose value is no string", fr + `{"role":"tool","content":{"type":"text","value":{"a":1}}}]}`, nil},
		{"a json type without a value", fr + `{"role":"tool","content":{"type":"json","json":{}}}]}`, nil},
		{"a json output in a user message", fr + `{"role":"user","content":{"type":"json","value":{}}}]}`, nil},
		// A type is read up to 64 characters (66 bytes with its quotes), no further: a hostile
		// value is not copied for a note.
		{"an AutoGen type of 64 characters", fr + `{"source":"assistant","content":"x","type":"` + strings.Repeat("A", 57) + `Message"}]}`,
			[]note{dropped("0", `found an AutoGen AgentChat `+strings.Repeat("A", 57)+`Message ("source" and "type", no "role")`)}},
		{"an AutoGen type of 65 characters", fr + `{"source":"assistant","content":"x","type":"` + strings.Repeat("A", 58) + `Message"}]}`, nil},
		{"OpenAI chat stream chunk", fr + `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"x"}}]}]}`,
			[]note{dropped("0", `found an OpenAI Chat Completions stream chunk`)}},
		{"OpenAI chat stream deltas", fr + `{"content":"x"},{}]}`,
			[]note{dropped("0", `as in an OpenAI Chat Completions stream delta`), dropped("1", `as in an OpenAI Chat Completions stream delta`)}},
		{"a roleless message with a member no delta has", fr + `{"content":"x","name":"n"}]}`, nil},
		{"an object that is no chat chunk", fr + `{"object":"chat.completion","choices":[]}]}`, nil},
		{"OpenAI Responses stream event", fr + `{"type":"response.output_text.delta","delta":"x"}]}`,
			[]note{dropped("0", `found an OpenAI Responses stream event ("type": "response.output_text.delta")`)}},
		{"OpenAI Responses custom tool call", fr + `{"type":"custom_tool_call","call_id":"c1","name":"sql","input":"SELECT 1"}]}`,
			[]note{dropped("0", `"arguments": <input>}]}`)}},
		{"OpenAI Responses custom tool call output", fr + `{"type":"custom_tool_call_output","call_id":"c1","output":"1"}]}`,
			[]note{dropped("0", `{"role": "tool", "tool_call_id": <call_id>, "content": <output>}`)}},
		{"Anthropic stream event", fr + `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}]}`,
			[]note{dropped("0", `found an Anthropic Messages stream event ("type": "content_block_delta")`)}},
		{"AI SDK StepResult", fr + `{"stepNumber":0,"content":[],"finishReason":"stop"}]}`,
			[]note{dropped("0", `found an AI SDK StepResult`)}},
		{"OpenAI Agents SDK RunItem in JavaScript", fr + `{"type":"tool_call_item","rawItem":{"type":"function_call","callId":"c1"}}]}`,
			[]note{dropped("0", `send each RunItem's rawItem as a chat message`)}},
		{"OpenAI Agents SDK RunItem in Python", fr + `{"type":"tool_call_item","raw_item":{"type":"function_call","call_id":"c1"}}]}`,
			[]note{dropped("0", `a function_call_output item as {"role": "tool", "tool_call_id": <its call_id>`)}},
		{"a RunItem type without its item", fr + `{"type":"tool_call_item"}]}`, nil},
		{"OpenAI Agents SDK function_call_result", fr + `{"type":"function_call_result","callId":"c1","output":{"type":"text","text":"x"}}]}`,
			[]note{dropped("0", `found an OpenAI Agents SDK function_call_result item`)}},
		{"LangChain toJSON AIMessageChunk", fr + `{"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessageChunk"],"kwargs":{"content":"x"}}]}`,
			[]note{dropped("0", `found a LangChain AIMessageChunk serialized by its toJSON() ({"lc": 1, "type": "constructor", "id": [...], "kwargs": {...}}, no "role") (a chunk is`)}},
		{"LangChain toJSON ToolMessage", fr + `{"lc":1,"type":"constructor","id":["langchain_core","messages","ToolMessage"],"kwargs":{"content":"x","tool_call_id":"c"}}]}`,
			[]note{dropped("0", `send it as {"role": "tool", "tool_call_id": <its kwargs' tool_call_id>, "content": <kwargs.content>}`)}},
		{"LangChain toJSON of an unknown class", fr + `{"lc":1,"type":"constructor","id":["x","Other"],"kwargs":{}}]}`,
			[]note{dropped("0", `found a LangChain Other serialized`)}},
		{"OpenAI Agents SDK items under newItems", `{"final_response":"a","newItems":[{"type":"message_output_item","rawItem":{"role":"assistant"}}]}`,
			[]note{{"newItems", softwarn.TopLevelTranscriptKey, softwarn.Dropped, `(RunResult.newItems)); it was dropped with the other unknown keys`}}},
		{"a transcript key holding empty objects", `{"final_response":"a","chat_history":[{},{}]}`, nil},
		{"a transcript key holding a type that is no message's", `{"final_response":"a","history":[{"type":"deploy","data":{}}]}`, nil},
		// A message shape in one of the first entries is enough: smolagents' memory starts with a
		// TaskStep ({"task"}), its ActionSteps follow.
		{"smolagents memory steps after a TaskStep", `{"final_response":"a","steps":[{"task":"compute 6*7","task_images":null},{"step_number":1,"model_output":"x"}]}`,
			[]note{{"steps", softwarn.TopLevelTranscriptKey, softwarn.Dropped, `"steps" is smolagents' name`}}},
		{"LangChain messages_to_dict under chat_history", `{"final_response":"a","chat_history":[{"type":"human","data":{"content":"hi"}}]}`,
			[]note{{"chat_history", softwarn.TopLevelTranscriptKey, softwarn.Dropped, `"chat_history" is LangChain's usual name for one`}}},
		{"OpenAI Agents SDK items under new_items", `{"final_response":"a","new_items":[{"agent":"Triage","raw_item":{"role":"assistant"},"type":"message_output_item"}]}`,
			[]note{{"new_items", softwarn.TopLevelTranscriptKey, softwarn.Dropped, `(RunResult.new_items)); it was dropped with the other unknown keys, so the record has no messages and rich mode is off; ` +
				`send "messages" built from result.to_input_list(), the run's input items (not its RunItems): a message item as {"role": <role>, "content": <content>}, ` +
				`a function_call item as {"role": "assistant", "tool_calls": [{"id": <call_id>, "name": <name>, "arguments": <arguments>}]}, ` +
				`a function_call_output item as {"role": "tool", "tool_call_id": <call_id>, "content": <output>}`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notes := explainNotes(t, tt.input)
			require.Len(t, notes, len(tt.notes), "notes: %+v", notes)
			for i, want := range tt.notes {
				got := notes[i]
				assert.Equal(t, want.path, got.Path())
				assert.Equal(t, want.code, got.Code)
				assert.Equal(t, want.action, got.Action)
				assert.Contains(t, got.Message(), want.contains)
			}
		})
	}
}

// A transcript of a thousand AutoGen messages gives a note each, listed up to the limit and
// counted past it, as every note is.
func TestExplainOtherFrameworksLimited(t *testing.T) {
	msg := `{"source":"assistant","content":"x","type":"TextMessage"}`
	doc := `{"final_response":"a","messages":[` + strings.TrimSuffix(strings.Repeat(msg+",", 1000), ",") + `]}`
	res, err := porting.Normalize([]byte(doc), normalize.WithExplain(), normalize.WithMaxWarnings(5))
	require.NoError(t, err)
	notes := res.Notes()
	require.Len(t, notes, 6)
	for i, n := range notes[:5] {
		assert.Equal(t, softwarn.MessageOtherFramework, n.Code, "note %d", i)
	}
	assert.Equal(t, softwarn.NotesLimited, notes[5].Code)
	assert.Contains(t, notes[5].Message(), "995 more notes were not listed")
}

// Past the limit, a dropped message in another framework's shape is counted, not written: the
// explain view allocates next to nothing more per such message than the record does. (A note
// built and thrown away cost a few allocations each: 35 times the input in bytes for 20 MiB
// of tiny Pydantic AI messages.)
func TestExplainOtherFrameworksCountedNotBuilt(t *testing.T) {
	const count = 2000
	for _, msg := range []string{
		`{"kind":"request","parts":[]}`,
		`{"parts":[{"text":"x"}]}`,
		`{"role":"model","parts":[]}`,
		`{"source":"a","type":"TextMessage"}`,
		`{"role":"tool-call"}`,
		`{"step_number":1,"observations":"x"}`,
		`{"type":"human","data":{}}`,
		`{"role":"tool","content":{"type":"json","value":1}}`,
		`{"content":"x"}`,
		`{"object":"chat.completion.chunk","choices":[]}`,
		`{"type":"response.output_text.delta"}`,
		`{"type":"content_block_delta"}`,
		`{"stepNumber":1}`,
		`{"type":"tool_call_item","rawItem":{}}`,
		`{"lc":1,"type":"constructor","id":["AIMessage"],"kwargs":{}}`,
	} {
		doc := []byte(`{"final_response":"a","messages":[` + strings.TrimSuffix(strings.Repeat(msg+",", count), ",") + `]}`)
		plain := porting.New(normalize.WithMaxWarnings(5))
		explain := porting.New(normalize.WithMaxWarnings(5), normalize.WithExplain())
		allocs := func(n *normalize.Normalizer) float64 {
			return leastAllocs(5, func() {
				res, err := n.Normalize(doc)
				require.NoError(t, err)
				res.Release()
			})
		}
		more := allocs(explain) - allocs(plain)
		assert.Less(t, more, float64(count/10), "%s: explain allocates %.0f times more for %d messages", msg, more, count)
	}
}

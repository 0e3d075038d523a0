package messages_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// The warning that drops a message, whole: what was found, what was expected, what was done,
// then the fix, the clauses separated by "; ".
func TestDropWarningWording(t *testing.T) {
	const noRole = `found no role, expected one of "system", "user", "assistant", "tool"; the message was dropped; `
	const dropped = "; the message was dropped; "
	tests := []struct {
		name, msg, path string
		code            softwarn.Code
		want            string
	}{
		{"reasoning item", `{"id":"rs_1","type":"reasoning","summary":[]}`, "messages[0]", softwarn.OpenAIResponsesItem,
			noRole + `this is an OpenAI Responses reasoning item (the model's reasoning), not a chat message: leave it out, ` +
				`or put the text of its summary in the thinking of the assistant message that follows it: "thinking": [{"type": "thinking", "thinking": <the summary's text>}]`},
		{"computer_call item", `{"type":"computer_call","id":"cu_1","call_id":"c1","action":{"type":"click","x":1,"y":2}}`, "messages[0]", softwarn.OpenAIResponsesItem,
			noRole + `this is an OpenAI Responses computer_call item, not a chat message: send it as {"role": "assistant", "tool_calls": [{"id": <call_id>, "name": "computer", "arguments": <action>}]}`},
		{"computer_call_output item", `{"type":"computer_call_output","call_id":"c1","output":{"type":"computer_screenshot","image_url":"data:"}}`, "messages[0]", softwarn.OpenAIResponsesItem,
			noRole + `this is an OpenAI Responses computer_call_output item, not a chat message: send it as {"role": "tool", "tool_call_id": <call_id>, "content": [<output>]}`},
		{"web_search_call item", `{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search","query":"q"}}`, "messages[0]", softwarn.OpenAIResponsesItem,
			noRole + `this is an OpenAI Responses web_search_call item (a search OpenAI's hosted tool ran), not a chat message: leave it out (the assistant message that follows cites what it found), ` +
				`or, to show the search, send it as {"role": "assistant", "tool_calls": [{"id": <id>, "name": "web_search", "arguments": <action>}]}`},
		{"file_search_call item", `{"type":"file_search_call","id":"fs_1","queries":["q"],"status":"completed","results":null}`, "messages[0]", softwarn.OpenAIResponsesItem,
			noRole + `this is an OpenAI Responses file_search_call item (a search OpenAI's hosted tool ran), not a chat message: leave it out, or send it as ` +
				`{"role": "assistant", "tool_calls": [{"id": <id>, "name": "file_search", "arguments": {"queries": <queries>}}]} followed by {"role": "tool", "tool_call_id": <id>, "content": <results>}`},
		{"function_call item of the Agents SDK for JavaScript: callId", `{"type":"function_call","id":"fc_1","callId":"call_1","name":"f","arguments":"{}"}`, "messages[0]", softwarn.OpenAIResponsesItem,
			noRole + `this is an OpenAI Responses function_call item, not a chat message: send it as {"role": "assistant", "tool_calls": [{"id": <callId>, "name": <name>, "arguments": <arguments>}]}`},
		{"function_call item with call_id", `{"type":"function_call","call_id":"call_1","callId":"call_1","name":"f","arguments":"{}"}`, "messages[0]", softwarn.OpenAIResponsesItem,
			noRole + `this is an OpenAI Responses function_call item, not a chat message: send it as {"role": "assistant", "tool_calls": [{"id": <call_id>, "name": <name>, "arguments": <arguments>}]}`},
		{"function_call_output item with callId", `{"type":"function_call_output","callId":"call_1","output":"{}"}`, "messages[0]", softwarn.OpenAIResponsesItem,
			noRole + `this is an OpenAI Responses function_call_output item, not a chat message: send it as {"role": "tool", "tool_call_id": <callId>, "content": <output>}`},
		{"LangChain's stored form", `{"type":"human","data":{"content":"hi"}}`, "messages[0]", softwarn.MessageRoleMissing,
			noRole + `this looks like a LangChain message (type "human"): send it with "role": "user"; LangChain's helpers read this stored form: ` +
				`messages_from_dict in Python (langchain_core.messages), mapStoredMessagesToChatMessages in JavaScript (@langchain/core/messages)`},
		{"an unknown type is not named", `{"type":"item_reference","id":"x"}`, "messages[0]", softwarn.MessageRoleMissing,
			strings.TrimSuffix(noRole, "; ")},
		{"thinking entry not an object", `{"role":"assistant","thinking":["hmm"]}`, "messages[0].thinking[0]", softwarn.MessageThinkingInvalid,
			`found a string, expected an object` + dropped + `send each thinking entry as an object, e.g. {"type": "thinking", "thinking": <the text>} (Anthropic's thinking block)`},
		{"thinking a string", `{"role":"assistant","thinking":"hmm"}`, "messages[0].thinking", softwarn.MessageThinkingInvalid,
			`found a string, expected an array of objects or null` + dropped + `put the text in an array of objects, e.g. [{"type": "thinking", "thinking": <the text>}] (Anthropic's thinking blocks)`},
		{"thinking an object", `{"role":"assistant","thinking":{"type":"thinking"}}`, "messages[0].thinking", softwarn.MessageThinkingInvalid,
			`found an object, expected an array of objects or null` + dropped + `a single thinking entry must be wrapped in an array: [{...}]`},
		{"thinking a number", `{"role":"assistant","thinking":1}`, "messages[0].thinking", softwarn.MessageThinkingInvalid,
			`found a number, expected an array of objects or null` + dropped + `thinking holds the model's reasoning, as an array of objects, e.g. [{"type": "thinking", "thinking": <the text>}]: send that, or leave the key out`},
		{"call not an object", `{"role":"assistant","tool_calls":["get_order"]}`, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid,
			`found a string, expected a tool call object` + dropped + `send each call as an object: flat {"id", "name", "arguments"} or OpenAI's {"id", "type": "function", "function": {"name", "arguments"}}`},
		{"name missing", `{"role":"assistant","tool_calls":[{"id":"c1","input":{}}]}`, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid,
			`name is missing, expected the tool's name as a string` + dropped + `add the tool's name: "name" in the flat form {"id", "name", "arguments"}, or "function": {"name", "arguments"} in OpenAI's`},
		{"name a number", `{"role":"assistant","tool_calls":[{"id":"c1","name":7}]}`, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid,
			`name is a number, expected the tool's name as a string` + dropped + `send it as a string: "7"`},
		{"name an object", `{"role":"assistant","tool_calls":[{"id":"c1","name":{"name":"f"}}]}`, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid,
			`name is an object, expected the tool's name as a string` + dropped + `send the tool's name as a string`},
		{"function not an object", `{"role":"assistant","tool_calls":[{"id":"c1","function":"get_order"}]}`, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid,
			`function is a string, expected an object {"name", "arguments"}` + dropped + `send "function": {"name": <the tool's name>, "arguments": <its arguments>}, or the flat form {"id", "name", "arguments"} without "function"`},
		{"function.name missing", `{"role":"assistant","tool_calls":[{"id":"c1","function":{"arguments":"{}"}}]}`, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid,
			`function.name is missing, expected the tool's name as a string` + dropped + `add the tool's name to function: {"name": <the tool's name>, "arguments": <its arguments>}`},
		{"function.name a number", `{"role":"assistant","tool_calls":[{"id":"c1","function":{"name":12}}]}`, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid,
			`function.name is a number, expected the tool's name as a string` + dropped + `send it as a string: "12"`},
		{"id an object", `{"role":"assistant","tool_calls":[{"id":{},"name":"f"}]}`, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid,
			`id is an object, expected a string or null` + dropped + `send the call's id as a string, or null when it has none`},
		{"id a number", `{"role":"assistant","tool_calls":[{"id":5,"name":"f"}]}`, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid,
			`id is the number 5, expected a string or null` + dropped + `send it as a string: "5"`},
		{"a long number is shortened", `{"role":"assistant","tool_calls":[{"id":"c","name":` + strings.Repeat("9", 200) + `}]}`, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid,
			`name is a number, expected the tool's name as a string` + dropped + `send it as a string: "` + strings.Repeat("9", 64) + `…"`},
		{"a bare content part", `{"role":"user","content":{"type":"text","text":"hi"}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object, expected a string, an array of content parts, or null` + dropped + `a bare content part must be wrapped in an array: [{...}]`},
		{"a tool's output as an object", `{"role":"tool","tool_call_id":"call_1","content":{"temperature_c":21}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object that is not a content part (it has no string "type"), expected a string, an array of content parts, or null` + dropped +
				`send the tool's output as JSON text: "content": json.dumps(output) in Python, JSON.stringify(output) in JavaScript`},
		{"a tool's output with a type that is not a string", `{"role":"tool","tool_call_id":"c","content":{"type":1,"value":2}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object that is not a content part (it has no string "type"), expected a string, an array of content parts, or null` + dropped +
				`send the tool's output as JSON text: "content": json.dumps(output) in Python, JSON.stringify(output) in JavaScript`},
		{"a tool's content part", `{"role":"tool","tool_call_id":"c","content":{"text":"18C","type":"text"}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object, expected a string, an array of content parts, or null` + dropped + `a bare content part must be wrapped in an array: [{...}]`},
		{"type given twice, the last not a string", `{"role":"tool","content":{"type":"text","type":null}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object that is not a content part (it has no string "type"), expected a string, an array of content parts, or null` + dropped +
				`send the tool's output as JSON text: "content": json.dumps(output) in Python, JSON.stringify(output) in JavaScript`},
		{"a nested type is not the object's", `{"role":"assistant","content":{"part":{"type":"text"}}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object that is not a content part (it has no string "type"), expected a string, an array of content parts, or null` + dropped +
				`send the text as a string: "content": <the text>`},
		// A tool message's object whose "type" names no content part is the tool's typed output:
		// JSON text, not an array, is the fix. A known part's type, or another role, keeps the
		// content-part advice.
		{"a tool's typed output", `{"role":"tool","tool_call_id":"c","content":{"type":"json","json":{"temperature_c":21}}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object that is not a content part (its "type" "json" is no content part's type), expected a string, an array of content parts, or null` + dropped +
				`send the tool's output as JSON text: "content": json.dumps(output) in Python, JSON.stringify(output) in JavaScript`},
		{"a tool's domain object with a type", `{"role":"tool","tool_call_id":"c","content":{"type":"weather_report","city":"Oslo"}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object that is not a content part (its "type" "weather_report" is no content part's type)` + `, expected a string, an array of content parts, or null` + dropped +
				`send the tool's output as JSON text: "content": json.dumps(output) in Python, JSON.stringify(output) in JavaScript`},
		{"a long type is shortened", `{"role":"tool","content":{"type":"` + strings.Repeat("t", 200) + `"}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object that is not a content part (its "type" "` + strings.Repeat("t", 63) + `…" is no content part's type), expected a string, an array of content parts, or null` + dropped +
				`send the tool's output as JSON text: "content": json.dumps(output) in Python, JSON.stringify(output) in JavaScript`},
		{"the type as the sender wrote it", `{"role":"tool","content":{"type":"j\u0073on"}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object that is not a content part (its "type" "j\u0073on" is no content part's type), expected a string, an array of content parts, or null` + dropped +
				`send the tool's output as JSON text: "content": json.dumps(output) in Python, JSON.stringify(output) in JavaScript`},
		{"a tool's escaped content part type", `{"role":"tool","content":{"type":"te\u0078t","text":"18C"}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object, expected a string, an array of content parts, or null` + dropped + `a bare content part must be wrapped in an array: [{...}]`},
		{"a tool's MCP image content", `{"role":"tool","content":{"type":"image","data":"iVBOR","mimeType":"image/png"}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object, expected a string, an array of content parts, or null` + dropped + `a bare content part must be wrapped in an array: [{...}]`},
		{"a tool's type repeated, the last a content part's", `{"role":"tool","content":{"type":"json","type":"text","text":"x"}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object, expected a string, an array of content parts, or null` + dropped + `a bare content part must be wrapped in an array: [{...}]`},
		{"a user's object of an unknown type", `{"role":"user","content":{"type":"json","json":{}}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object, expected a string, an array of content parts, or null` + dropped + `a bare content part must be wrapped in an array: [{...}]`},
		{"an assistant's text as an object", `{"role":"assistant","content":{"text":"hi"}}`, "messages[0].content", softwarn.MessageContentInvalid,
			`found a bare object that is not a content part (it has no string "type"), expected a string, an array of content parts, or null` + dropped +
				`send the text as a string: "content": <the text>`},
		{"a long tool_call_id number is shortened", `{"role":"tool","tool_call_id":` + strings.Repeat("9", 200) + `}`, "messages[0].tool_call_id", softwarn.MessageToolCallIDInvalid,
			`found the number ` + strings.Repeat("9", 64) + `…, expected a string (the id of the tool call this message answers) or null` + dropped + `send it as a string: "` + strings.Repeat("9", 64) + `…"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, w, err := checkOne(t, []byte(tt.msg))
			require.NoError(t, err)
			require.False(t, kept)
			require.Equal(t, tt.path, w.Path())
			require.Equal(t, tt.code, w.Code)
			require.Equal(t, tt.want, w.Message())
		})
	}
}

// Every warning that drops a message says in its parts what was found and expected, and that
// the message was dropped; no other part repeats that. Reports and the explain view read the
// parts, not the text.
func TestDropWarningParts(t *testing.T) {
	for _, msg := range []string{
		`null`, `"hi"`, `"{\"role\":\"user\"}"`, `{"content":"x"}`, `{"role":null}`, `{"role":"developer"}`, `{"role":"User"}`,
		`{"role":"user","content":5}`, `{"role":"user","content":{"type":"text"}}`, `{"role":"user","content":{}}`, `{"role":"tool","content":{"a":1}}`,
		`{"role":"tool","content":{"type":"json"}}`,
		`{"role":"tool","tool_call_id":7}`, `{"role":"tool","tool_call_id":[]}`,
		`{"role":"assistant","tool_calls":{}}`, `{"role":"assistant","tool_calls":"x"}`,
		`{"role":"assistant","tool_calls":[1]}`, `{"role":"assistant","tool_calls":[{}]}`,
		`{"role":"assistant","tool_calls":[{"name":true}]}`, `{"role":"assistant","tool_calls":[{"function":[]}]}`,
		`{"role":"assistant","tool_calls":[{"function":{}}]}`, `{"role":"assistant","tool_calls":[{"function":{"name":null}}]}`,
		`{"role":"assistant","tool_calls":[{"name":"f","id":1.5}]}`, `{"role":"assistant","tool_calls":[{"name":"f","id":true}]}`,
		`{"role":"assistant","thinking":"x"}`, `{"role":"assistant","thinking":{}}`, `{"role":"assistant","thinking":[1]}`,
		`{"type":"function_call"}`, `{"type":"function_call_output"}`, `{"type":"reasoning"}`, `{"type":"tool_use"}`,
		`{"type":"tool_result"}`, `{"type":"text"}`, `{"type":"ai"}`, `{"type":"human"}`, `{"type":"web_search_call"}`,
		`{"type":"file_search_call"}`, `{"type":"computer_call"}`, `{"type":"computer_call_output"}`,
	} {
		kept, w, err := checkOne(t, []byte(msg))
		require.NoError(t, err, msg)
		require.False(t, kept, msg)
		require.NotEmpty(t, w.Found, msg)
		require.NotEmpty(t, w.Expected, msg)
		require.Empty(t, w.Problem, msg)
		require.Equal(t, "the message was dropped", w.Done, msg)
		for _, part := range []string{w.Subject, w.Found, w.Expected, w.Fix} {
			require.NotContains(t, part, "was dropped", "%s: a part other than Done says what was done", msg)
		}
	}
}

// The parts of a tool call's warning name the member at fault as the subject, so that the
// warning's path stays the call's.
func TestToolCallWarningParts(t *testing.T) {
	kept, w, err := checkOne(t, []byte(`{"role":"assistant","tool_calls":[{"id":5,"name":"f"}]}`))
	require.NoError(t, err)
	require.False(t, kept)
	require.Equal(t, softwarn.Parts{Subject: "id", Found: "the number 5", Expected: "a string or null", Done: "the message was dropped", Fix: `send it as a string: "5"`}, w.Parts)
	require.Equal(t, "messages[0].tool_calls[0]", w.Path())
}

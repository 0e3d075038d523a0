package porting_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

// utf16LE and the others encode ASCII text as the wide encodings write it, without a byte
// order mark.
func utf16LE(s string) string { return widen(s, func(c byte) []byte { return []byte{c, 0} }) }
func utf16BE(s string) string { return widen(s, func(c byte) []byte { return []byte{0, c} }) }
func utf32LE(s string) string { return widen(s, func(c byte) []byte { return []byte{c, 0, 0, 0} }) }
func utf32BE(s string) string { return widen(s, func(c byte) []byte { return []byte{0, 0, 0, c} }) }

func widen(s string, enc func(byte) []byte) string {
	var out []byte
	for i := 0; i < len(s); i++ {
		out = append(out, enc(s[i])...)
	}
	return string(out)
}

// Text in UTF-16 or UTF-32 (PowerShell's Out-File) fails in its first bytes, whatever it
// holds: the error says which encoding it looks like and how to send UTF-8 instead.
func TestWideEncodings(t *testing.T) {
	const result = `{"final_response":"ok"}`
	const powerShell = "(PowerShell 7: Out-File -Encoding utf8NoBOM; Windows PowerShell 5.1, whose -Encoding utf8 adds a byte order mark: [IO.File]::WriteAllText(<path>, <text>))"
	const encodeUTF8 = "encode the text as UTF-8 (Python: .encode('utf-8'); .NET: Encoding.UTF8.GetBytes)"
	tests := []struct {
		name, input string
		column      int
		reason      string
	}{
		{"UTF-16LE with its byte order mark, as Out-File writes", "\xff\xfe" + utf16LE(result), 1,
			"the input starts with the bytes FF FE, the byte order mark of UTF-16 (little-endian, as Windows PowerShell's Out-File and '>' write); " +
				"expected UTF-8: send UTF-8 without a byte order mark " + powerShell + ", or convert the file: iconv -f UTF-16 -t UTF-8"},
		{"UTF-16LE without a byte order mark, as encoders write it", utf16LE(result), 2,
			"the input starts with the bytes 7B 00 22 00, a NUL byte after each of its first two characters: it looks like UTF-16 (little-endian) without a byte order mark, " +
				"as Python's .encode('utf-16-le') and .NET's Encoding.Unicode.GetBytes write it; expected UTF-8: " + encodeUTF8 + ", or convert the file: iconv -f UTF-16LE -t UTF-8"},
		{"UTF-16BE with its byte order mark", "\xfe\xff" + utf16BE(result), 1,
			"the input starts with the bytes FE FF, the byte order mark of UTF-16 (big-endian); expected UTF-8: send UTF-8 without a byte order mark, or convert the file: iconv -f UTF-16 -t UTF-8"},
		{"UTF-16BE without a byte order mark", utf16BE(result), 1,
			"the input starts with the bytes 00 7B 00 22, a NUL byte before each of its first two characters: it looks like UTF-16 (big-endian) without a byte order mark; " +
				"expected UTF-8: " + encodeUTF8 + ", or convert the file: iconv -f UTF-16BE -t UTF-8"},
		{"UTF-32LE with its byte order mark", "\xff\xfe\x00\x00" + utf32LE(result), 1,
			"the input starts with the bytes FF FE 00 00, the byte order mark of UTF-32 (little-endian); expected UTF-8: send UTF-8 without a byte order mark, or convert the file: iconv -f UTF-32 -t UTF-8"},
		{"UTF-32BE with its byte order mark", "\x00\x00\xfe\xff" + utf32BE(result), 1,
			"the input starts with the bytes 00 00 FE FF, the byte order mark of UTF-32 (big-endian); expected UTF-8"},
		{"UTF-32LE without a byte order mark", utf32LE(result), 2,
			"the input starts with the bytes 7B 00 00 00 22 00 00 00, three NUL bytes after each of its first two characters: it looks like UTF-32 (little-endian) without a byte order mark; " +
				"expected UTF-8: " + encodeUTF8 + ", or convert the file: iconv -f UTF-32LE -t UTF-8"},
		{"UTF-32BE without a byte order mark", utf32BE(result), 1, "it looks like UTF-32 (big-endian) without a byte order mark; expected UTF-8: " + encodeUTF8 + ", or convert the file: iconv -f UTF-32BE -t UTF-8"},
		{"a bare answer in UTF-16LE", utf16LE(`"The refund was issued."`), 2, "it looks like UTF-16 (little-endian"},
		{"a number in UTF-16LE", utf16LE(`42`), 2, "it looks like UTF-16 (little-endian"},
		{"a literal in UTF-16LE", utf16LE(`null`), 1, "it looks like UTF-16 (little-endian"},
		{"whitespace first, UTF-16LE", utf16LE(" " + result), 2, "it looks like UTF-16 (little-endian"},
		{"two characters of UTF-16LE", utf16LE(`12`), 2, "it looks like UTF-16 (little-endian"},
		{"non-ASCII second character, UTF-16LE", "\"\x00\xe9\x00\"\x00", 2, "it looks like UTF-16 (little-endian"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			syn := rejected(t, tt.input)
			assert.Equal(t, 1, syn.Line)
			assert.Equal(t, tt.column, syn.Column)
			assert.Contains(t, syn.Reason, tt.reason)
		})
	}
}

// Errors that merely hold NUL bytes, or fail past the start, keep their own message.
func TestNoWideEncodingHint(t *testing.T) {
	tests := []struct{ name, input, reason string }{
		{"UTF-8 byte order mark", "\xef\xbb\xbf{}", "unexpected byte order mark U+FEFF"},
		{"a NUL byte further on", `{"final_response":"ok"` + "\x00}", "unexpected byte 0x00 after an object member"},
		{"a NUL byte first, nothing after", "\x00", "unexpected byte 0x00; expected a value"},
		{"a NUL byte early, between ASCII characters", "[1,\x00]", "unexpected byte 0x00; expected a value"},
		{"one character and NUL padding", "1\x00\x00\x00", "unexpected byte 0x00 after the top-level value"},
		{"one character of UTF-16LE", "1\x00", "unexpected byte 0x00 after the top-level value"},
		{"Latin-1 text", "{\"final_response\":\"caf\xe9\"}", "invalid UTF-8 byte 0xE9 inside a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			syn := rejected(t, tt.input)
			assert.Contains(t, syn.Reason, tt.reason)
			assert.NotContains(t, syn.Reason, "UTF-16")
			assert.NotContains(t, syn.Reason, "UTF-32")
		})
	}
}

// Several results, one per line, as a JSON Lines file holds them, are still one input too
// many; the error says so and marks itself, so that a caller with a batch mode can name it.
func TestJSONLines(t *testing.T) {
	const hint = "; another JSON value starts on this line, as in JSON Lines (one result per line): send one result per input"
	tests := []struct {
		name, input  string
		lines        bool
		line, column int
	}{
		{"two results", "{\"final_response\":\"a\"}\n{\"final_response\":\"b\"}\n", true, 2, 1},
		{"three results, no final newline", "{\"final_response\":\"a\"}\n{\"final_response\":\"b\"}\n{\"final_response\":\"c\"}", true, 2, 1},
		{"CRLF", "{\"final_response\":\"a\"}\r\n{\"final_response\":\"b\"}\r\n", true, 2, 1},
		{"blank lines between", "{\"final_response\":\"a\"}\n\n  {\"final_response\":\"b\"}", true, 3, 3},
		{"bare answers", "\"a\"\n\"b\"", true, 2, 1},
		{"a second value that is no result", "{\"final_response\":\"a\"}\n[1, 2]", true, 2, 1},
		{"two values on one line", `{"final_response":"a"} {"final_response":"b"}`, false, 1, 24},
		{"pretty-printed values one after the other", "{\n  \"final_response\": \"a\"\n}\n{\n  \"final_response\": \"b\"\n}", false, 4, 1},
		{"a second value that spans lines", "{\"final_response\":\"a\"}\n{\n\"final_response\":\"b\"}", false, 2, 1},
		{"a second line that is no JSON", "{\"final_response\":\"a\"}\n{\"final_response\":", false, 2, 1},
		{"text after the second value", "{\"final_response\":\"a\"}\n{\"final_response\":\"b\"} x", false, 2, 1},
		{"prose after the answer", "\"a\"\nThe refund was issued.", false, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			syn := rejected(t, tt.input)
			assert.Equal(t, tt.line, syn.Line, "line")
			assert.Equal(t, tt.column, syn.Column, "column")
			assert.Equal(t, tt.lines, syn.JSONLines)
			if !tt.lines {
				assert.NotContains(t, syn.Reason, "JSON Lines")
				return
			}
			assert.Equal(t, "unexpected character '"+tt.input[syn.Offset:syn.Offset+1]+"' after the top-level value; expected exactly one JSON value"+hint, syn.Reason)
			assert.NotContains(t, syn.Reason, "--jsonl", "the core names no command")
			assert.NotContains(t, syn.Reason, "HTTP", "the core names no transport")
		})
	}
}

// A result object without final_response whose answer is under another common key: the
// message says to rename the key when it holds the text, and what it holds otherwise.
func TestAnswerKeys(t *testing.T) {
	const prefix = `the result object has no "final_response" key; expected {"final_response": "<the agent's answer>", ...}. `
	tests := []struct{ name, input, want string }{
		{"answer", `{"answer": "The answer is 4."}`, prefix + `It has "answer", which holds a string: rename the key to "final_response"`},
		{"final_answer", `{"final_answer": "4"}`, prefix + `It has "final_answer", which holds a string: rename the key to "final_response"`},
		{"finalAnswer", `{"finalAnswer": "4"}`, prefix + `It has "finalAnswer", which holds a string: rename the key to "final_response"`},
		{"response among others", `{"response": "4", "messages": []}`, prefix + `It has "response", which holds a string: rename the key to "final_response"`},
		{"result holding an object", `{"result": {"text": "4"}}`, prefix + `It has "result", which holds an object, not the answer's text: send the text as "final_response"`},
		{"answer holding null", `{"answer": null}`, prefix + `It has "answer", which holds null, not the answer's text: send the text as "final_response"`},
		{"answer holding a number", `{"answer": 4}`, prefix + `It has "answer", which holds a number, not the answer's text: send the text as "final_response"`},
		{"empty answer", `{"answer": ""}`, prefix + `It has "answer", which holds an empty string: send the agent's answer, not empty, as "final_response"`},
		{"the first answer key names it", `{"result": 1, "answer": "4"}`, prefix + `It has "result", which holds a number, not the answer's text: send the text as "final_response"`},
		{"a case variant of final_response comes first", `{"answer": "4", "Final_Response": "4"}`, prefix + `It has "Final_Response": keys are matched exactly, case included; send "final_response"`},
		{"the SDK's probe keys keep rule 3's message", `{"answer": "4", "final_output": "4"}`, prefix + `It has "final_output": it looks like a serialized agent result that did not go through build_response, which moves final_response, final_output, output or message (in that order) to final_response`},
		{"an escaped answer key", `{"\u0061nswer": "4"}`, prefix + `It has "answer", which holds a string: rename the key to "final_response"`},
		{"a repeated answer key: the last one counts", `{"answer": "", "answer": "The text"}`, prefix + `It has "answer", which holds a string: rename the key to "final_response"`},
		{"a repeated answer key ending in a number", `{"answer": "The text", "answer": 5}`, prefix + `It has "answer", which holds a number, not the answer's text: send the text as "final_response"`},
		{"a repeated answer key ending empty", `{"answer": 5, "result": 1, "\u0061nswer": ""}`, prefix + `It has "answer", which holds an empty string: send the agent's answer, not empty, as "final_response"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := porting.Normalize([]byte(tt.input))
			var shape *normalize.ResponseShapeError
			require.ErrorAs(t, err, &shape)
			assert.Equal(t, tt.want, shape.Error())
		})
	}
}

// A top-level array that holds messages is a transcript sent without its answer.
func TestArrayOfMessages(t *testing.T) {
	const prefix = `the result is an array; expected a non-empty string or an object with "final_response"`
	const send = `send {"final_response": "<the agent's answer>", "messages": `
	tests := []struct{ name, input, want string }{
		{"OpenAI messages", `[{"role":"user","content":"hi"},{"role":"assistant","content":"Hello!"}]`,
			prefix + `; it looks like a list of messages (its first element has "role"): ` + send + `<this list>}`},
		{"to_input_list", " \n[{\"content\": \"hi\", \"role\": \"user\"}, {\"type\": \"function_call\", \"call_id\": \"c\"}]",
			prefix + `; it looks like a list of messages (its first element has "role"): ` + send + `<this list>}`},
		{"LangChain messages", `[{"content":"hi","type":"human"},{"content":"Hello!","type":"ai"}]`,
			prefix + `; it looks like a list of LangChain messages (its first element has "type": "human"): ` + send +
				`<the list as OpenAI messages>} (langchain_core.messages.convert_to_openai_messages converts it)`},
		{"strings", `["The answer", "is 4"]`, prefix},
		{"empty", `[]`, prefix},
		{"objects of another kind", `[{"id":1},{"role":"user"}]`, prefix},
		{"typed objects without content", `[{"type":"human"}]`, prefix},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := porting.Normalize([]byte(tt.input))
			var shape *normalize.ResponseShapeError
			require.ErrorAs(t, err, &shape)
			assert.Equal(t, tt.want, shape.Error())
			assert.Equal(t, "array", shape.Got)
		})
	}
}

// Every warning the golden inputs make says in its parts what is wrong (what was found, or its
// problem) and what was done, and no other part says what was done: reports and the explain
// view read the parts, never the text.
func TestWarningParts(t *testing.T) {
	done := regexp.MustCompile(`\b(was|were) (dropped|kept|replaced|removed|appended)\b`)
	for _, name := range goldenCases(t) {
		raw, err := os.ReadFile(filepath.Join(goldenDir, name+".input.json"))
		require.NoError(t, err)
		res, err := porting.Normalize(raw)
		if err != nil {
			continue
		}
		for _, w := range res.Warnings() {
			require.True(t, w.Found != "" || w.Problem != "", "%s: %s: neither found nor problem: %s", name, w.Path(), w.Message())
			require.Regexp(t, done, w.Done, "%s: %s: what was done", name, w.Path())
			for _, part := range []string{w.Subject, w.Found, w.Expected, w.Problem, w.Fix} {
				require.NotRegexp(t, done, part, "%s: %s: a part other than Done says what was done", name, w.Path())
			}
		}
	}
}

// shapeError normalizes input and returns its ResponseShapeError.
func shapeError(t *testing.T, input string) *normalize.ResponseShapeError {
	t.Helper()
	_, err := porting.Normalize([]byte(input))
	var shape *normalize.ResponseShapeError
	require.ErrorAs(t, err, &shape)
	return shape
}

// Another SDK's response, message or result object sent instead of the handler's result: the
// message says what it looks like and where its text is, and Fix is the fix it ends with.
func TestOtherSDKShapes(t *testing.T) {
	const prefix = `the result object has no "final_response" key; expected {"final_response": "<the agent's answer>", ...}. `
	tests := []struct{ name, input, found, fix string }{
		{"Agents SDK RunResult by JSON.stringify", `{"state":{"$schemaVersion":"1.17","currentAgent":{"name":"Support"},"currentStep":{"type":"next_step_final_output","output":"Done."}}}`,
			`It has "state" with "$schemaVersion" and "currentAgent": it looks like an OpenAI Agents SDK RunResult as JSON.stringify writes it (its RunState), the whole run rather than the handler's result; `,
			`send {"final_response": <the RunResult's finalOutput>}, which this JSON holds in state.currentStep.output`},
		{"AI SDK generateText result by JSON.stringify", `{"steps":[{"stepNumber":0,"content":[{"type":"reasoning","text":"hm"},{"type":"text","text":"Done."}],"finishReason":"stop"}],"totalUsage":{}}`,
			`It has "steps" of StepResults ("stepNumber", "content", "finishReason"): it looks like an AI SDK generateText result as JSON.stringify writes it, the whole run rather than the handler's result; `,
			`send {"final_response": result.text}, the text of its last step`},
		{"AI SDK generateText result at a tool call", `{"steps":[{"stepNumber":0,"content":[{"type":"text","text":"Let me look."},{"type":"tool-call","toolCallId":"c1","toolName":"f","input":{}}],"finishReason":"tool-calls"}]}`,
			`It has "steps" of StepResults ("stepNumber", "content", "finishReason"): it looks like an AI SDK generateText result as JSON.stringify writes it, the whole run rather than the handler's result, and its last step ends in tool calls: the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"Gemini generateContent response (Python SDK dump)",
			`{"candidates":[{"content":{"parts":[{"text":"Done."}],"role":"model"},"finish_reason":"STOP"}],"usage_metadata":{"total_token_count":19}}`,
			`It has "candidates": it looks like a Gemini generateContent response, the model's response rather than the handler's result; `,
			`send {"final_response": <candidates[0].content.parts[*].text, joined>}`},
		{"Gemini REST response", `{"candidates":[{"content":{"parts":[{"text":"Done."}]}}],"usageMetadata":{},"modelVersion":"gemini-2.5-flash"}`,
			`It has "candidates": it looks like a Gemini generateContent response, the model's response rather than the handler's result; `,
			`send {"final_response": <candidates[0].content.parts[*].text, joined>}`},
		{"Anthropic response of a tool call only", `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"get_order","input":{"order_id":"4521"}}],"stop_reason":"tool_use"}`,
			`It has "type": "message" and "content": it looks like an Anthropic Messages API response, the model's response rather than the handler's result, and it has no text, only tool_use blocks: the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"Anthropic response with text and a tool call", `{"type":"message","content":[{"type":"text","text":"Let me check."},{"type":"tool_use","id":"toolu_1","name":"get_order","input":{}}]}`,
			`It has "type": "message" and "content": it looks like an Anthropic Messages API response, the model's response rather than the handler's result, and it ends in tool_use blocks: its text is the preamble the model wrote before the call, not an answer, and the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"Anthropic response with text only", `{"type":"message","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"}`,
			`It has "type": "message" and "content": it looks like an Anthropic Messages API response, the model's response rather than the handler's result; `,
			`send {"final_response": <the text of its text blocks>}`},
		{"OpenAI chat completion that stopped at a tool call", `{"object":"chat.completion","choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
			`It has "choices": it looks like an OpenAI chat completion, the model's response rather than the handler's result, and it has no text, only tool_calls in choices[0].message: the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"OpenAI chat completion with a preamble and a tool call", `{"choices":[{"message":{"role":"assistant","content":"Let me check.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}`,
			`It has "choices": it looks like an OpenAI chat completion, the model's response rather than the handler's result, and it ends in tool_calls in choices[0].message: its text is the preamble the model wrote before the call, not an answer, and the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"OpenAI chat completion with empty tool_calls", `{"choices":[{"message":{"role":"assistant","content":"Done.","tool_calls":[]}}]}`,
			`It has "choices": it looks like an OpenAI chat completion, the model's response rather than the handler's result; `,
			`send {"final_response": choices[0].message.content}`},
		{"Gemini response with a preamble and a function call", `{"candidates":[{"content":{"parts":[{"text":"Let me check."},{"functionCall":{"name":"f","args":{}}}],"role":"model"}}]}`,
			`It has "candidates": it looks like a Gemini generateContent response, the model's response rather than the handler's result, and it ends in function_call parts: its text is the preamble the model wrote before the call, not an answer, and the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"only metadata: final_response undefined in JavaScript", `{"metadata":{"model":"gemini-2.5-flash"}}`,
			`It has the key "metadata" and no other: final_response was left out, as JSON.stringify leaves out a key whose value is undefined (a response's text is undefined when the model wrote none, e.g. when the agent stopped at a tool call); `,
			`send a non-empty final_response: the agent's answer, after the tool round when it stopped at a tool call, or a sentence saying what it did`},
		{"Gemini response of a function call only", `{"candidates":[{"content":{"parts":[{"function_call":{"name":"get_order","args":{"order_id":"4521"}}}],"role":"model"},"finish_reason":"STOP"}]}`,
			`It has "candidates": it looks like a Gemini generateContent response, the model's response rather than the handler's result, and it has no text, only function_call parts: the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"Gemini REST response of a function call only", `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_order","args":{}}}],"role":"model"}}]}`,
			`It has "candidates": it looks like a Gemini generateContent response, the model's response rather than the handler's result, and it has no text, only function_call parts: the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"LangChain AIMessage", `{"content":"Done.","additional_kwargs":{},"response_metadata":{},"type":"ai","id":"run-1","tool_calls":[]}`,
			`It has "type": "ai" and "content": it looks like a LangChain AIMessage, the model's message rather than the handler's result; `,
			`send {"final_response": <the AIMessage's "content">}`},
		{"LangChain AIMessage from Claude", `{"content":[{"type":"text","text":"Done."}],"type":"ai"}`,
			`It has "type": "ai" and "content": it looks like a LangChain AIMessage, the model's message rather than the handler's result; `,
			`send {"final_response": <the text of the text parts in the AIMessage's "content">}`},
		{"a lone assistant message", `{"role":"assistant","content":"Done."}`,
			`It has "role": "assistant" and "content": it looks like a chat message, the model's message rather than the handler's result; `,
			`send {"final_response": <the message's "content">}`},
		{"CrewAI CrewOutput", `{"raw":"Done.","pydantic":null,"json_dict":null,"tasks_output":[{"raw":"Done."}],"token_usage":{}}`,
			`It has "raw" and "tasks_output": it looks like a CrewAI CrewOutput, the crew's whole output rather than the handler's result; `,
			`send {"final_response": <the CrewOutput's "raw">}`},
		{"CrewAI LiteAgentOutput", `{"raw":"Done.","pydantic":null,"agent_role":"Support agent","usage_metrics":{"total_tokens":120},"messages":[{"role":"user","content":"hi"}]}`,
			`It has "raw" and "agent_role": it looks like a CrewAI LiteAgentOutput, the agent's whole output rather than the handler's result; `,
			`send {"final_response": <the LiteAgentOutput's "raw">}`},
		{"CrewAI LiteAgentOutput with an empty raw", `{"raw":"","pydantic":null,"agent_role":"Support agent","usage_metrics":{},"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"Done."},{"role":"user","content":"thanks"}]}`,
			`It has "agent_role" and "messages" and its "raw" holds no text: it looks like a CrewAI LiteAgentOutput, the agent's whole output rather than the handler's result; `,
			`send {"final_response": <the content of the last assistant message in its "messages">, "messages": <its "messages">}`},
		{"CrewAI LiteAgentOutput without an answer", `{"raw":"","agent_role":"Support agent","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":""}]}`,
			`It has "agent_role" and "messages" and its "raw" holds no text: it looks like a CrewAI LiteAgentOutput, the agent's whole output rather than the handler's result; `,
			`send {"final_response": "<the agent's answer>", "messages": <its "messages">}`},
		{"AutoGen AgentChat TaskResult", `{"messages":[{"source":"user","content":"hi","type":"TextMessage"},{"source":"assistant","models_usage":null,"content":"Done.","type":"TextMessage"}],"stop_reason":null}`,
			`It has "messages" and "stop_reason" but no answer: it looks like an AutoGen AgentChat TaskResult (what run() returns) sent without the agent's answer; `,
			`send {"final_response": result.messages[-1].content, "messages": <each of its messages as a chat message>} (a TextMessage as {"role": "user" or "assistant", "content": <content>}, by its source)`},
		{"AutoGen AgentChat TaskResult ending in an event", `{"messages":[{"source":"user","content":"hi","type":"TextMessage"},{"source":"assistant","content":[],"type":"ToolCallExecutionEvent"}],"stop_reason":"Maximum number of turns 1 reached."}`,
			`It has "messages" and "stop_reason" but no answer: it looks like an AutoGen AgentChat TaskResult (what run() returns) sent without the agent's answer; `,
			`send {"final_response": "<the agent's answer>", "messages": <each of its messages as a chat message>} (a TextMessage as {"role": "user" or "assistant", "content": <content>}, by its source)`},
		{"LangGraph state ending in the answer", `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"Done."}]}`,
			`It has "messages" but no answer: it looks like a transcript (as a LangGraph state holds it) sent without the agent's answer; `,
			`send {"final_response": <the content of the last message>, "messages": <this list>}`},
		{"LangGraph state of LangChain messages", `{"messages":[{"content":"hi","type":"human"},{"content":"Done.","type":"ai"}],"remaining_steps":24}`,
			`It has "messages" but no answer: it looks like a transcript (as a LangGraph state holds it) sent without the agent's answer; `,
			`send {"final_response": <the content of the last message>, "messages": <the list as OpenAI messages>} (langchain_core.messages.convert_to_openai_messages converts it)`},
		{"a transcript ending in a tool call", `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[]}]}`,
			`It has "messages" but no answer: it looks like a transcript (as a LangGraph state holds it) sent without the agent's answer; `,
			`send {"final_response": "<the agent's answer>", "messages": <this list>}`},
		{"a case variant of final_response comes first", `{"Final_Response":"Done.","candidates":[{"content":{}}]}`,
			`It has "Final_Response": keys are matched exactly, case included; `, `send "final_response"`},
		{"an answer key before the transcript", `{"answer":"Done.","messages":[{"role":"user","content":"hi"}]}`,
			`It has "answer", which holds a string: `, `rename the key to "final_response"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shape := shapeError(t, tt.input)
			assert.Equal(t, prefix+tt.found+tt.fix, shape.Error())
			assert.Equal(t, tt.fix, shape.Fix)
		})
	}
}

// Look-alikes that hold no text get no hint that names a value: sending an empty value would be
// rejected in turn. Their message lists the keys, and Fix is empty (the general fix holds).
func TestOtherSDKShapesWithoutText(t *testing.T) {
	tests := []struct{ name, input, keys string }{
		{"AIMessage of a tool-call turn", `{"content":"","type":"ai","tool_calls":[{"name":"f"}]}`, `the keys "content", "type", "tool_calls"`},
		{"assistant message without text", `{"role":"assistant","content":[]}`, `the keys "role", "content"`},
		{"a user message", `{"role":"user","content":"hi"}`, `the keys "role", "content"`},
		{"LiteAgentOutput with an empty raw", `{"raw":"","agent_role":"x"}`, `the keys "raw", "agent_role"`},
		{"CrewOutput with an empty raw", `{"raw":"","tasks_output":[]}`, `the keys "raw", "tasks_output"`},
		{"a raw key alone", `{"raw":"Done."}`, `the key "raw"`},
		{"Gemini response without candidates (a blocked prompt)", `{"candidates":[],"promptFeedback":{"blockReason":"SAFETY"}}`, `the keys "candidates", "promptFeedback"`},
		{"an empty transcript", `{"messages":[]}`, `the key "messages"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shape := shapeError(t, tt.input)
			assert.True(t, strings.HasSuffix(shape.Error(), ". It has "+tt.keys), shape.Error())
			assert.Empty(t, shape.Fix)
		})
	}
}

// An object with final_output, output or message keeps rule 3's message whole and first; for a
// model API's response whose probe key holds no text, one sentence after it says where the text is.
func TestRule3WithModelResponses(t *testing.T) {
	rule3 := func(key string) string {
		return `the result object has no "final_response" key; expected {"final_response": "<the agent's answer>", ...}. It has "` + key +
			`": it looks like a serialized agent result that did not go through build_response, which moves final_response, final_output, output or message (in that order) to final_response`
	}
	tests := []struct{ name, input, key, then, fix string }{
		{"OpenAI Responses API response (Python model_dump)",
			`{"id":"resp_1","object":"response","status":"completed","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done.","annotations":[]}]}],"usage":{}}`, "output",
			`. This one looks like an OpenAI Responses API response (the model's response rather than the handler's result): its "output" is a list of items, not text; `,
			`send {"final_response": response.output_text} (the text of the output_text parts of its message items)`},
		{"OpenAI Responses API response (JavaScript SDK, with output_text)",
			`{"id":"resp_1","object":"response","output":[{"type":"message","content":[{"type":"output_text","text":"Done."}]}],"output_text":"Done."}`, "output",
			`. This one looks like an OpenAI Responses API response (the model's response rather than the handler's result): its "output" is a list of items, not text; `,
			`send {"final_response": <its "output_text">}`},
		{"Ollama /api/chat response",
			`{"model":"llama3.2","created_at":"2025-10-17T23:14:07Z","message":{"role":"assistant","content":"Done."},"done":true,"done_reason":"stop"}`, "message",
			`. This one looks like an Ollama /api/chat response (the model's response rather than the handler's result): its "message" is a chat message, not text; `,
			`send {"final_response": message.content}`},
		{"a message object with content blocks", `{"stop_reason":"end_turn","message":{"role":"assistant","content":[{"text":"Done."}]}}`, "message",
			`. Its "message" is a chat message, not text; `, `send {"final_response": <the text of the text parts in message.content>}`},
		{"Responses API response with only tool calls", `{"object":"response","output":[{"type":"function_call","name":"f","arguments":"{}"}]}`, "output",
			`. This one looks like an OpenAI Responses API response (the model's response rather than the handler's result): its "output" is a list of items that ends in a function_call item, not text: the agent stopped at a tool call, and any text before the call is a preamble, not an answer; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"Responses API response with a preamble and a custom tool call", `{"object":"response","output":[{"type":"message","content":[{"type":"output_text","text":"Let me check."}]},{"type":"custom_tool_call","name":"f","input":"x"}],"output_text":"Let me check."}`, "output",
			`. This one looks like an OpenAI Responses API response (the model's response rather than the handler's result): its "output" is a list of items that ends in a custom_tool_call item, not text: the agent stopped at a tool call, and any text before the call is a preamble, not an answer; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"Ollama response of a tool-call turn", `{"message":{"role":"assistant","content":"","tool_calls":[]},"done":true}`, "message", "", ""},
		{"a status message", `{"message":"ok","status":200}`, "message", "", ""},
		// Structured output: build_response would make final_response an object, rejected too.
		{"OpenAI Agents SDK structured final_output", `{"final_output":{"city":"Paris","temperature_c":21},"last_agent":"Weather"}`, "final_output",
			`. Its "final_output" is an object (structured output), not text, and final_response must be a string; `,
			`send {"final_response": <the answer as text>}, e.g. json.dumps(final_output) or a sentence built from it`},
		{"Pydantic AI structured output", `{"output":{"answer":42}}`, "output",
			`. Its "output" is an object (structured output), not text, and final_response must be a string; `,
			`send {"final_response": <the answer as text>}, e.g. json.dumps(output) or a sentence built from it`},
		{"output that is text", `{"output":"42"}`, "output", "", ""},
		{"final_output wins, as build_response probes it first", `{"final_output":"Done.","object":"response","output":[{"content":[{"type":"output_text"}]}]}`, "final_output", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shape := shapeError(t, tt.input)
			assert.Equal(t, rule3(tt.key)+tt.then+tt.fix, shape.Error())
			assert.Equal(t, tt.fix, shape.Fix)
		})
	}
}

// final_response of another type than string names the type (rule 5) and, when the value is
// recognisably something that holds the text, says where it is; null and "" keep the contract's
// message byte for byte.
func TestFinalResponseValueHints(t *testing.T) {
	const eg = `, e.g. {"final_response": "The refund has been issued."}`
	tests := []struct{ name, input, want, fix string }{
		{"a chat message", `{"final_response":{"role":"assistant","content":"Done."}}`,
			`final_response is an object; expected a non-empty string. It has "role" and "content": it looks like a chat message rather than its text; `,
			`send {"final_response": <the message's "content">}`},
		{"a chat message with content parts", `{"final_response":{"role":"assistant","content":[{"type":"text","text":"Done."}]}}`,
			`final_response is an object; expected a non-empty string. It has "role" and "content": it looks like a chat message rather than its text; `,
			`send {"final_response": <the text of the text parts in the message's "content">}`},
		{"an AIMessage dict", `{"final_response":{"content":"Done.","type":"ai","tool_calls":[]}}`,
			`final_response is an object; expected a non-empty string. It has "type": "ai" and "content": it looks like a LangChain AIMessage rather than its text; `,
			`send {"final_response": <the AIMessage's "content">}`},
		{"content parts", `{"final_response":[{"type":"text","text":"The refund "},{"type":"text","text":"was issued."}]}`,
			`final_response is an array; expected a non-empty string. Its first element has "type": "text" and "text": it looks like a list of content parts rather than their text; `,
			`send {"final_response": <the "text" of final_response's text parts, joined>}`},
		{"Responses output_text parts", `{"final_response":[{"type":"output_text","text":"Done.","annotations":[]}]}`,
			`final_response is an array; expected a non-empty string. Its first element has "type": "output_text" and "text": it looks like a list of content parts rather than their text; `,
			`send {"final_response": <the "text" of final_response's output_text parts, joined>}`},
		{"one content part", `{"final_response":{"type":"text","text":"The refund was issued.","citations":null}}`,
			`final_response is an object; expected a non-empty string. It has "type": "text" and "text": it looks like one content part rather than its text; `,
			`send {"final_response": <its "text">}`},
		{"one Responses output_text part", `{"final_response":{"type":"output_text","text":"Done.","annotations":[]}}`,
			`final_response is an object; expected a non-empty string. It has "type": "output_text" and "text": it looks like one content part rather than its text; `,
			`send {"final_response": <its "text">}`},
		{"one content part without text", `{"final_response":{"type":"text","text":""}}`, `final_response is an object; expected a non-empty string` + eg, ""},
		{"a number", `{"final_response":42}`, `final_response is a number; expected a non-empty string; `,
			`send the number as text, {"final_response": "42"}, if it really is the answer`},
		{"a long number", `{"final_response":123456789012345678901234567890123456789}`, `final_response is a number; expected a non-empty string; `,
			`send the number as text, {"final_response": "<the number>"}, if it really is the answer`},
		{"a boolean", `{"final_response":false}`, `final_response is a boolean; expected a non-empty string; `,
			`send the value as text, {"final_response": "false"}, if it really is the answer`},
		{"the last final_response counts", `{"final_response":{"role":"assistant","content":"x"},"final_response":7}`,
			`final_response is a number; expected a non-empty string; `, `send the number as text, {"final_response": "7"}, if it really is the answer`},
		{"a lone text, as a Gemini Part is written", `{"final_response":{"text":"Done."}}`,
			`final_response is an object; expected a non-empty string. It has only "text": it looks like a message part (as a Gemini Part of candidates[0].content.parts is written) rather than its text; `,
			`send {"final_response": <its "text">}`},
		{"a Gemini Part as model_dump() writes it", `{"final_response":{"video_metadata":null,"thought":null,"inline_data":null,"file_data":null,"thought_signature":null,"code_execution_result":null,"executable_code":null,"function_call":null,"function_response":null,"text":"Done."}}`,
			`final_response is an object; expected a non-empty string. It has "text" and no "type": it looks like a Gemini Part (one of candidates[0].content.parts) rather than its text; `,
			`send {"final_response": <its "text">}`},
		{"a Gemini thought Part", `{"final_response":{"text":"The user wants the order status.","thought":true}}`,
			`final_response is an object; expected a non-empty string. It has "text" and "thought": true: it looks like a Gemini Part that holds the model's thoughts, not its answer; `,
			`send {"final_response": <the "text" of the response's parts without "thought": true, joined>}`},
		{"a Gemini Part without text", `{"final_response":{"text":"","thoughtSignature":"c2ln"}}`, `final_response is an object; expected a non-empty string` + eg, ""},
		{"an object of another kind", `{"final_response":{"text":"Done.","score":0.9}}`, `final_response is an object; expected a non-empty string` + eg, ""},
		{"a message without text", `{"final_response":{"role":"assistant","content":null}}`, `final_response is an object; expected a non-empty string` + eg, ""},
		{"a chat message that asks for a tool call", `{"final_response":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]}}`,
			`final_response is an object; expected a non-empty string. It has "role" and "tool_calls": it looks like a chat message that asks for a tool call rather than an answer: the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"a chat message with a preamble and a tool call", `{"final_response":{"role":"assistant","content":"Let me check.","tool_calls":[{"id":"call_1"}]}}`,
			`final_response is an object; expected a non-empty string. It has "role" and "tool_calls": it looks like a chat message that asks for a tool call rather than an answer: the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"a chat message with empty tool_calls", `{"final_response":{"role":"assistant","content":"Done.","tool_calls":[]}}`,
			`final_response is an object; expected a non-empty string. It has "role" and "content": it looks like a chat message rather than its text; `,
			`send {"final_response": <the message's "content">}`},
		{"a list of strings", `{"final_response":["Done."]}`, `final_response is an array; expected a non-empty string` + eg, ""},
		{"Anthropic content with thinking first", `{"final_response":[{"type":"thinking","thinking":"hm","signature":"x"},{"type":"text","text":"Done"},{"type":"text","text":"."}]}`,
			`final_response is an array; expected a non-empty string. Its elements are content blocks, "type": "thinking" first, then "text": it looks like an Anthropic message's content rather than its text; `,
			`send {"final_response": <the "text" of final_response's text blocks, joined>} (here content[1].text, joined with the text of its other text blocks), not its thinking blocks`},
		{"Anthropic content with thinking and a tool call", `{"final_response":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"Let me look."},{"type":"tool_use","id":"t1","name":"f","input":{}}]}`,
			`final_response is an array; expected a non-empty string. Its elements are content blocks, "type": "thinking" first, then "text": it looks like an Anthropic message's content rather than its text, with a tool_use block: its text is the preamble the model wrote before the call, and the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"content blocks without text", `{"final_response":[{"type":"thinking","thinking":"hm"},{"type":"text","text":""}]}`, `final_response is an array; expected a non-empty string` + eg, ""},
		{"a Gemini Content", `{"final_response":{"parts":[{"text":"hm","thought":true},{"text":"Done."}],"role":"model"}}`,
			`final_response is an object; expected a non-empty string. It has "role": "model" and "parts": it looks like a Gemini Content (a response's candidates[0].content) rather than its text; `,
			`send {"final_response": response.text}, the text of its parts (here parts[1].text)`},
		{"a Gemini Content that calls a function", `{"final_response":{"parts":[{"functionCall":{"name":"f","args":{}}}],"role":"model"}}`,
			`final_response is an object; expected a non-empty string. It has "role": "model" and "parts": it looks like a Gemini Content (a response's candidates[0].content) whose parts call functions: the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"a Gemini Content without text", `{"final_response":{"parts":[],"role":"model"}}`, `final_response is an object; expected a non-empty string` + eg, ""},
		{"a LangChain AIMessage's toJSON()", `{"final_response":{"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessage"],"kwargs":{"content":"Done.","tool_calls":[]}}}`,
			`final_response is an object; expected a non-empty string. It has "type": "constructor" and "id" [..., "AIMessage"]: it looks like a LangChain AIMessage as its toJSON() writes it (its fields in "kwargs") rather than its text; `,
			`send {"final_response": message.content}, the message's content, not the message`},
		{"a LangChain AIMessage's toJSON() with content blocks", `{"final_response":{"lc":1,"type":"constructor","id":["AIMessage"],"kwargs":{"content":[{"type":"text","text":"Done."}]}}}`,
			`final_response is an object; expected a non-empty string. It has "type": "constructor" and "id" [..., "AIMessage"]: it looks like a LangChain AIMessage as its toJSON() writes it (its fields in "kwargs") rather than its text; `,
			`send {"final_response": <the text of the text parts in message.content>}, the message's content, not the message`},
		{"a LangChain AIMessage's toJSON() at a tool call", `{"final_response":{"lc":1,"type":"constructor","id":["AIMessage"],"kwargs":{"content":"","tool_calls":[{"name":"f","args":{},"id":"c1"}]}}}`,
			`final_response is an object; expected a non-empty string. It has "type": "constructor" and "id" [..., "AIMessage"]: it looks like a LangChain AIMessage as its toJSON() writes it (its fields in "kwargs"), and it asks for tool calls: the agent stopped at a tool call; `,
			`send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`},
		{"a LangChain HumanMessage's toJSON()", `{"final_response":{"lc":1,"type":"constructor","id":["HumanMessage"],"kwargs":{"content":"hi"}}}`, `final_response is an object; expected a non-empty string` + eg, ""},
		{"null", `{"final_response":null}`, normalize.EmptyResponseMessage, ""},
		{"empty", `{"final_response":""}`, normalize.EmptyResponseMessage, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shape := shapeError(t, tt.input)
			assert.Equal(t, tt.want+tt.fix, shape.Error())
			assert.Equal(t, tt.fix, shape.Fix)
		})
	}
}

// The message of every rejection the golden inputs make is its parts: the problem, the detail,
// then the fix, which neither of the others holds, so that a report that shows the fix shows
// the message's own words once.
func TestShapeErrorParts(t *testing.T) {
	for _, name := range goldenCases(t) {
		raw, err := os.ReadFile(filepath.Join(goldenDir, name+".input.json"))
		require.NoError(t, err)
		_, err = porting.Normalize(raw)
		var shape *normalize.ResponseShapeError
		if !errors.As(err, &shape) {
			continue
		}
		require.NotEmpty(t, shape.Problem, name)
		msg := shape.Error()
		require.True(t, strings.HasPrefix(msg, shape.Problem+shape.Detail), "%s: %q does not start with its problem and detail", name, msg)
		if shape.Fix == "" {
			assert.Equal(t, shape.Problem+shape.Detail, msg, name)
			continue
		}
		assert.NotContains(t, shape.Problem+shape.Detail, shape.Fix, name)
		join := strings.TrimSuffix(strings.TrimPrefix(msg, shape.Problem+shape.Detail), shape.Fix)
		assert.Contains(t, []string{"; ", ": "}, join, "%s: %q", name, msg)
	}
}

// The hints read an object without final_response on the error path, keeping a few keys: a
// huge object costs no allocation per key (each key was copied to a string to look it up:
// 10,000 allocations for 10,000 keys).
func TestShapeHintAllocsFlat(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 10000 {
		fmt.Fprintf(&b, `"key_%d":1,`, i)
	}
	b.WriteString(`"tasks_output":[],"z":1}`)
	doc := []byte(b.String())
	allocs := leastAllocs(5, func() {
		_, err := porting.Normalize(doc)
		require.Error(t, err)
	})
	assert.Less(t, allocs, 100.0)
}

func rejected(t *testing.T, input string) *normalize.InvalidJSONError {
	t.Helper()
	_, err := porting.Normalize([]byte(input))
	var syn *normalize.InvalidJSONError
	require.ErrorAs(t, err, &syn)
	return syn
}

// An InvalidJSON rejection at text of another kind than JSON says which program writes it and
// how to send JSON instead; without porting's advice the reason says only what the bytes are,
// at the same place, and the Found is the same.
func TestSyntaxAdvice(t *testing.T) {
	const pythonDict = "unexpected single quote; JSON strings and keys take double quotes (a Python dict printed with str() or repr() is not JSON: serialize it with json.dumps)"
	tests := []struct{ name, input, plain, want string }{
		{"NaN", `{"final_response":"a","metadata":{"x":NaN}}`, "found NaN, which JSON does not have: send null or a string instead",
			"found NaN, which JSON does not have (Python's json.dumps writes NaN and Infinity unless allow_nan=False): send null or a string instead"},
		{"minus Infinity", `{"final_response":"a","metadata":{"x":-Infinity}}`, "found Infinity, which JSON does not have: send null or a string instead",
			"found Infinity, which JSON does not have (Python's json.dumps writes NaN and Infinity unless allow_nan=False): send null or a string instead"},
		{"None", `{"final_response":"a","metadata":None}`, "found None, which JSON writes null",
			"found Python's None, which JSON writes null (serialize with json.dumps, not str())"},
		{"False as a key", `{False: 1}`, "found False, which JSON writes false; expected a string key in double quotes",
			"found Python's False, which JSON writes false (serialize with json.dumps, not str()); expected a string key in double quotes"},
		{"single quotes", `'a'`, "unexpected single quote; JSON strings and keys take double quotes", pythonDict},
		{"Python dict", `{'final_response': 'a'}`, "unexpected single quote; JSON strings and keys take double quotes; expected a string key in double quotes",
			pythonDict + "; expected a string key in double quotes"},
		{"gzip", "\x1f\x8b\x08\x00", "the input starts with the bytes 1F 8B, the gzip magic: it is compressed; expected JSON text",
			"the input starts with the bytes 1F 8B, the gzip magic: it is compressed; expected JSON text (decompress it, or over HTTP send it with Content-Encoding: gzip)"},
		{"malformed", `[1,,2]`, "unexpected character ','; expected a value", "unexpected character ','; expected a value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := normalize.Normalize([]byte(tt.input))
			var plain *normalize.InvalidJSONError
			require.ErrorAs(t, err, &plain)
			_, err = porting.Normalize([]byte(tt.input))
			var advised *normalize.InvalidJSONError
			require.ErrorAs(t, err, &advised)
			assert.Equal(t, tt.plain, plain.Reason)
			assert.Equal(t, tt.want, advised.Reason)
			assert.Equal(t, plain.Found, advised.Found)
			assert.Equal(t, [3]int{plain.Line, plain.Column, plain.Offset}, [3]int{advised.Line, advised.Column, advised.Offset})
		})
	}
}

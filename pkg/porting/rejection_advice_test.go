package porting_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// The advice on an empty or null final_response says, beside the contract's message, that the
// agent stopped at a tool call, in the words of the SDK whose shape the transcript's last turn
// is, or where the answer the transcript holds is; and nothing when the transcript shows
// neither.
func TestRejectionAdvice(t *testing.T) {
	const q = `{"role": "user", "content": "Where is order 4521?"}`
	stopped, answer := softwarn.FinalResponseStoppedAtToolCall, softwarn.FinalResponseAnswerInMessages
	for _, c := range []struct {
		name, input string
		code        softwarn.Code // "" for no advice
		path        string
		problem     []string // what the problem says
		fix         []string // what the fix says
	}{
		{"openai responses function_call", `{"final_response": "", "messages": [` + q + `, {"type": "function_call", "call_id": "c1", "name": "get_order", "arguments": "{}"}]}`,
			stopped, "messages[1]", []string{"OpenAI Responses function_call item", "stopped at a tool call", "final_response is empty"}, []string{"responses.create", "function_call_output", "output_text"}},
		{"openai responses with its output", `{"final_response": null, "messages": [` + q + `, {"type": "function_call", "call_id": "c1", "name": "get_order", "arguments": "{}"}, {"type": "function_call_output", "call_id": "c1", "output": "shipped"}]}`,
			stopped, "messages[1]", []string{"(only tool results)", "final_response is null"}, []string{"responses.create"}},
		{"chat completions nested tool_calls", `{"final_response": "", "messages": [` + q + `, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_order", "arguments": "{}"}}]}]}`,
			stopped, "messages[1]", []string{"OpenAI Chat Completions assistant message with tool_calls"}, []string{"chat.completions.create", `"role": "tool"`}},
		{"flat tool_calls with a preamble", `{"final_response": "", "messages": [` + q + `, {"role": "assistant", "content": "Let me look.", "tool_calls": [{"id": "c1", "name": "get_order", "arguments": "{}"}]}, {"role": "tool", "tool_call_id": "c1", "content": "shipped"}]}`,
			stopped, "messages[1]", []string{"an assistant message with tool_calls", "preamble"}, []string{"call the model again"}},
		{"anthropic tool_use", `{"final_response": "", "messages": [` + q + `, {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "get_order", "input": {}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "shipped"}]}]}`,
			stopped, "messages[1]", []string{"Anthropic message with a tool_use block"}, []string{"messages.create", "tool_result", `stop_reason is not "tool_use"`}},
		{"gemini functionCall", `{"final_response": "", "messages": [{"role": "user", "parts": [{"text": "Where?"}]}, {"role": "model", "parts": [{"functionCall": {"name": "get_order", "args": {}}}]}]}`,
			stopped, "messages[1]", []string{"Gemini Content with a functionCall part"}, []string{"models.generateContent", "functionResponse"}},
		{"gemini function_call, python", `{"final_response": "", "messages": [{"role": "user", "parts": [{"text": "Where?"}]}, {"role": "model", "parts": [{"function_call": {"name": "get_order", "args": {}}}]}, {"role": "user", "parts": [{"function_response": {"name": "get_order", "response": {}}}]}]}`,
			stopped, "messages[1]", []string{"function_call part"}, []string{"models.generate_content", "types.Part.from_function_response"}},
		{"ai sdk tool-call part", `{"final_response": "", "messages": [` + q + `, {"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "c1", "toolName": "get_order", "input": {}}]}, {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c1", "toolName": "get_order", "output": {"type": "json", "value": {}}}]}]}`,
			stopped, "messages[1]", []string{"AI SDK assistant message with a tool-call part"}, []string{"generateText", "stepCountIs"}},
		{"ai sdk step", `{"final_response": "", "messages": [{"stepNumber": 0, "content": [{"type": "tool-call", "toolCallId": "c1", "toolName": "get_order", "input": {}}], "finishReason": "tool-calls"}]}`,
			stopped, "messages[0]", []string{`AI SDK step whose finishReason is "tool-calls"`}, []string{"stopWhen"}},
		{"langchain AIMessage with tool_calls, model_dump", `{"final_response": "", "messages": [{"content": "Where?", "type": "human"}, {"content": "", "type": "ai", "tool_calls": [{"name": "get_order", "args": {}, "id": "c1", "type": "tool_call"}], "invalid_tool_calls": []}, {"content": "shipped", "type": "tool", "tool_call_id": "c1", "status": "success"}]}`,
			stopped, "messages[1]", []string{"LangChain AIMessage with tool_calls", "(only tool results)"}, []string{"ToolMessage(content=..., tool_call_id=", "create_agent", "create_react_agent", "no tool_calls"}},
		{"langchain AIMessage with text, model_dump", `{"final_response": null, "messages": [{"content": "Where?", "type": "human"}, {"content": "It shipped.", "type": "ai", "tool_calls": []}]}`,
			answer, "messages[1]", []string{"LangChain AIMessage with text"}, []string{`<messages[1].content>`}},
		{"langchain human message has the last word", `{"final_response": "", "messages": [{"content": "It shipped.", "type": "ai", "tool_calls": []}, {"content": "Thanks", "type": "human"}]}`, "", "", nil, nil},
		{"answer in a message", `{"final_response": "", "messages": [` + q + `, {"role": "assistant", "content": "It shipped."}]}`,
			answer, "messages[1]", []string{"final_response is empty", "assistant message with text"}, []string{`<messages[1].content>`}},
		{"answer in text parts, after the tool round", `{"final_response": null, "messages": [` + q + `, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "name": "get_order"}]}, {"role": "tool", "tool_call_id": "c1", "content": "shipped"}, {"role": "assistant", "content": [{"type": "text", "text": "It shipped."}]}]}`,
			answer, "messages[3]", []string{"final_response is null"}, []string{`messages[3].content's text parts`}},
		{"answer in a gemini part", `{"final_response": "", "messages": [{"role": "model", "parts": [{"text": "It shipped."}]}]}`,
			answer, "messages[0]", nil, []string{`messages[0].parts`}},
		{"the last duplicated messages counts", `{"final_response": "", "messages": [{"type": "function_call", "name": "x"}], "messages": [` + q + `]}`, "", "", nil, nil},
		{"the user has the last word", `{"final_response": "", "messages": [{"role": "assistant", "content": "Hi."}, ` + q + `]}`, "", "", nil, nil},
		{"no messages", `{"final_response": ""}`, "", "", nil, nil},
		{"messages not an array", `{"final_response": "", "messages": {"role": "assistant", "content": "x"}}`, "", "", nil, nil},
		{"an empty assistant message", `{"final_response": "", "messages": [{"role": "assistant", "content": "  "}]}`, "", "", nil, nil},
		{"top-level empty string", `""`, "", "", nil, nil},
		{"top-level null", `null`, "", "", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := porting.New(normalize.WithExplain()).Normalize([]byte(c.input))
			var e *normalize.ResponseShapeError
			require.ErrorAs(t, err, &e)
			require.Equal(t, normalize.EmptyResponseMessage, err.Error(), "the message is the contract's, byte for byte")
			if c.code == "" {
				assert.Nil(t, e.Advice)
				return
			}
			require.NotNil(t, e.Advice)
			assert.Equal(t, c.code, e.Advice.Code)
			assert.Equal(t, c.path, e.Advice.Path())
			for _, s := range c.problem {
				assert.Contains(t, e.Advice.Problem, s)
			}
			for _, s := range c.fix {
				assert.Contains(t, e.Advice.Fix, s)
			}
			if c.code == stopped {
				assert.Contains(t, e.Advice.Fix, "run the loop until the model answers (")
				assert.Contains(t, e.Advice.Problem, "the agent stopped at a tool call")
			}

			// The error object: the message the contract's, the advice beside it; without
			// explain, no advice at all.
			var obj struct {
				Error map[string]json.RawMessage `json:"error"`
			}
			require.NoError(t, json.Unmarshal(normalize.AppendError(nil, err), &obj))
			assert.JSONEq(t, `"`+normalize.EmptyResponseMessage+`"`, string(obj.Error["message"]))
			var adv struct{ Path, Pointer, Code, Message string }
			require.NoError(t, json.Unmarshal(obj.Error["advice"], &adv))
			assert.Equal(t, c.path, adv.Path)
			assert.Equal(t, string(c.code), adv.Code)
			assert.Equal(t, e.Advice.Message(), adv.Message)

			_, err = porting.New().Normalize([]byte(c.input))
			require.ErrorAs(t, err, &e)
			assert.Nil(t, e.Advice, "advice without explain")
			assert.NotContains(t, string(normalize.AppendError(nil, err)), `"advice"`)
		})
	}
}

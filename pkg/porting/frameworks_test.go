package porting_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/fixer"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// The shapes of LlamaIndex, CrewAI and Strands Agents: what each source's table recognises,
// what its note says, and that the note's fix, applied, leaves no such note.
func TestLlamaIndexCrewAIStrands(t *testing.T) {
	tests := []struct {
		name, doc string
		path      string        // the note's path; "" for none of the code
		code      softwarn.Code // the note's code
		says      []string      // what its message says
	}{
		{name: "Strands toolUse block", path: "messages[0].content", code: softwarn.ToolCallsOtherFramework,
			doc:  `{"final_response":"ok","messages":[{"role":"assistant","content":[{"text":"Let me look."},{"toolUse":{"toolUseId":"t1","name":"get_order","input":{"order_id":"4521"}}}]}]}`,
			says: []string{`found 1 toolUse block in "content" (Strands' messages`, `move each toolUse block to "tool_calls" as {"id": <toolUse.toolUseId>`, `leave its text blocks in "content"`}},
		{name: "Strands toolResult block", path: "messages[0].content", code: softwarn.ToolCallsOtherFramework,
			doc:  `{"final_response":"ok","messages":[{"role":"user","content":[{"toolResult":{"toolUseId":"t1","status":"success","content":[{"json":{"a":1}}]}}]}]}`,
			says: []string{`found 1 toolResult block`, `in place of this "user" message: {"role": "tool", "tool_call_id": <toolResult.toolUseId>`}},
		{name: "Strands text blocks only", doc: `{"final_response":"ok","messages":[{"role":"user","content":[{"text":"hi"}]}]}`},
		{name: "Strands toolUse beside tool_calls", doc: `{"final_response":"ok","messages":[{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"a","input":{}}}],"tool_calls":[{"id":"t1","name":"a","arguments":"{}"}]},{"role":"tool","tool_call_id":"t1","content":"x"}]}`},
		{name: "a toolUse key that holds no object", doc: `{"final_response":"ok","messages":[{"role":"assistant","content":[{"toolUse":"x"}]}]}`},
		{name: "LlamaIndex additional_kwargs tool_calls", path: "messages[0].additional_kwargs", code: softwarn.ToolCallsOtherFramework,
			doc:  `{"final_response":"ok","messages":[{"role":"assistant","content":"","additional_kwargs":{"tool_calls":[{"id":"call_1","type":"function","function":{"name":"a","arguments":"{}"}}]}},{"role":"tool","content":"x","additional_kwargs":{"tool_call_id":"call_1"}}]}`,
			says: []string{`found "tool_calls" in "additional_kwargs" (LlamaIndex's ChatMessage`, `move additional_kwargs.tool_calls to the message's own "tool_calls"`}},
		{name: "LlamaIndex additional_kwargs tool_call_id", path: "messages[0].additional_kwargs", code: softwarn.ToolCallsOtherFramework,
			doc:  `{"final_response":"ok","messages":[{"role":"tool","content":"x","additional_kwargs":{"tool_call_id":"call_1","name":"a"}}]}`,
			says: []string{`found "tool_call_id" in "additional_kwargs"`, `move additional_kwargs.tool_call_id to the message's own "tool_call_id"`}},
		{name: "LlamaIndex empty kwargs", doc: `{"final_response":"ok","messages":[{"role":"user","content":"hi","additional_kwargs":{}}]}`},
		{name: "LlamaIndex.TS options.toolCall", path: "messages[0].options", code: softwarn.ToolCallsOtherFramework,
			doc:  `{"final_response":"ok","messages":[{"role":"assistant","content":"","options":{"toolCall":[{"name":"a","input":{"x":1},"id":"call_1"}]}}]}`,
			says: []string{`found the calls in options.toolCall (a LlamaIndex ChatMessage)`, `"id": <toolCall[*].id>, "name": <toolCall[*].name>`}},
		{name: "LlamaIndex.TS options.toolResult", path: "messages[0].options", code: softwarn.ToolCallsOtherFramework,
			doc:  `{"final_response":"ok","messages":[{"role":"user","content":"done","options":{"toolResult":{"id":"call_1","result":"done","isError":false}}}]}`,
			says: []string{`a tool's result in options.toolResult of a "user" message`, `{"role": "tool", "tool_call_id": <toolResult.id>, "content": <toolResult.result>}`, `kept as a user message`}},
		{name: "other options", doc: `{"final_response":"ok","messages":[{"role":"user","content":"hi","options":{"temperature":0}}]}`},
		{name: "CrewAI TaskOutput", path: "messages[0]", code: softwarn.MessageOtherFramework,
			doc:  `{"final_response":"ok","messages":[{"description":"Find it","expected_output":"Where","raw":"It shipped.","agent":"Support","messages":[{"role":"user","content":"Find it"}]}]}`,
			says: []string{`a CrewAI TaskOutput (an entry of CrewOutput.tasks_output`, `the entries of its "messages"`, `{"final_response": crew_output.raw}`}},
		{name: "CrewAI TaskOutput without messages", path: "messages[0]", code: softwarn.MessageOtherFramework,
			doc:  `{"final_response":"ok","messages":[{"description":"Find it","raw":"It shipped.","agent":"Support","messages":[]}]}`,
			says: []string{`TaskOutput.messages, empty in this one`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *softwarn.Warning
			notes := explainNotes(t, tt.doc)
			for i := range notes {
				if notes[i].Code == softwarn.ToolCallsOtherFramework || notes[i].Code == tt.code && tt.code != "" {
					got = &notes[i]
					break
				}
			}
			if tt.path == "" {
				assert.Nil(t, got, "a note on a shape that is not the source's: %v", got)
				return
			}
			require.NotNil(t, got, "no note: %v", notes)
			assert.Equal(t, tt.path, got.Path())
			assert.Equal(t, tt.code, got.Code)
			for _, s := range tt.says {
				assert.Contains(t, got.Message(), s)
			}
			if tt.code != softwarn.ToolCallsOtherFramework {
				return
			}
			r := fixer.Run(porting.New(normalize.WithExplain()), []byte(tt.doc), true)
			require.NoError(t, r.Err)
			assert.Contains(t, r.Codes, softwarn.ToolCallsOtherFramework)
			fixed := r.Output
			for _, n := range explainNotes(t, string(fixed)) {
				assert.NotEqual(t, softwarn.ToolCallsOtherFramework, n.Code, "after the fix: %s", n.String())
			}
			assert.False(t, strings.Contains(string(fixed), `"toolCall"`) && !strings.Contains(string(fixed), `"tool_calls"`), string(fixed))
		})
	}
}

// A Strands AgentResult, a LlamaIndex stop event or AgentOutput sent as the handler's result
// is rejected with the hint that names it and the expression of its answer; one whose message
// holds no text gets no such hint, which would name an empty value.
func TestFrameworkResultHints(t *testing.T) {
	const text = `[{"text": "It shipped."}]`
	tests := []struct{ name, doc, fix string }{
		{"Strands AgentResult toJSON", `{"type": "agentResult", "stopReason": "endTurn", "lastMessage": {"role": "assistant", "content": ` + text + `}}`,
			`send {"final_response": String(result)} (AgentResult.toString() joins the text of its lastMessage's text blocks)`},
		{"Strands AgentResult to_dict", `{"type": "agent_result", "message": {"role": "assistant", "content": ` + text + `}, "stop_reason": "end_turn"}`,
			`send {"final_response": str(result)} (AgentResult.__str__ joins the text of its message's text blocks)`},
		{"Strands AgentResult without text", `{"type": "agentResult", "stopReason": "toolUse", "lastMessage": {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t", "name": "a", "input": {}}}]}}`, ""},
		{"LlamaIndex stop event", `{"type": "llamaindex-stop", "data": {"result": "It shipped.", "message": {"role": "assistant", "content": "It shipped."}}}`,
			`send {"final_response": result.data.result}`},
		{"LlamaIndex stop event without a result", `{"type": "llamaindex-stop", "data": {"result": ""}}`, ""},
		{"LlamaIndex AgentOutput", `{"response": {"role": "assistant", "additional_kwargs": {}, "blocks": [{"block_type": "text", "text": "It shipped."}]}, "current_agent_name": "Agent", "tool_calls": []}`,
			`send {"final_response": str(agent_output)} (AgentOutput.__str__ is its response's content, the text of its text blocks)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := porting.Normalize([]byte(tt.doc))
			var e *normalize.ResponseShapeError
			require.ErrorAs(t, err, &e)
			if tt.fix == "" {
				assert.NotContains(t, e.Fix, "final_response\": String(")
				assert.NotContains(t, e.Fix, "result.data.result")
				return
			}
			assert.Equal(t, tt.fix, e.Fix)
		})
	}
}

// A CrewAI UsageMetrics sent as metadata: its prompt_tokens and completion_tokens are named as
// CrewAI's, beside a key only it has; alone, as OpenAI Chat Completions'.
func TestCrewAIUsageMetrics(t *testing.T) {
	const crew = `{"final_response": "ok", "metadata": {"total_tokens": 264, "prompt_tokens": 230, "cached_prompt_tokens": 0, "completion_tokens": 34, "successful_requests": 2}}`
	notes := explainNotes(t, crew)
	require.Len(t, notes, 2)
	for _, n := range notes {
		assert.Contains(t, n.Message(), "(CrewAI's name for the count, in a UsageMetrics (CrewOutput.token_usage), summed over the crew's requests)")
	}
	notes = explainNotes(t, `{"final_response": "ok", "metadata": {"prompt_tokens": 230, "completion_tokens": 34}}`)
	require.Len(t, notes, 2)
	assert.Contains(t, notes[0].Message(), "(OpenAI Chat Completions' name for the count)")
}

// A LlamaIndex tool message holds its call's id in additional_kwargs: the note that the result
// is linked to no call says to move it from there, not to add one; a tool message without the
// id anywhere is told to add it.
func TestLlamaIndexUnmatchedResult(t *testing.T) {
	const kwargs = `{"final_response":"ok","messages":[{"role":"assistant","content":"","tool_calls":[{"id":"call_1","name":"a","arguments":"{}"}]},{"role":"tool","content":"x","additional_kwargs":{"tool_call_id":"call_1"}}]}`
	unmatched := func(doc string) *softwarn.Warning {
		notes := explainNotes(t, doc)
		for i := range notes {
			if notes[i].Code == softwarn.ToolResultUnmatched {
				return &notes[i]
			}
		}
		return nil
	}
	got := unmatched(kwargs)
	require.NotNil(t, got)
	assert.Equal(t, "messages[1]", got.Path())
	assert.Contains(t, got.Fix, `move additional_kwargs.tool_call_id up to the message's own "tool_call_id"`)
	assert.Contains(t, got.Fix, "LlamaIndex's ChatMessage")

	for _, doc := range []string{
		`{"final_response":"ok","messages":[{"role":"tool","content":"x"}]}`,
		`{"final_response":"ok","messages":[{"role":"tool","content":"x","additional_kwargs":{"tool_call_id":7}}]}`,
		`{"final_response":"ok","messages":[{"role":"tool","content":"x","additional_kwargs":{}}]}`,
	} {
		got := unmatched(doc)
		require.NotNil(t, got, doc)
		assert.Equal(t, `add "tool_call_id": <the id of the assistant tool call it answers>`, got.Fix, doc)
	}

	r := fixer.Run(porting.New(normalize.WithExplain()), []byte(kwargs), true)
	require.NoError(t, r.Err)
	assert.Nil(t, unmatched(string(r.Output)), "after the fixes: %s", r.Output)
}

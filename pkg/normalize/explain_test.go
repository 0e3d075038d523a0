package normalize_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Rule 21: the explain view's notes, advice for a person porting an agent. Each case lists
// every note it must give, in order; the record itself never changes.
func TestExplainNotes(t *testing.T) {
	type note struct {
		path     string
		code     softwarn.Code
		contains string
	}
	tests := []struct {
		name  string
		input string
		notes []note
	}{
		{"answered call", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"f","arguments":"{}"}]},{"role":"tool","tool_call_id":"c1","content":"x"}]}`, nil},
		{"unanswered call", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"f"}]}]}`,
			[]note{{"messages[0].tool_calls[0]", softwarn.ToolCallUnanswered, `add {"role": "tool", "tool_call_id": "c1"`}}},
		{"result of no call", `{"final_response":"a","messages":[{"role":"tool","tool_call_id":"c9","content":"x"}]}`,
			[]note{{"messages[0].tool_call_id", softwarn.ToolResultUnmatched, `tool_call_id "c9" answers no earlier tool call`}}},
		{"id in another case", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"Call_1","name":"f"}]},{"role":"tool","tool_call_id":"call_1","content":"x"}]}`,
			[]note{
				{"messages[1].tool_call_id", softwarn.ToolResultUnmatched, `did you mean "Call_1"? ids are matched exactly`},
				{"messages[0].tool_calls[0]", softwarn.ToolCallUnanswered, `(id "Call_1")`},
			}},
		{"tool message without id", `{"final_response":"a","messages":[{"role":"tool","content":"18C"}]}`,
			[]note{{"messages[0]", softwarn.ToolResultUnmatched, `a tool message without tool_call_id, so the trace cannot link this result to its call; add "tool_call_id"`}}},
		{"tool message with null id", `{"final_response":"a","messages":[{"role":"tool","tool_call_id":null,"content":"18C"}]}`,
			[]note{{"messages[0]", softwarn.ToolResultUnmatched, "without tool_call_id"}}},
		{"legacy function_call", `{"final_response":"a","messages":[{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{}"}}]}`,
			[]note{{"messages[0].function_call", softwarn.LegacyFunctionCall, `function_call is OpenAI's legacy field, kept as sent, but the trace shows calls only from tool_calls`}}},
		{"function_call null", `{"final_response":"a","messages":[{"role":"assistant","content":"x","function_call":null}]}`, nil},
		{"LangChain args", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"f","args":{"city":"Paris"}}]},{"role":"tool","tool_call_id":"c1","content":"x"}]}`,
			[]note{{"messages[0].tool_calls[0]", softwarn.ToolCallArgumentsKey, `has no "arguments" but has "args" (LangChain's name for them), which the flat form does not keep`}}},
		{"Anthropic input in function", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","input":{}}}]},{"role":"tool","tool_call_id":"c1","content":"x"}]}`,
			[]note{{"messages[0].tool_calls[0]", softwarn.ToolCallArgumentsKey, `has "input" (Anthropic's name for them)`}}},
		{"arguments and args", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"f","arguments":"{}","args":{}}]},{"role":"tool","tool_call_id":"c1","content":"x"}]}`, nil},
		{"input index after a dropped message", `{"final_response":"a","messages":[{"role":"x"},{"role":"assistant","tool_calls":[{"id":"c1","name":"f","parameters":{}}]},{"role":"tool","tool_call_id":"c1","content":"x"}]}`,
			[]note{{"messages[1].tool_calls[0]", softwarn.ToolCallArgumentsKey, `has "parameters"`}}},
		{"last messages counts", `{"messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"f","args":{}}]}],"final_response":"a","messages":[{"role":"user","content":"x"}]}`, nil},
		{"result serialized twice", `"{\"final_response\": \"Done.\", \"messages\": []}"`,
			[]note{{"final_response", softwarn.FinalResponseSerialized, `is the JSON text of a whole result (an object with "final_response"), graded as it is: the result was serialized twice`}}},
		{"final_response holding a result", `{"final_response":"{\"final_response\":\"Done.\"}"}`,
			[]note{{"final_response", softwarn.FinalResponseSerialized, "serialized twice"}}},
		{"an answer that is JSON", `{"final_response":"{\"refund\": \"issued\"}"}`, nil},
		{"only whitespace", `{"final_response":" \n\t "}`,
			[]note{{"final_response", softwarn.FinalResponsePlaceholder, "is only whitespace: accepted (it is not empty), but the judge has nothing to grade"}}},
		{"str of None", `"None"`,
			[]note{{"final_response", softwarn.FinalResponsePlaceholder, `is the text "None", what str() prints for a missing value: the judge grades that text`}}},
		{"an answer that mentions None", `{"final_response":"None of the orders were refunded."}`, nil},
		{"an earlier tool_calls that is not the one kept", `{"final_response":"ok","messages":[
			{"role":"assistant","content":"draft","tool_calls":[1],"tool_calls":null},
			{"role":"assistant","tool_calls":[{"id":"call_1","name":"lookup"}]},
			{"role":"tool","tool_call_id":"call_9","content":"18C"},
			{"role":"assistant","content":null,"function_call":{"name":"f"}}]}`,
			[]note{
				{"messages[2].tool_call_id", softwarn.ToolResultUnmatched, `tool_call_id "call_9" answers no earlier tool call`},
				{"messages[3].function_call", softwarn.LegacyFunctionCall, "legacy"},
				{"messages[1].tool_calls[0]", softwarn.ToolCallUnanswered, `tool call "lookup" (id "call_1")`},
			}},
		{"lone surrogate ids as written", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"\ud800","name":"f"}]},{"role":"tool","tool_call_id":"\udc00","content":"x"}]}`,
			[]note{
				{"messages[1].tool_call_id", softwarn.ToolResultUnmatched, `tool_call_id "\udc00" answers no earlier tool call, so the trace cannot link this result to its call; use the id of the assistant tool call it answers`},
				{"messages[0].tool_calls[0]", softwarn.ToolCallUnanswered, `(id "\ud800") has no tool message answering it; add {"role": "tool", "tool_call_id": "\ud800"`},
			}},
		{"escaped id answered", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"c\u0031","name":"f"}]},{"role":"tool","tool_call_id":"c1","content":"x"}]}`, nil},
		{"a deeply nested result serialized twice", `{"final_response":"{\"final_response\":\"a\",\"x\":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}"}`,
			[]note{{"final_response", softwarn.FinalResponseSerialized, "serialized twice"}}},
		{"Anthropic blocks in content", `{"final_response":"a","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}]}`,
			[]note{{"messages[0].content", softwarn.AnthropicContentBlocks, "holds 1 Anthropic tool_use block"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plain, err := normalize.Normalize([]byte(tt.input))
			require.NoError(t, err)
			record := string(plain.AppendJSON(nil))
			res, err := normalize.Normalize([]byte(tt.input), normalize.WithExplain())
			require.NoError(t, err)
			require.Len(t, res.Notes(), len(tt.notes), "notes: %+v", res.Notes())
			for i, want := range tt.notes {
				got := res.Notes()[i]
				assert.Equal(t, want.path, got.Path)
				assert.Equal(t, want.code, got.Code)
				assert.Equal(t, softwarn.Kept, got.Action)
				assert.Contains(t, got.Message, want.contains)
			}
			explained := string(res.AppendJSON(nil))
			assert.Equal(t, record[:len(record)-1], explained[:len(record)-1], "explain changed the record")
		})
	}
}

// Notes are listed up to the warning limit, and counted past it: a hostile transcript can hold
// a million unanswered calls.
func TestExplainNotesLimited(t *testing.T) {
	doc := `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"1","name":"f"},{"id":"2","name":"f"},{"id":"3","name":"f"},{"id":"4","name":"f"}]}]}`
	res, err := normalize.Normalize([]byte(doc), normalize.WithExplain(), normalize.WithMaxWarnings(2))
	require.NoError(t, err)
	notes := res.Notes()
	require.Len(t, notes, 3, "notes: %+v", notes)
	assert.Equal(t, "messages[0].tool_calls[0]", notes[0].Path)
	assert.Equal(t, "messages[0].tool_calls[1]", notes[1].Path)
	assert.Equal(t, softwarn.NotesLimited, notes[2].Code)
	assert.Equal(t, "2 more notes were not listed: a record lists at most 2; act on the ones listed and normalize again", notes[2].Message)
}

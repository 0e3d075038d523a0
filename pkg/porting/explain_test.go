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
		// The tool message's note says which id to use; a note on the call asking for another
		// tool message would have the porter send two.
		{"id in another case", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"Call_1","name":"f"}]},{"role":"tool","tool_call_id":"call_1","content":"x"}]}`,
			[]note{{"messages[1].tool_call_id", softwarn.ToolResultUnmatched, `did you mean "Call_1"? ids are matched exactly`}}},
		{"id in another case, then the same id", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"Call_1","name":"f"},{"id":"c2","name":"g"}]},{"role":"tool","tool_call_id":"call_1","content":"x"}]}`,
			[]note{
				{"messages[0].tool_calls[1]", softwarn.ToolCallUnanswered, `(id "c2")`},
				{"messages[1].tool_call_id", softwarn.ToolResultUnmatched, `did you mean "Call_1"?`},
			}},
		{"tool_use_id instead of tool_call_id", `{"final_response":"ok","messages":[{"role":"assistant","tool_calls":[{"id":"toolu_1","name":"f","arguments":{}}]},{"role":"tool","tool_use_id":"toolu_1","content":"r"}]}`,
			[]note{{"messages[1].tool_use_id", softwarn.ToolResultUnmatched, `a tool message with "tool_use_id" (Anthropic's name for it) but no "tool_call_id", so the trace cannot link this result to its call; rename "tool_use_id" to "tool_call_id": its value "toolu_1" is the id of the tool call at messages[0].tool_calls[0]`}}},
		{"tool_use_id of no call", `{"final_response":"ok","messages":[{"role":"assistant","tool_calls":[{"id":"toolu_1","name":"f"}]},{"role":"tool","tool_use_id":"toolu_9","content":"r"}]}`,
			[]note{
				{"messages[0].tool_calls[0]", softwarn.ToolCallUnanswered, `(id "toolu_1") has no tool message answering it`},
				{"messages[1].tool_use_id", softwarn.ToolResultUnmatched, `rename "tool_use_id" to "tool_call_id", and use the id of the assistant tool call it answers: "toolu_9" answers no earlier tool call`},
			}},
		{"tool_use_id in another case", `{"final_response":"ok","messages":[{"role":"assistant","tool_calls":[{"id":"toolu_A","name":"f"}]},{"role":"tool","tool_use_id":"TOOLU_a","content":"r"}]}`,
			[]note{{"messages[1].tool_use_id", softwarn.ToolResultUnmatched, `"TOOLU_a" answers no earlier tool call; did you mean "toolu_A"? ids are matched exactly`}}},
		{"tool_use_id beside tool_call_id", `{"final_response":"ok","messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"f"}]},{"role":"tool","tool_call_id":"c1","tool_use_id":"c1","content":"r"}]}`, nil},
		{"tool message without id", `{"final_response":"a","messages":[{"role":"tool","content":"18C"}]}`,
			[]note{{"messages[0]", softwarn.ToolResultUnmatched, `a tool message without tool_call_id, so the trace cannot link this result to its call; add "tool_call_id"`}}},
		{"tool message with null id", `{"final_response":"a","messages":[{"role":"tool","tool_call_id":null,"content":"18C"}]}`,
			[]note{{"messages[0]", softwarn.ToolResultUnmatched, "without tool_call_id"}}},
		{"legacy function_call", `{"final_response":"a","messages":[{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{}"}}]}`,
			[]note{{"messages[0].function_call", softwarn.LegacyFunctionCall, `function_call is OpenAI's legacy field, kept as sent, but the trace shows calls only from tool_calls`}}},
		{"function_call null", `{"final_response":"a","messages":[{"role":"assistant","content":"x","function_call":null}]}`, nil},
		{"LangChain args", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"f","args":{"city":"Paris"}}]},{"role":"tool","tool_call_id":"c1","content":"x"}]}`,
			[]note{{"messages[0].tool_calls[0]", softwarn.ToolCallArgumentsKey, `has no "arguments" but has "args" (LangChain's name for them), which the flat form does not keep; ` +
				`the arguments under "args" were dropped from the record, so the trace shows this call without arguments; rename the key "args" to "arguments"`}}},
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
			[]note{{"final_response", softwarn.FinalResponsePlaceholder, `is the text "None", what Python's str(None) prints: a missing value was sent as text, and the judge grades that text; return the agent's answer`}}},
		{"null as text", `{"final_response":"null"}`,
			[]note{{"final_response", softwarn.FinalResponsePlaceholder, `is the text "null", JSON's and JavaScript's null written as text`}}},
		{"undefined", `{"final_response":"undefined"}`,
			[]note{{"final_response", softwarn.FinalResponsePlaceholder, `is the text "undefined", what JavaScript's String(undefined) prints`}}},
		{"nil", `{"final_response":" nil\n"}`,
			[]note{{"final_response", softwarn.FinalResponsePlaceholder, `is the text "nil", what Ruby's nil.inspect and Lua's tostring(nil) print`}}},
		{"Go's nil", `{"final_response":"<nil>"}`,
			[]note{{"final_response", softwarn.FinalResponsePlaceholder, `is the text "<nil>", what Go's fmt prints for a nil value`}}},
		{"NaN", `{"final_response":"NaN"}`,
			[]note{{"final_response", softwarn.FinalResponsePlaceholder, `is the text "NaN", a float that is not a number, as JavaScript's String(NaN) and Go's fmt print it`}}},
		{"Python's nan", `{"final_response":"nan"}`,
			[]note{{"final_response", softwarn.FinalResponsePlaceholder, `Python's str(float('nan'))`}}},
		{"[object Object]", `{"final_response":"[object Object]"}`,
			[]note{{"final_response", softwarn.FinalResponsePlaceholder, `is the text "[object Object]", what JavaScript's String(obj) prints for an object: the object was not serialized, and the judge grades that text; send the answer's text`}}},
		{"notes of a message in the order of its keys", `{"final_response":"a","messages":[{"role":"assistant","function_call":{"name":"f"},` +
			`"tool_calls":[{"id":"c1","name":"f","args":{}}],"content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}]}`,
			[]note{
				{"messages[0].function_call", softwarn.LegacyFunctionCall, "legacy"},
				{"messages[0].tool_calls[0]", softwarn.ToolCallArgumentsKey, `has "args"`},
				{"messages[0].tool_calls[0]", softwarn.ToolCallUnanswered, `(id "c1")`},
				{"messages[0].content", softwarn.AnthropicContentBlocks, "tool_use"},
			}},
		{"a tool message's keys in another order", `{"final_response":"a","messages":[{"content":[{"type":"tool_result","tool_use_id":"t","content":"x"}],"role":"tool"}]}`,
			[]note{
				{"messages[0]", softwarn.ToolResultUnmatched, "without tool_call_id"},
				{"messages[0].content", softwarn.AnthropicContentBlocks, "tool_result"},
			}},
		{"final_response after messages", `{"messages":[{"role":"tool","tool_call_id":"c9","content":"x"}],"final_response":"None"}`,
			[]note{
				{"messages[0].tool_call_id", softwarn.ToolResultUnmatched, `"c9"`},
				{"final_response", softwarn.FinalResponsePlaceholder, `"None"`},
			}},
		{"an answer that mentions None", `{"final_response":"None of the orders were refunded."}`, nil},
		{"an earlier tool_calls that is not the one kept", `{"final_response":"ok","messages":[
			{"role":"assistant","content":"draft","tool_calls":[1],"tool_calls":null},
			{"role":"assistant","tool_calls":[{"id":"call_1","name":"lookup"}]},
			{"role":"tool","tool_call_id":"call_9","content":"18C"},
			{"role":"assistant","content":null,"function_call":{"name":"f"}}]}`,
			[]note{
				{"messages[1].tool_calls[0]", softwarn.ToolCallUnanswered, `tool call "lookup" (id "call_1")`},
				{"messages[2].tool_call_id", softwarn.ToolResultUnmatched, `tool_call_id "call_9" answers no earlier tool call`},
				{"messages[3].function_call", softwarn.LegacyFunctionCall, "legacy"},
			}},
		{"lone surrogate ids as written", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"\ud800","name":"f"}]},{"role":"tool","tool_call_id":"\udc00","content":"x"}]}`,
			[]note{
				{"messages[0].tool_calls[0]", softwarn.ToolCallUnanswered, `(id "\ud800") has no tool message answering it; add {"role": "tool", "tool_call_id": "\ud800"`},
				{"messages[1].tool_call_id", softwarn.ToolResultUnmatched, `tool_call_id "\udc00" answers no earlier tool call, so the trace cannot link this result to its call; use the id of the assistant tool call it answers`},
			}},
		{"escaped id answered", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"c\u0031","name":"f"}]},{"role":"tool","tool_call_id":"c1","content":"x"}]}`, nil},
		{"a deeply nested result serialized twice", `{"final_response":"{\"final_response\":\"a\",\"x\":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}"}`,
			[]note{{"final_response", softwarn.FinalResponseSerialized, "serialized twice"}}},
		// A partner that was sent but dropped: the note names it, so that the porter fixes it
		// rather than add a call or a tool message they already sent.
		{"answers a call in a dropped message", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_1","content":"21"}]}`,
			[]note{{"messages[1].tool_call_id", softwarn.ToolResultUnmatched, `tool_call_id "call_1" is the id of the tool call at messages[0].tool_calls[0], but messages[0] was dropped (see its warning), ` +
				`so the trace cannot link this result to its call; make messages[0] valid as its warning says, and this result will link to its call`}}},
		{"answers a call in a message with a bad role", `{"final_response":"a","messages":[{"role":"model","tool_calls":[{"id":"x","name":"f"},{"id":"c1","name":"f"}]},{"role":"tool","tool_call_id":"c1","content":"r"},{"role":"tool","tool_call_id":"x","content":"r"}]}`,
			[]note{
				{"messages[1].tool_call_id", softwarn.ToolResultUnmatched, `is the id of the tool call at messages[0].tool_calls[1], but messages[0] was dropped`},
				{"messages[2].tool_call_id", softwarn.ToolResultUnmatched, `is the id of the tool call at messages[0].tool_calls[0], but messages[0] was dropped`},
			}},
		{"the last dropped call with the id", `{"final_response":"a","messages":[{"role":"x","tool_calls":[{"id":"c1","name":"f"}]},{"role":"y","tool_calls":[{"name":"g"},{"id":"c1"}]},{"role":"tool","tool_call_id":"c1","content":"r"}]}`,
			[]note{{"messages[2].tool_call_id", softwarn.ToolResultUnmatched, `at messages[1].tool_calls[1], but messages[1] was dropped`}}},
		{"a call answered only by a dropped tool message", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"call_1","name":"get_weather","arguments":"{}"}]},{"role":"tool","tool_call_id":"call_1","content":{"temperature_c":21}}]}`,
			[]note{{"messages[0].tool_calls[0]", softwarn.ToolCallUnanswered, `tool call "get_weather" (id "call_1") is answered only by messages[1], which was dropped (see its warning), ` +
				`so the trace shows this call unanswered; make messages[1] valid as its warning says, rather than adding another tool message`}}},
		{"a call answered by a message with a bad role", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"f"}]},{"role":"function","tool_call_id":"c1","content":"r"}]}`,
			[]note{{"messages[0].tool_calls[0]", softwarn.ToolCallUnanswered, `is answered only by messages[1], which was dropped`}}},
		{"a call answered only by an Anthropic tool_result block sent as a message", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"toolu_1","name":"f"}]},{"type":"tool_result","tool_use_id":"toolu_1","content":"r"}]}`,
			[]note{{"messages[0].tool_calls[0]", softwarn.ToolCallUnanswered, `is answered only by messages[1], which was dropped`}}},
		{"a dropped message's tool_call_id wins over its tool_use_id", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"a","name":"f"},{"id":"b","name":"f"}]},{"tool_call_id":"a","tool_use_id":"b","content":"r"}]}`,
			[]note{
				{"messages[0].tool_calls[0]", softwarn.ToolCallUnanswered, `is answered only by messages[1], which was dropped`},
				{"messages[0].tool_calls[1]", softwarn.ToolCallUnanswered, `has no tool message answering it`},
			}},
		{"a dropped answer before the call answers nothing", `{"final_response":"a","messages":[{"role":"tool","tool_call_id":"c1","content":{}},{"role":"assistant","tool_calls":[{"id":"c1","name":"f"}]}]}`,
			[]note{{"messages[1].tool_calls[0]", softwarn.ToolCallUnanswered, `has no tool message answering it; add {"role": "tool", "tool_call_id": "c1"`}}},
		{"a dropped call after the result is not its call", `{"final_response":"a","messages":[{"role":"tool","tool_call_id":"c1","content":"r"},{"role":"model","tool_calls":[{"id":"c1","name":"f"}]}]}`,
			[]note{{"messages[0].tool_call_id", softwarn.ToolResultUnmatched, `tool_call_id "c1" answers no earlier tool call`}}},
		{"a kept call wins over a dropped one", `{"final_response":"a","messages":[{"role":"model","tool_calls":[{"id":"c1","name":"f"}]},{"role":"assistant","tool_calls":[{"id":"c1","name":"f"}]},{"role":"tool","tool_call_id":"c1","content":"r"}]}`, nil},
		{"a kept answer wins over a dropped one", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"f"}]},{"role":"tool","tool_call_id":"c1","content":{}},{"role":"tool","tool_call_id":"c1","content":"r"}]}`, nil},
		{"Anthropic blocks in content", `{"final_response":"a","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}]}`,
			[]note{{"messages[0].content", softwarn.AnthropicContentBlocks, "holds 1 Anthropic tool_use block"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notes := explainNotes(t, tt.input)
			require.Len(t, notes, len(tt.notes), "notes: %+v", notes)
			for i, want := range tt.notes {
				got := notes[i]
				assert.Equal(t, want.path, got.Path())
				assert.Equal(t, want.code, got.Code)
				assert.Equal(t, actionOf(want.code), got.Action, "the action says what was done")
				assert.Contains(t, got.Message(), want.contains)
			}
		})
	}
}

// actionOf is the action a note must carry: the arguments under another key and a top-level key
// spelled another way are left out of the record (rules 9 and 4, without a warning); the rest is
// kept as sent.
func actionOf(code softwarn.Code) softwarn.Action {
	switch code {
	case softwarn.ToolCallArgumentsKey, softwarn.TopLevelKeyVariant:
		return softwarn.Dropped
	}
	return softwarn.Kept
}

// Notes are listed up to the warning limit, and counted past it: a hostile transcript can hold
// a million unanswered calls.
func TestExplainNotesLimited(t *testing.T) {
	doc := `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"1","name":"f"},{"id":"2","name":"f"},{"id":"3","name":"f"},{"id":"4","name":"f"}]}]}`
	res, err := porting.Normalize([]byte(doc), normalize.WithExplain(), normalize.WithMaxWarnings(2))
	require.NoError(t, err)
	notes := res.Notes()
	require.Len(t, notes, 3, "notes: %+v", notes)
	assert.Equal(t, "messages[0].tool_calls[0]", notes[0].Path())
	assert.Equal(t, "messages[0].tool_calls[1]", notes[1].Path())
	assert.Equal(t, softwarn.NotesLimited, notes[2].Code)
	assert.Equal(t, "2 more notes were not listed: a record lists at most 2; act on the ones listed and normalize again", notes[2].Message())
	assert.Equal(t, "act on the ones listed and normalize again", notes[2].Fix)
}

// The notes on tool calls and results say in parts what is wrong, what was done and the fix.
func TestToolNoteParts(t *testing.T) {
	res, err := porting.Normalize([]byte(`{"final_response":"a","messages":[`+
		`{"role":"assistant","tool_calls":[{"id":"c1","name":"f","args":{}}]},`+
		`{"role":"tool","tool_call_id":"c9","content":"x"}]}`), normalize.WithExplain())
	require.NoError(t, err)
	byCode := map[softwarn.Code]softwarn.Warning{}
	for _, n := range res.Notes() {
		byCode[n.Code] = n
	}
	require.Len(t, byCode, 3)
	assert.Equal(t, softwarn.Parts{
		Problem: `has no "arguments" but has "args" (LangChain's name for them), which the flat form does not keep`,
		Done:    `the arguments under "args" were dropped from the record, so the trace shows this call without arguments`,
		Fix:     `rename the key "args" to "arguments"`,
	}, byCode[softwarn.ToolCallArgumentsKey].Parts)
	unanswered := byCode[softwarn.ToolCallUnanswered]
	assert.Equal(t, `tool call "f" (id "c1") has no tool message answering it`, unanswered.Problem)
	assert.Equal(t, `add {"role": "tool", "tool_call_id": "c1", "content": <the result>} after it`, unanswered.Fix)
	assert.Equal(t, "use the id of the assistant tool call it answers", byCode[softwarn.ToolResultUnmatched].Fix)
}

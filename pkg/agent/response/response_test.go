package response_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/agent/response"
	"github.com/dystopic/normalizer/pkg/normalize"
)

type runResult struct{ FinalOutput string }

type anthropicMessage struct {
	ID      string
	Message string
}

type withMethod struct{ text string }

func (w withMethod) Output() string { return w.text }

type withPointerMethod struct{ text string }

func (w *withPointerMethod) FinalResponse() string { return w.text }

type withErrorMethod struct{ err error }

func (w withErrorMethod) FinalOutput() (string, error) { return "partial", w.err }

type bothNames struct {
	Output        string
	FinalResponse string
}

type stringer struct{ n int }

func (s stringer) String() string { return fmt.Sprintf("%d orders refunded", s.n) }

type stringerResult struct{ FinalOutput stringer }

type anyResult struct{ Output any }

type ptrResult struct{ Message *string }

type numberResult struct{ Output int }

type methodWithArgs struct{ Message string }

func (methodWithArgs) Output(int) string { return "not a probe" }

type nothing struct{ Text string }

type inner struct{ FinalOutput string }
type embedsPointer struct{ *inner }

type typed struct {
	FinalResponse string         `json:"final_response"`
	Messages      []message      `json:"messages,omitempty"`
	Metadata      map[string]any `json:"metadata,omitempty"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type named string

func TestBuild(t *testing.T) {
	s := "via pointer"
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"string", "The refund has been issued.", `{"final_response":"The refund has been issued."}`},
		{"string with HTML characters", "a < b & c", `{"final_response":"a < b & c"}`},
		{"named string", named("ok"), `{"final_response":"ok"}`},
		{"pointer to string", &s, `{"final_response":"via pointer"}`},
		{"map", map[string]any{"final_response": "done", "metadata": map[string]any{"model": "m"}, "extra": 1},
			`{"extra":1,"final_response":"done","metadata":{"model":"m"}}`},
		{"map of strings", map[string]string{"final_response": "done"}, `{"final_response":"done"}`},
		{"raw object passes through", json.RawMessage(`{ "final_response": "x", "messages": [{"role":"user","content":"hi"}], "n": 2.50 }`),
			`{"final_response":"x","messages":[{"role":"user","content":"hi"}],"n":2.50}`},
		{"bytes", []byte(`{"final_response":"x"}`), `{"final_response":"x"}`},
		{"raw JSON string is the bare return", json.RawMessage(`"hello"`), `{"final_response":"hello"}`},
		{"raw duplicate: the last wins", json.RawMessage(`{"final_response":"","final_response":"kept"}`), `{"final_response":"","final_response":"kept"}`},
		{"typed struct keeps rich mode", typed{FinalResponse: "done", Messages: []message{{"user", "hi"}}},
			`{"final_response":"done","messages":[{"role":"user","content":"hi"}]}`},
		{"pointer to typed struct", &typed{FinalResponse: "done"}, `{"final_response":"done"}`},
		{"FinalOutput field", runResult{FinalOutput: "agent said"}, `{"final_response":"agent said"}`},
		{"Message field", anthropicMessage{ID: "m1", Message: "hi"}, `{"final_response":"hi"}`},
		{"Output method", withMethod{"from method"}, `{"final_response":"from method"}`},
		{"pointer method on a value", withPointerMethod{"ptr method"}, `{"final_response":"ptr method"}`},
		{"pointer method on a pointer", &withPointerMethod{"ptr method"}, `{"final_response":"ptr method"}`},
		{"method with error, nil error", withErrorMethod{}, `{"final_response":"partial"}`},
		{"probe order: FinalResponse before Output", bothNames{Output: "second", FinalResponse: "first"}, `{"final_response":"first"}`},
		{"Stringer value", stringerResult{stringer{3}}, `{"final_response":"3 orders refunded"}`},
		{"interface holding a string", anyResult{Output: "boxed"}, `{"final_response":"boxed"}`},
		{"pointer field", ptrResult{Message: &s}, `{"final_response":"via pointer"}`},
		{"method with arguments is skipped", methodWithArgs{Message: "field"}, `{"final_response":"field"}`},
		{"promoted field", embedsPointer{&inner{FinalOutput: "promoted"}}, `{"final_response":"promoted"}`},
		{"whitespace is not empty", "  ", `{"final_response":"  "}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := response.Build(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			_, err = normalize.Normalize(got)
			assert.NoError(t, err, "the platform accepts what Build returns")
		})
	}
}

func TestBuildEmpty(t *testing.T) {
	var nilString *string
	empty := ""
	var nilMap map[string]any
	tests := []struct {
		name string
		in   any
		got  string
	}{
		{"nil", nil, "null"},
		{"empty string", "", "empty string"},
		{"nil *string", nilString, "null"},
		{"pointer to empty string", &empty, "empty string"},
		{"empty named string", named(""), "empty string"},
		{"map with empty final_response", map[string]any{"final_response": ""}, "empty string"},
		{"map with nil final_response", map[string]any{"final_response": nil}, "null"},
		{"raw null", json.RawMessage("null"), "null"},
		{"raw empty JSON string", json.RawMessage(`""`), "empty string"},
		{"raw duplicate: an empty last wins", json.RawMessage(`{"final_response":"x","final_response":""}`), "empty string"},
		{"typed struct with empty final_response", typed{}, "empty string"},
		{"empty probed field", runResult{}, "empty string"},
		{"first probe present wins even when empty", bothNames{Output: "second"}, "empty string"},
		{"nil interface field", anyResult{}, "null"},
		{"nil pointer field", ptrResult{}, "null"},
		{"nil embedded pointer", embedsPointer{}, "null"},
		{"nil pointer to a struct", (*runResult)(nil), "null"},
		{"nil map is like None", nilMap, "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := response.Build(tt.in)
			var shape *normalize.ResponseShapeError
			require.True(t, errors.As(err, &shape), "got %v", err)
			assert.ErrorIs(t, err, normalize.ErrResponseShape)
			assert.Equal(t, tt.got, shape.Got)
			assert.Equal(t, "final_response", shape.Path)
			assert.Equal(t, normalize.EmptyResponseMessage, err.Error(), "the contract's message, byte for byte")
			assert.True(t, response.IsEmpty(err))
		})
	}
}

func TestBuildRejects(t *testing.T) {
	tests := []struct {
		name  string
		in    any
		shape bool
		want  string
	}{
		{"map without final_response", map[string]any{"answer": "x"}, true,
			`response: the object has no "final_response" key; expected {"final_response": "<the agent's answer>", ...}`},
		{"map with output instead", map[string]any{"output": "x"}, true, `It has "output": put the answer under "final_response"`},
		{"final_response a number", map[string]any{"final_response": 42}, true, "response: final_response is a JSON number (42); expected a non-empty string"},
		{"final_response an object", json.RawMessage(`{"final_response":{"text":"x"}}`), true, "final_response is a JSON object"},
		{"raw array", json.RawMessage(`[1]`), true, `response: the raw JSON is an array; expected a non-empty string or an object with "final_response"`},
		{"raw number", []byte(`7`), true, "the raw JSON is a number"},
		{"raw invalid", json.RawMessage(`{"final_response":`), false, "response: the raw JSON is not valid"},
		{"raw empty", []byte(nil), false, "response: the raw JSON is not valid"},
		{"integer", 42, true, "response: int has none of FinalResponse, FinalOutput, Output, Message"},
		{"slice", []string{"a"}, true, "response: []string has none of"},
		{"struct without a probe name", nothing{Text: "x"}, true, "response: response_test.nothing has none of FinalResponse, FinalOutput, Output, Message (an exported field or a method without arguments)"},
		{"probed number", numberResult{Output: 3}, true, "response: response_test.numberResult.Output is a int; expected a string, a fmt.Stringer or a pointer to one"},
		{"method error", withErrorMethod{err: errors.New("model timed out")}, false, "response: response_test.withErrorMethod.FinalOutput: model timed out"},
		{"unencodable map", map[string]any{"final_response": "x", "f": func() {}}, false, "response: encode map[string]interface {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := response.Build(tt.in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			var shape *normalize.ResponseShapeError
			assert.Equal(t, tt.shape, errors.As(err, &shape))
			assert.False(t, response.IsEmpty(err))
		})
	}
}

func TestCheckShowsSoftWarnings(t *testing.T) {
	res, err := response.Check(map[string]any{
		"final_response": "done",
		"messages":       []map[string]any{{"role": "developer", "content": "be brief"}, {"role": "user", "content": "hi"}},
		"metadata":       map[string]any{"total_input_tokens": "217"},
	})
	require.NoError(t, err)
	warnings := res.SoftWarnings()
	require.Len(t, warnings, 2)
	assert.True(t, strings.HasPrefix(warnings[0], "messages[0]"), warnings[0])
	assert.True(t, strings.HasPrefix(warnings[1], "metadata.total_input_tokens: "), warnings[1])
	assert.True(t, res.RichMode())

	res, err = response.Check(strings.Repeat("x", normalize.MaxChars+1))
	require.NoError(t, err)
	assert.True(t, res.Truncated())

	_, err = response.Check("")
	assert.True(t, response.IsEmpty(err))

	_, err = response.Check(`{"final_response":"x"}`, normalize.WithMaxBytes(10))
	assert.ErrorIs(t, err, normalize.ErrPayloadTooLarge)
}

// A struct whose final_response field is empty and tagged omitempty is an empty answer, not a
// missing key: the field is there.
func TestOmitEmptyFinalResponseIsEmpty(t *testing.T) {
	type result struct {
		FinalResponse string `json:"final_response,omitempty"`
		Messages      []any  `json:"messages,omitempty"`
	}
	_, err := response.Build(result{})
	require.Error(t, err)
	assert.Equal(t, normalize.EmptyResponseMessage, err.Error())
	assert.True(t, response.IsEmpty(err))
}

package porting_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

// Rules 2, 3 and 5: every other shape is a ResponseShapeError that names what was received.
func TestShapeErrors(t *testing.T) {
	tests := []struct {
		name, input, got, contains string
	}{
		{"number", `42`, "number", "the result is a number"},
		{"boolean", `false`, "boolean", "the result is a boolean"},
		{"array", `[]`, "array", "the result is an array"},
		{"final_response number", `{"final_response":1}`, "number", "final_response is a number"},
		{"final_response object", `{"final_response":{}}`, "object", "final_response is an object"},
		{"final_response array", `{"final_response":["a"]}`, "array", "final_response is an array"},
		{"final_response bool", `{"final_response":true}`, "boolean", "final_response is a boolean"},
		{"missing", `{}`, "object without final_response", `no "final_response" key`},
		{"final_output", `{"final_output":"x"}`, "object without final_response", `It has "final_output"`},
		{"output", `{"output":"x"}`, "object without final_response", `It has "output"`},
		{"message", `{"message":"x"}`, "object without final_response", "build_response"},
		{"case matters", `{"FINAL_RESPONSE":"x"}`, "object without final_response", `no "final_response" key; expected {"final_response": "<the agent's answer>", ...}. It has "FINAL_RESPONSE": keys are matched exactly, case included; send "final_response"`},
		{"camel case", `{"messages":[],"finalResponse":"x"}`, "object without final_response", `It has "finalResponse": keys are matched exactly`},
		{"chat completion", `{"id":"chatcmpl-1","choices":[{"message":{"content":"x"}}]}`, "object without final_response", `It has "choices": it looks like an OpenAI chat completion, the model's response rather than the handler's result; send {"final_response": choices[0].message.content}`},
		{"anthropic message", `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"x"}]}`, "object without final_response", `it looks like an Anthropic Messages API response`},
		{"a repeated type: the last one counts", `{"type":"message","content":[],"type":1}`, "object without final_response", `It has the keys "type", "content", "type"`},
		{"a repeated object: the last one counts", `{"object":"chat.completion","choices":[],"object":null}`, "object without final_response", `It has the keys "object", "choices", "object"`},
		{"repeated choices: the last one counts", `{"choices":[{"message":{"content":"x"}}],"object":"chat.completion","choices":null}`, "object without final_response", `It has the keys "choices", "object", "choices"`},
		{"chat completion by its object", `{"object":"chat.completion","choices":[]}`, "object without final_response", `it looks like an OpenAI chat completion`},
		{"choices of a quiz", `{"question":"q","choices":["a","b"],"answer":"a"}`, "object without final_response", `It has "answer", which holds a string: rename the key to "final_response"`},
		{"hyphenated variant", `{"final-response":"x"}`, "object without final_response", `It has "final-response": keys are matched exactly`},
		{"long key cut on a character", `{"a` + strings.Repeat("é", 30) + `":1}`, "object without final_response", `It has the key "a` + strings.Repeat("é", 19) + `…"`},
		{"other keys listed", `{"reply":"x","messages":[]}`, "object without final_response", `It has the keys "reply", "messages"`},
		{"many keys", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":0}`, "object without final_response", `It has the keys "a", "b", "c", "d", "e", "f", "g", "h" and 2 more`},
		{"no keys", `{}`, "object without final_response", `It has no keys`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := porting.Normalize([]byte(tt.input))
			var shape *normalize.ResponseShapeError
			require.ErrorAs(t, err, &shape)
			assert.Equal(t, tt.got, shape.Got)
			assert.Contains(t, shape.Error(), tt.contains)
			class, ok := normalize.ClassOf(err)
			assert.True(t, ok)
			assert.Equal(t, normalize.ClassResponseShape, class)
		})
	}
}

// TestShapeHintKeyIsCut: a key that folds to final_response is named in the error cut to a
// few dozen bytes, however long it is (a 1 MiB key once made a 1 MiB error message).
func TestShapeHintKeyIsCut(t *testing.T) {
	_, err := porting.New().Normalize([]byte(`{"final` + strings.Repeat("_", 1<<20) + `response":"x"}`))
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 1024)
	assert.Contains(t, err.Error(), `It has "final___`)
	assert.Contains(t, err.Error(), `…": keys are matched exactly`)
}

package porting

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/schemas"
)

// The metadata notes know every recognised key of the published schema, each with the kind its
// check wants, and each name in the form foldsTo matches: a key added to the schema without a
// note, or a form written with a separator, would leave a porter's variant unnoted.
func TestMetaKeysAreTheSchemas(t *testing.T) {
	raw, err := schemas.FS.ReadFile("metadata.schema.json")
	require.NoError(t, err)
	var schema struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(raw, &schema))
	var want, got []string
	for name, p := range schema.Properties {
		kind := jsonscan.Number
		if p.Type == "string" {
			kind = jsonscan.String
		}
		want = append(want, name+":"+string(kind))
	}
	fold := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	for _, k := range metaKeys {
		got = append(got, k.name+":"+string(k.kind))
		assert.Equal(t, fold(k.name), k.folded, k.name)
		for _, o := range k.others {
			assert.Equal(t, fold(o.name), o.folded, o.name)
		}
	}
	sort.Strings(want)
	sort.Strings(got)
	assert.Equal(t, want, got)
	assert.Equal(t, "total_input_tokens", metaKeys[metaInputTokens].name)
	assert.Equal(t, "total_output_tokens", metaKeys[metaOutputTokens].name)
	assert.Equal(t, "agent_runtime_ms", metaKeys[metaRuntime].name)
	var caches []string
	for _, s := range sources {
		if s.cached != nil {
			for _, c := range s.cached.caches {
				if !slices.Contains(caches, c.folded) {
					caches = append(caches, c.folded)
				}
			}
		}
	}
	assert.LessOrEqual(t, len(caches), maxCacheKeys, "siblings holds at most maxCacheKeys cache counts")
	for _, c := range cacheKeys {
		assert.Equal(t, fold(c), c, "cacheKeys are written as foldsTo wants them")
	}
	for _, u := range usageKeys {
		assert.Equal(t, fold(u), u, "usageKeys are written as foldsTo wants them")
	}
}

// Ollama's nanoseconds are shown in milliseconds exactly, the point moved six places; a number
// that is not plain digits, or is implausibly long, is not rewritten.
func TestNanosToMillis(t *testing.T) {
	tests := []struct{ in, want string }{
		{"4353619900", "4353.6199"},
		{"1000000", "1"},
		{"1500000000", "1500"},
		{"999", "0.000999"},
		{"0", "0"},
		{"000120", "0.00012"},
		{"123456789012345678901234", "123456789012345678.901234"},
	}
	for _, tt := range tests {
		got, ok := nanosToMillis([]byte(tt.in))
		assert.True(t, ok, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
	for _, in := range []string{"4.35e9", "1.5", "-1", "1234567890123456789012345"} {
		_, ok := nanosToMillis([]byte(in))
		assert.False(t, ok, in)
	}
}

// The other names of the recognised keys, joined from the sources' tables: in rank order, a
// name several sources give said to be shared before any of them is named, their holders in
// the order the sources are registered.
func TestMetaNamesJoined(t *testing.T) {
	const (
		snake = "a name several SDKs share for the count: Anthropic's, OpenAI Responses' and Pydantic AI's usage, LangChain's usage_metadata"
		camel = "a name several SDKs share for the count: the AI SDK's usage and totalUsage, Strands' accumulated_usage"
	)
	want := map[string][][2]string{
		"model": {{"model_name", "LangChain's name for the model, in response_metadata, and Pydantic AI's, in a ModelResponse"}},
		"total_input_tokens": {{"input_tokens", snake}, {"inputTokens", camel},
			{"prompt_tokens", "OpenAI Chat Completions' name for the count"}, {"request_tokens", "Pydantic AI's older name for the count"},
			{"prompt_eval_count", "Ollama's name for the count"}, {"prompt_token_count", "Gemini's name for the count, in usage_metadata"}},
		"total_output_tokens": {{"output_tokens", snake}, {"outputTokens", camel},
			{"completion_tokens", "OpenAI Chat Completions' name for the count"}, {"response_tokens", "Pydantic AI's older name for the count"},
			{"eval_count", "Ollama's name for the count"}, {"candidates_token_count", "Gemini's name for the count, in usage_metadata"}},
	}
	for _, k := range metaKeys {
		var got [][2]string
		for _, o := range k.others {
			got = append(got, [2]string{o.name, o.origin})
		}
		assert.Equal(t, want[k.name], got, k.name)
	}
}

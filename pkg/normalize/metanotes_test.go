package normalize_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Metadata keys other than the recognised ones are kept as sent, unchecked and without a
// warning, so a porter who sends input_tokens (Anthropic's name) or totalInputTokens never
// learns that the run shows no token count. The explain view notes another SDK's name for a
// recognised key, the key spelled another way, and counts under a usage object, when the
// recognised key itself is absent; the record never changes (explainNotes checks).
func TestExplainMetadataKeyVariants(t *testing.T) {
	type note struct{ path, message string } // message: the whole message, or a part of it
	const (
		inputTokens = `found the key "input_tokens" holding a number, expected "total_input_tokens" (Anthropic's and OpenAI Responses' name for the count); ` +
			`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an input token count; rename it "total_input_tokens"`
		openAIUsage = `found "prompt_tokens" and "completion_tokens" under "usage", expected "total_input_tokens" and "total_output_tokens" in metadata itself ` +
			`(the platform reads no counts inside "usage"); "usage" was kept as an ordinary key, stored as sent, so the run is shown without token counts; ` +
			`copy the run's totals to metadata's own keys: "prompt_tokens" to "total_input_tokens", "completion_tokens" to "total_output_tokens"`
	)
	tests := []struct {
		name, metadata string
		notes          []note // nil: no note
	}{
		// Another SDK's name for a recognised key.
		{name: "input_tokens", metadata: `{"input_tokens":12}`, notes: []note{{"metadata.input_tokens", inputTokens}}},
		{name: "prompt_tokens", metadata: `{"prompt_tokens":12}`, notes: []note{{"metadata.prompt_tokens",
			`found the key "prompt_tokens" holding a number, expected "total_input_tokens" (OpenAI Chat Completions' name for the count); it was kept`}}},
		{name: "output_tokens whose value would fail the check", metadata: `{"output_tokens":-1}`, notes: []note{{"metadata.output_tokens",
			`found the key "output_tokens" holding a number, expected "total_output_tokens" (Anthropic's and OpenAI Responses' name for the count); ` +
				`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an output token count; rename it "total_output_tokens"; ` +
				`its value would then be dropped: found -1, expected a whole, non-negative number of tokens`}}},
		{name: "completion_tokens", metadata: `{"completion_tokens":3}`, notes: []note{{"metadata.completion_tokens", `expected "total_output_tokens" (OpenAI Chat Completions' name`}}},
		{name: "model_name", metadata: `{"model_name":"gpt-4o"}`, notes: []note{{"metadata.model_name",
			`found the key "model_name" holding a string, expected "model" (LangChain's name for the model, in response_metadata); ` +
				`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without a model; rename it "model"`}}},
		{name: "promptTokens", metadata: `{"promptTokens":12}`, notes: []note{{"metadata.promptTokens",
			`expected "total_input_tokens" (a spelling of prompt_tokens, OpenAI Chat Completions' name for the count)`}}},
		// The recognised key spelled another way.
		{name: "Total_Input_Tokens", metadata: `{"Total_Input_Tokens":12}`, notes: []note{{"metadata.Total_Input_Tokens",
			`found the key "Total_Input_Tokens" holding a number, expected "total_input_tokens" (keys are matched exactly, case and separators included); it was kept`}}},
		{name: "totalInputTokens", metadata: `{"totalInputTokens":12}`, notes: []note{{"metadata.totalInputTokens", `rename it "total_input_tokens"`}}},
		{name: "agent-runtime-ms", metadata: `{"agent-runtime-ms":1.5}`, notes: []note{{`metadata["agent-runtime-ms"]`,
			`found the key "agent-runtime-ms" holding a number, expected "agent_runtime_ms" (keys are matched exactly, case and separators included); ` +
				`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an agent runtime; rename it "agent_runtime_ms"`}}},
		{name: "Model", metadata: `{"Model":"gpt-4o"}`, notes: []note{{"metadata.Model", `so the run is shown without a model; rename it "model"`}}},
		{name: "systemPromptId", metadata: `{"systemPromptId":"p1"}`, notes: []note{{"metadata.systemPromptId", `so the run is shown without a system prompt id; rename it "system_prompt_id"`}}},
		// Counts under a usage object.
		{name: "OpenAI usage", metadata: `{"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}`, notes: []note{{"metadata.usage", openAIUsage}}},
		{name: "Anthropic usage", metadata: `{"usage":{"input_tokens":12,"output_tokens":3,"cache_read_input_tokens":0}}`, notes: []note{{"metadata.usage",
			`found "input_tokens" and "output_tokens" under "usage", expected "total_input_tokens" and "total_output_tokens" in metadata itself`}}},
		{name: "usage with one total already sent", metadata: `{"usage":{"prompt_tokens":12,"completion_tokens":3},"total_output_tokens":3}`, notes: []note{{"metadata.usage",
			`found "prompt_tokens" under "usage", expected "total_input_tokens" in metadata itself (the platform reads no counts inside "usage"); ` +
				`"usage" was kept as an ordinary key, stored as sent, so the run is shown without an input token count; ` +
				`copy the run's total to metadata's own key: "prompt_tokens" to "total_input_tokens"`}}},
		{name: "LangChain usage_metadata", metadata: `{"usage_metadata":{"input_tokens":12,"output_tokens":3,"total_tokens":15}}`, notes: []note{{"metadata.usage_metadata", `under "usage_metadata"`}}},
		{name: "usage with a repeated count, the last a number", metadata: `{"usage":{"prompt_tokens":"x","prompt_tokens":12}}`, notes: []note{{"metadata.usage", `found "prompt_tokens" under "usage"`}}},
		// Keys as the record has them: a repeated key's last value, an escaped key unescaped.
		{name: "a repeated key, the last a number", metadata: `{"input_tokens":"12","input_tokens":12}`, notes: []note{{"metadata.input_tokens", inputTokens}}},
		{name: "an escaped key", metadata: `{"input\u005ftokens":12}`, notes: []note{{"metadata.input_tokens", inputTokens}}},
		{name: "an escaped key in usage", metadata: `{"usage":{"prompt\u005ftokens":12,"completion_tokens":3}}`, notes: []note{{"metadata.usage", openAIUsage}}},
		// Several other names for one key: one note, on the first; a usage object supplies only
		// what no other name did; notes in input order.
		{name: "two names for one count", metadata: `{"input_tokens":12,"prompt_tokens":12}`, notes: []note{{"metadata.input_tokens", inputTokens}}},
		{name: "in input order", metadata: `{"prompt_tokens":12,"Model":"m","input_tokens":12,"model_name":"m"}`,
			notes: []note{{"metadata.prompt_tokens", `"prompt_tokens"`}, {"metadata.Model", `"Model"`}}},
		{name: "usage and another name", metadata: `{"usage":{"prompt_tokens":12,"completion_tokens":3},"input_tokens":12}`,
			notes: []note{{"metadata.usage", `found "completion_tokens" under "usage", expected "total_output_tokens"`}, {"metadata.input_tokens", inputTokens}}},

		// No note: the recognised key is sent (even when it fails its check, which warns).
		{name: "the key and another name", metadata: `{"total_input_tokens":12,"input_tokens":12}`},
		{name: "the key, failing its check", metadata: `{"total_input_tokens":"12","input_tokens":12}`},
		{name: "the key, escaped", metadata: `{"total\u005finput_tokens":12,"input_tokens":12}`},
		{name: "model and Model", metadata: `{"Model":"a","model":"b","model_name":"c"}`},
		{name: "usage and both totals", metadata: `{"total_input_tokens":1,"total_output_tokens":2,"usage":{"prompt_tokens":1,"completion_tokens":2}}`},
		// No note: the value is not what the key would hold, so it is something else by that name.
		{name: "a count as a string", metadata: `{"input_tokens":"12"}`},
		{name: "a count as null", metadata: `{"prompt_tokens":null}`},
		{name: "a model object", metadata: `{"Model":{"name":"gpt-4o"}}`},
		{name: "a numeric model name", metadata: `{"model_name":4}`},
		{name: "usage not an object", metadata: `{"usage":[{"prompt_tokens":1}]}`},
		{name: "usage counts as strings", metadata: `{"usage":{"prompt_tokens":"12","completion_tokens":null}}`},
		{name: "usage with a repeated count, the last not a number", metadata: `{"usage":{"prompt_tokens":12,"prompt_tokens":"x"}}`},
		// No note: names that are not a recognised key's.
		{name: "other keys", metadata: `{"tokens":5,"input":3,"total_tokens":15,"model_version":"v","runtime_ms":4,"system_prompt":"s","usage":{"total_tokens":15}}`},
		{name: "counts nested deeper", metadata: `{"response":{"usage":{"prompt_tokens":1}},"run":{"input_tokens":1}}`},
		// No note: no metadata object (dropped with a warning, null, or under another key).
		{name: "metadata an array", metadata: `[{"input_tokens":12}]`},
		{name: "metadata serialized twice", metadata: `"{\"input_tokens\":12}"`},
		{name: "metadata null", metadata: `null`},
		{name: "empty metadata", metadata: `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notes := explainNotes(t, `{"final_response":"ok","metadata":`+tt.metadata+`}`)
			require.Len(t, notes, len(tt.notes), "notes: %+v", notes)
			for i, want := range tt.notes {
				assert.Equal(t, want.path, notes[i].Path)
				assert.Equal(t, softwarn.MetadataKeyVariant, notes[i].Code)
				assert.Equal(t, softwarn.Kept, notes[i].Action, "the key is kept as sent")
				assert.Contains(t, notes[i].Message, want.message)
			}
		})
	}
}

// The notes are about the metadata the record keeps: of a repeated top-level metadata, the
// last; metadata under another key gets the note on that key alone; a variant of the top-level
// key and a metadata key's other name are noted in input order with the rest.
func TestExplainMetadataKeyVariantsInTheResult(t *testing.T) {
	tests := []struct {
		name, doc string
		paths     []string
	}{
		{name: "the last metadata counts", doc: `{"final_response":"ok","metadata":{"input_tokens":1},"metadata":{"model":"m"}}`},
		{name: "the last metadata has one", doc: `{"final_response":"ok","metadata":{"model":"m"},"metadata":{"input_tokens":1}}`, paths: []string{"metadata.input_tokens"}},
		{name: "metadata under another key", doc: `{"final_response":"ok","meta_data":{"input_tokens":1}}`, paths: []string{"meta_data"}},
		{name: "among other notes", doc: `{"metadata":{"Model":"m"},"final_response":"None","messages":[{"role":"tool","content":"x"}],"Metadata":{}}`,
			paths: []string{"metadata.Model", "final_response", "messages[0]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notes := explainNotes(t, tt.doc)
			var paths []string
			for _, n := range notes {
				paths = append(paths, n.Path)
			}
			assert.Equal(t, tt.paths, paths)
		})
	}
}

// The notes keep to the notes cap, and a hostile key is shown cut, in a note of bounded size.
func TestExplainMetadataKeyVariantsBounded(t *testing.T) {
	doc := `{"final_response":"ok","metadata":{"input_tokens":1,"output_tokens":2,"Model":"m","agentRuntimeMs":3}}`
	notes := explainNotes(t, doc, normalize.WithMaxWarnings(2))
	require.Len(t, notes, 3, "notes: %+v", notes)
	assert.Equal(t, []string{"metadata.input_tokens", "metadata.output_tokens", "messages"}, []string{notes[0].Path, notes[1].Path, notes[2].Path})
	assert.Equal(t, softwarn.NotesLimited, notes[2].Code)
	assert.Contains(t, notes[2].Message, "2 more notes were not listed")

	long := "m" + strings.Repeat("_", 1<<20) + "odel"
	for _, metadata := range []string{`{"` + long + `":"m"}`, `{"u` + strings.Repeat("-", 1<<20) + `sage":{"` + strings.Repeat("_", 1<<20) + `prompt_tokens":1}}`} {
		notes = explainNotes(t, `{"final_response":"ok","metadata":`+metadata+`}`)
		require.Len(t, notes, 1)
		assert.Less(t, len(notes[0].Path), softwarn.MaxKeyShown+20)
		assert.Less(t, len(notes[0].Pointer), softwarn.MaxKeyShown+20)
		assert.Less(t, len(notes[0].Message), 5*(softwarn.MaxKeyShown+10)+400, "the usage note names its key three times, the count twice")
	}
}

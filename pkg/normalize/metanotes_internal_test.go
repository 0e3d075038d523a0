package normalize

import (
	"encoding/json"
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
}

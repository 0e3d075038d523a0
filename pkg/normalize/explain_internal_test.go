package normalize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The explain walk must meet exactly the tool calls the record kept, in order: its notes name
// calls by their place in the record's call table. Every golden input, and inputs where an
// earlier value of a duplicated key is not the one kept.
func TestExplainWalkStaysInStep(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*.input.json"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	docs := map[string]string{
		"earlier tool_calls not objects": `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[1,[],null],"tool_calls":[{"id":"x","name":"f"}]},{"role":"tool","tool_call_id":"x","content":"r"}]}`,
		"earlier tool_calls, later null": `{"final_response":"a","messages":[{"role":"assistant","content":"d","tool_calls":[{"name":"f"},2],"tool_calls":null},{"role":"assistant","tool_calls":[{"id":"y","name":"g"}]}]}`,
		"messages key twice":             `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"name":"f"}]}],"messages":[{"role":"assistant","tool_calls":[{"id":"1","name":"g"},{"id":"2","name":"h"}]}]}`,
		"function twice":                 `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"1","function":null,"function":{"name":"f","args":{}}}]}]}`,
	}
	for _, in := range inputs {
		raw, err := os.ReadFile(in)
		require.NoError(t, err)
		docs[strings.TrimSuffix(filepath.Base(in), ".input.json")] = string(raw)
	}
	n := New(WithExplain())
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			r, err := n.Normalize([]byte(doc))
			if err != nil {
				return
			}
			defer r.Release()
			var w messageWalk
			assert.True(t, w.run(r, topLevel(r, &noteList{}), &noteList{}), "the walk met %d calls, the record kept %d", len(w.calls), r.msgs.Calls())
		})
	}
}

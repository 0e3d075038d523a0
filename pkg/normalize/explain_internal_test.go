package normalize

import (
	"fmt"
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

// The ids of dropped messages that explain indexes are bounded (maxDroppedIDs): a transcript
// that drops a million calls costs no more. An id first met past the bound is not indexed, and
// its partner's note is the one it would have without the index.
func TestDroppedIDsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"final_response":"a","messages":[`)
	for i := range maxDroppedIDs + 10 {
		fmt.Fprintf(&b, `{"role":"model","tool_calls":[{"id":"c%d","name":"f"}]},`, i)
	}
	fmt.Fprintf(&b, `{"role":"tool","tool_call_id":"c0","content":"r"},{"role":"tool","tool_call_id":"c%d","content":"r"}]}`, maxDroppedIDs+9)
	r, err := New(WithExplain()).Normalize([]byte(b.String()))
	require.NoError(t, err)
	defer r.Release()
	var w messageWalk
	n := noteList{limit: r.maxWarnings}
	require.True(t, w.run(r, topLevel(r, &n), &n))
	assert.Len(t, w.dropped, maxDroppedIDs)
	notes := n.close()
	require.Len(t, notes, 2, "notes: %+v", notes)
	assert.Contains(t, notes[0].Message(), `"c0" is the id of the tool call at messages[0].tool_calls[0], but messages[0] was dropped`)
	assert.Contains(t, notes[1].Message(), fmt.Sprintf(`"c%d" answers no earlier tool call`, maxDroppedIDs+9))
}

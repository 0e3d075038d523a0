package porting

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

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
	var c capture
	r, err := normalize.New(normalize.WithExplain(), normalize.WithAdvisor(&c)).Normalize([]byte(b.String()))
	require.NoError(t, err)
	defer r.Release()
	assert.Len(t, c.l.walk.dropped, maxDroppedIDs)
	notes := r.Notes()
	require.Len(t, notes, 2, "notes: %+v", notes)
	assert.Contains(t, notes[0].Message(), `"c0" is the id of the tool call at messages[0].tool_calls[0], but messages[0] was dropped`)
	assert.Contains(t, notes[1].Message(), fmt.Sprintf(`"c%d" answers no earlier tool call`, maxDroppedIDs+9))
}

// capture is the advisor Advisor, keeping the last linter it started.
type capture struct {
	advisor
	l *linter
}

func (c *capture) Notes(v normalize.View) normalize.Notes {
	n := c.advisor.Notes(v)
	c.l = n.(*linter)
	return n
}

package normalize

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReleaseKeepsNoInput: a released Result, which the pool keeps until a later Normalize
// takes it, holds nothing of the input it was read from (its scanner only forgets the input,
// without a Reset: Normalize resets it). No test of this package runs in parallel, so no
// other Normalize takes r from the pool meanwhile.
func TestReleaseKeepsNoInput(t *testing.T) {
	raw := []byte(`{"final_response":"x","messages":[{"role":"user","content":"hi"}],"metadata":{"model":"m"}}`)
	r, err := New().Normalize(raw)
	require.NoError(t, err)
	r.Release()
	require.Nil(t, r.s.Data())
	key, _ := r.s.Key()
	require.Nil(t, key)
	require.Nil(t, r.s.Err())
	require.Nil(t, r.final)
	// The next Normalize reads its own input, whatever the pooled Result held.
	r2, err := New().Normalize([]byte(`"plain"`))
	require.NoError(t, err)
	defer r2.Release()
	require.Equal(t, `{"final_response":"plain","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}`, string(r2.AppendJSON(nil)))
}

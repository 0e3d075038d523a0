package normalize

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/dystopic/normalizer/internal/jsonscan"
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

// A final_response that readFinal rewrites goes into r.finalBuf, which Release keeps and the
// next rewrite reuses: a result cut at the cap made and zeroed some 200 KB for it each time.
func TestReadFinalReusesItsBuffer(t *testing.T) {
	over := func(c string) []byte { return []byte(`"` + strings.Repeat(c, MaxChars+10) + `"`) }
	r := new(Result)
	read := func(tok []byte) {
		r.s.Reset(tok, 8)
		r.final = nil
		r.readFinal(jsonscan.Span{Start: 0, End: len(tok)}, 0)
		require.True(t, r.truncated)
	}
	read(over("a"))
	buf := unsafe.SliceData(r.final)
	read(over("b"))
	require.Same(t, buf, unsafe.SliceData(r.final), "the second rewrite reuses the first one's buffer")
	require.Equal(t, `"`+strings.Repeat("b", MaxChars)+TruncationMarker+`"`, string(r.final))

	res, err := New().Normalize([]byte(`{"final_response":` + string(over("c")) + `}`))
	require.NoError(t, err)
	kept := unsafe.SliceData(res.finalBuf)
	require.NotNil(t, kept)
	res.Release()
	require.Same(t, kept, unsafe.SliceData(res.finalBuf), "Release keeps the buffer")
}

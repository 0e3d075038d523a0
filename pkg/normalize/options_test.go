package normalize_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// The zero Normalizer works as New() does: the default depth, size and warning limits. It used
// to reject every result object with "nesting deeper than 0 levels" and have no other limit.
func TestZeroNormalizerIsNew(t *testing.T) {
	var zero normalize.Normalizer
	deep := func(levels int) string { // a result nesting levels deep, itself included
		return `{"final_response":"a","metadata":{"x":` + strings.Repeat("[", levels-2) + strings.Repeat("]", levels-2) + `}}`
	}
	many := `{"final_response":"a","messages":[` + strings.Repeat(`1,`, normalize.DefaultMaxWarnings+5) + `1]}`
	for _, raw := range []string{
		`{"final_response":"ok","messages":[{"role":"user","content":"hi"}],"metadata":{"model":"m"}}`,
		deep(normalize.DefaultMaxDepth), deep(normalize.DefaultMaxDepth + 1), many,
	} {
		want, wantErr := normalize.New().AppendOutput(nil, []byte(raw))
		got, err := zero.AppendOutput(nil, []byte(raw))
		assert.Equal(t, string(want), string(got), "%.60s", raw)
		assert.Equal(t, wantErr, err)
	}
	_, err := zero.Normalize([]byte(deep(normalize.DefaultMaxDepth + 1)))
	var syn *normalize.InvalidJSONError
	require.True(t, errors.As(err, &syn))
	assert.True(t, syn.TooDeep)
	res, err := zero.Normalize([]byte(many))
	require.NoError(t, err)
	assert.Positive(t, res.WarningsNotListed(), "the default warning limit applies")
	_, err = zero.Normalize(make([]byte, normalize.DefaultMaxBytes+1))
	var large *normalize.PayloadTooLargeError
	require.True(t, errors.As(err, &large), "%v", err)
	assert.Equal(t, int64(normalize.DefaultMaxBytes), large.Limit)
	assert.Equal(t, normalize.New().PeakHeapRatio(), zero.PeakHeapRatio())
}

// WithMaxDepth(n <= 0) is the default depth, not 1 (which rejected every result with messages
// or metadata) and not "no limit".
func TestMaxDepthZeroIsDefault(t *testing.T) {
	ok := `{"final_response":"a","metadata":{"x":[[1]]}}`
	tooDeep := `{"final_response":"a","metadata":` + strings.Repeat("[", normalize.DefaultMaxDepth) + strings.Repeat("]", normalize.DefaultMaxDepth) + `}`
	for _, n := range []int{0, -1} {
		_, err := normalize.Normalize([]byte(ok), normalize.WithMaxDepth(n))
		require.NoError(t, err, "WithMaxDepth(%d)", n)
		_, err = normalize.Normalize([]byte(tooDeep), normalize.WithMaxDepth(n))
		var syn *normalize.InvalidJSONError
		require.True(t, errors.As(err, &syn), "WithMaxDepth(%d): %v", n, err)
		assert.Contains(t, syn.Reason, fmt.Sprintf("nesting deeper than %d levels", normalize.DefaultMaxDepth))
	}
}

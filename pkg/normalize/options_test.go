package normalize_test

import (
	"errors"
	"fmt"
	"math"
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

// The limit options share one rule: n <= 0 is the default limit, not "no limit" and not a
// limit of 0 (WithMaxDepth(0) used to be the default while WithMaxBytes(0) and
// WithMaxWarnings(0) were no limit). Each is tested at its default and one past it.
func TestLimitOptionsZeroIsDefault(t *testing.T) {
	deep := func(levels int) string { // a result nesting levels deep, itself included
		return `{"final_response":"a","metadata":{"x":` + strings.Repeat("[", levels-2) + strings.Repeat("]", levels-2) + `}}`
	}
	warnings := func(n int) string { // a result with n invalid messages, a warning each
		return `{"final_response":"a","messages":[` + strings.Repeat(`1,`, n-1) + `1]}`
	}
	big := func(size int) string { return `"` + strings.Repeat("a", size-2) + `"` }
	for _, n := range []int{0, -1} {
		_, err := normalize.Normalize([]byte(deep(normalize.DefaultMaxDepth)), normalize.WithMaxDepth(n))
		require.NoError(t, err, "WithMaxDepth(%d)", n)
		_, err = normalize.Normalize([]byte(deep(normalize.DefaultMaxDepth+1)), normalize.WithMaxDepth(n))
		var syn *normalize.InvalidJSONError
		require.True(t, errors.As(err, &syn), "WithMaxDepth(%d): %v", n, err)
		assert.Contains(t, syn.Reason, fmt.Sprintf("nesting deeper than %d levels", normalize.DefaultMaxDepth))

		_, err = normalize.Normalize([]byte(big(normalize.DefaultMaxBytes)), normalize.WithMaxBytes(int64(n)))
		require.NoError(t, err, "WithMaxBytes(%d)", n)
		_, err = normalize.Normalize([]byte(big(normalize.DefaultMaxBytes+1)), normalize.WithMaxBytes(int64(n)))
		var large *normalize.PayloadTooLargeError
		require.True(t, errors.As(err, &large), "WithMaxBytes(%d): %v", n, err)
		assert.Equal(t, int64(normalize.DefaultMaxBytes), large.Limit)

		res, err := normalize.Normalize([]byte(warnings(normalize.DefaultMaxWarnings)), normalize.WithMaxWarnings(n))
		require.NoError(t, err)
		assert.Len(t, res.Warnings(), normalize.DefaultMaxWarnings, "WithMaxWarnings(%d)", n)
		assert.Zero(t, res.WarningsNotListed())
		res, err = normalize.Normalize([]byte(warnings(normalize.DefaultMaxWarnings+1)), normalize.WithMaxWarnings(n))
		require.NoError(t, err)
		assert.Len(t, res.Warnings(), normalize.DefaultMaxWarnings+1, "WithMaxWarnings(%d): the limit, and warnings_limited", n)
		assert.Equal(t, 1, res.WarningsNotListed(), "WithMaxWarnings(%d)", n)
	}
}

// No limit is the largest value: every warning listed, input past the default size read.
func TestLimitOptionsLargest(t *testing.T) {
	many := `{"final_response":"a","messages":[` + strings.Repeat(`1,`, normalize.DefaultMaxWarnings+5) + `1]}`
	res, err := normalize.Normalize([]byte(many), normalize.WithMaxWarnings(math.MaxInt))
	require.NoError(t, err)
	assert.Len(t, res.Warnings(), normalize.DefaultMaxWarnings+6)
	assert.Zero(t, res.WarningsNotListed())
	_, err = normalize.Normalize([]byte(`"`+strings.Repeat("a", normalize.DefaultMaxBytes)+`"`), normalize.WithMaxBytes(math.MaxInt64))
	require.NoError(t, err)
}

//go:build unix

package batch

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mapRegion rounds a size up to regionStep, gives zeroed memory that can be written to its
// end, and refuses sizes it cannot map.
func TestMapRegion(t *testing.T) {
	for _, tt := range []struct{ size, want int }{
		{1, regionStep},
		{regionStep - 1, regionStep},
		{regionStep, regionStep},
		{regionStep + 1, 2 * regionStep},
		{5 << 20, 3 * regionStep},
	} {
		m := mapRegion(tt.size)
		require.NotNil(t, m, "size %d", tt.size)
		assert.Equal(t, 0, len(m)-cap(m), "size %d: the whole region in len", tt.size)
		assert.Equal(t, tt.want, cap(m), "size %d", tt.size)
		assert.Zero(t, m[0]|m[len(m)-1], "size %d: zeroed", tt.size)
		m[0], m[len(m)-1] = 1, 1 // its first and last bytes are the process's
		unmapRegion(m)
	}
	for _, size := range []int{0, -1, math.MaxInt - regionStep + 1, math.MaxInt} {
		assert.Nil(t, mapRegion(size), "size %d", size)
	}
}

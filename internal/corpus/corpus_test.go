package corpus

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSizesAndValidity(t *testing.T) {
	for _, tt := range []struct {
		name     string
		doc      []byte
		min, max int
	}{
		{"small", Small(), 1800, 2600},
		{"medium", Medium(), 55 << 10, 70 << 10},
		{"large", Large(), 3 << 20, 4 << 20},
		{"dirty", Dirty(), 55 << 10, 70 << 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.True(t, json.Valid(tt.doc))
			require.GreaterOrEqual(t, len(tt.doc), tt.min)
			require.LessOrEqual(t, len(tt.doc), tt.max)
		})
	}
	require.Equal(t, Medium(), Medium(), "not deterministic")
}

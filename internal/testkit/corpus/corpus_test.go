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
		{"medium-python", MediumPython(), 60 << 10, 80 << 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.True(t, json.Valid(tt.doc))
			require.GreaterOrEqual(t, len(tt.doc), tt.min)
			require.LessOrEqual(t, len(tt.doc), tt.max)
		})
	}
	require.Equal(t, Medium(), Medium(), "not deterministic")
}

// TestPythonStyle checks that PythonStyle keeps the value and writes it as Python's json.dumps
// does by default: ASCII only, a space after each separator.
func TestPythonStyle(t *testing.T) {
	doc := Medium()
	py := PythonStyle(doc)
	var want, got any
	require.NoError(t, json.Unmarshal(doc, &want))
	require.NoError(t, json.Unmarshal(py, &got))
	require.Equal(t, want, got)
	for i, c := range py {
		require.Less(t, c, byte(0x80), "a non-ASCII byte at %d", i)
	}
	require.Contains(t, string(py), `{"final_response": "`)
	require.Contains(t, string(py), `\u6771\u4eac`) // 東京
	require.Equal(t, `["\ud83d\ude00", {"a": "\"\u00e9\\"}]`, string(PythonStyle([]byte(`["😀",{"a":"\"é\\"}]`))))
}

package normalize_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/heaptest"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// TestMemoryBound: for a 20 MiB result, the peak heap while normalizing and writing the record,
// the input and the record included, stays under three times the input, whatever shape the
// 20 MiB takes.
func TestMemoryBound(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("builds 20 MiB inputs and measures the heap: run without -short and -race (scripts/test.sh does)")
	}
	const size = 20 << 20
	tiny := func(sep string) []byte {
		var b bytes.Buffer
		b.WriteString(`{"final_response":"ok","messages":[`)
		for b.Len() < size-64 {
			b.WriteString(`{"role":"user","content":"x"}` + sep)
		}
		b.WriteString(`{"role":"user","content":"x"}]}`)
		return b.Bytes()
	}
	pretty := func() []byte {
		var b bytes.Buffer
		b.WriteString("{\"final_response\": \"ok\",\n\"messages\": [\n")
		for b.Len() < size-128 {
			b.WriteString("  { \"role\": \"user\", \"content\": \"x\" },\n")
		}
		b.WriteString("  { \"role\": \"user\", \"content\": \"x\" }\n]}")
		return b.Bytes()
	}
	calls := func() []byte {
		var b bytes.Buffer
		b.WriteString(`{"final_response":"ok","messages":[`)
		for b.Len() < size-256 {
			b.WriteString(`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},`)
		}
		b.WriteString(`{"role":"user","content":"x"}]}`)
		return b.Bytes()
	}
	tests := []struct {
		name string
		doc  func() []byte
	}{
		{"tiny messages", func() []byte { return tiny(",") }},
		{"tiny messages, one per line", func() []byte { return tiny(",\n") }},
		{"pretty tiny messages", pretty},
		{"tiny tool calls", calls},
		{"huge final_response", func() []byte {
			return []byte(`{"final_response":"` + strings.Repeat("ab\\n", size/4-10) + `"}`)
		}},
		{"huge metadata", func() []byte {
			return []byte(`{"final_response":"ok","metadata":{` + strings.Repeat(`"k":1,`, size/6-10) + `"k":2}}`)
		}},
	}
	n := normalize.New(normalize.WithMaxBytes(size))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := tt.doc()
			require.LessOrEqual(t, len(doc), size)
			var out []byte
			extra := heaptest.Peak(func() {
				res, err := n.Normalize(doc)
				require.NoError(t, err)
				out = res.AppendJSON(make([]byte, 0, res.SizeHint()))
			})
			require.NotEmpty(t, out)
			ratio := float64(uint64(len(doc))+extra) / float64(len(doc))
			t.Logf("%s: %d bytes in, peak heap %.2fx the input (input and record included)", tt.name, len(doc), ratio)
			require.Less(t, ratio, 3.0)
		})
	}
}

package viewer

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/heaptest"
)

// stream writes size bytes of lines of lineBytes each into a pipe, made as they are read: the
// test itself holds one line, never the input.
func stream(size, lineBytes int) io.Reader {
	pr, pw := io.Pipe()
	line := []byte(`{"final_response":"` + strings.Repeat("x", lineBytes-len(`{"final_response":"","metadata":{"k":1,"k":2}}`)-1) + `","metadata":{"k":1,"k":2}}` + "\n")
	go func() {
		for written := 0; written < size; written += len(line) {
			if _, err := pw.Write(line); err != nil {
				return
			}
		}
		pw.Close()
	}()
	return pr
}

// The index holds where each line is and its summary, never the lines: indexing a stream of
// 64 MiB takes no more heap than a quarter of it, and 4 times the stream (4 times the lines,
// in lines of the same size) takes no more than the smaller one's heap and the items'
// summaries. Heap, not time: a busy machine moves neither figure.
func TestIndexMemory(t *testing.T) {
	if !heaptest.Alone(t) {
		return
	}
	const lineBytes = 256 << 10
	peak := func(size int) (uint64, int) {
		var ix *Index
		p := heaptest.Peak(func() {
			var err error
			ix, err = scanLines(context.Background(), stream(size, lineBytes), Options{Workers: 2, MaxBytes: 1 << 20})
			require.NoError(t, err)
		})
		n := ix.Len()
		for i := range ix.items {
			require.Equal(t, int64(lineBytes-1), ix.items[i].size)
		}
		require.Len(t, ix.sets, 1)
		require.NotZero(t, ix.items[0].warnings, "the duplicate key is seen")
		return p, n
	}
	small, smallLines := peak(16 << 20)
	big, bigLines := peak(64 << 20)
	t.Logf("heap peak: %d bytes for %d lines of %d bytes, %d for %d lines", small, smallLines, lineBytes, big, bigLines)
	require.Equal(t, 4*smallLines, bigLines)
	assert.Less(t, big, uint64(16<<20), "indexing 64 MiB held a quarter of it or more")
	assert.Less(t, big, 2*small, "4x the lines took 2x the heap or more: memory grows with the input")
}

package batch

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// chunkEndRef is chunkEnd as its doc comment says it, counting every line of the chunk.
func chunkEndRef(data []byte, start, size int) int {
	end := len(data)
	if size < end-start {
		if i := bytes.IndexByte(data[start+size:], '\n'); i >= 0 {
			end = start + size + i + 1
		}
	}
	if bytes.Count(data[start:end], newline) > maxChunkLines {
		end = start + afterLines(data[start:end], maxChunkLines)
	}
	return end
}

// chunkEnd counts lines only up to the chunk's size, and cuts where counting them all would:
// inputs of empty lines around maxChunkLines, long lines past the size, no final "\n".
func TestChunkEnd(t *testing.T) {
	// maxChunkLines lines up to the size, and the "\n" past it one too many.
	lf := bytes.Repeat([]byte{'\n'}, 2*maxChunkLines)
	require.Equal(t, maxChunkLines, chunkEnd(lf, 0, maxChunkLines))
	require.Equal(t, maxChunkLines, chunkEnd(lf, 0, maxChunkLines-1), "the \n past the size makes maxChunkLines")

	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		var data []byte
		for len(data) < 64<<10 {
			switch rng.IntN(4) {
			case 0:
				data = append(data, bytes.Repeat([]byte{'\n'}, rng.IntN(2*maxChunkLines))...)
			case 1:
				data = append(data, bytes.Repeat([]byte{'x'}, rng.IntN(20000))...)
			default:
				data = append(data, bytes.Repeat([]byte("ab\n"), rng.IntN(maxChunkLines))...)
			}
		}
		if rng.IntN(2) == 0 {
			data = data[:len(data)-rng.IntN(100)]
		}
		size := 1 + rng.IntN(3*maxChunkLines)
		for start := 0; start < len(data); {
			want := chunkEndRef(data, start, size)
			require.Equal(t, want, chunkEnd(data, start, size), "start %d size %d", start, size)
			require.Greater(t, want, start)
			start = want
		}
	}
}

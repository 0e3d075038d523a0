package batch

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// chunkEndRef is chunkEnd as its doc comment says it.
func chunkEndRef(data []byte, start, size int) int {
	for i := start + size; i < len(data); i++ {
		if data[i] == '\n' {
			return i + 1
		}
	}
	return len(data)
}

// chunkEnd cuts after the first "\n" at or past the size: inputs of empty lines, long lines
// past the size, no final "\n".
func TestChunkEnd(t *testing.T) {
	lf := bytes.Repeat([]byte{'\n'}, 2*maxChunkLines)
	require.Equal(t, 2*maxChunkLines, chunkEnd(lf, 0, 2*maxChunkLines))
	require.Equal(t, maxChunkLines, chunkEnd(lf, 0, maxChunkLines-1), "the \n at the size ends the chunk")

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

// lastLineEnd finds the last "\n" as bytes.LastIndexByte does, wherever it is against its
// windows: none, at either end, a window and more from the end.
func TestLastLineEnd(t *testing.T) {
	for _, size := range []int{0, 1, 255, 256, 257, 511, 512, 513, 4096} {
		b := bytes.Repeat([]byte{'x'}, size)
		require.Equal(t, -1, lastLineEnd(b), "size %d", size)
		for _, at := range []int{0, 1, size / 2, size - 257, size - 256, size - 255, size - 1} {
			if at < 0 || at >= size {
				continue
			}
			b := bytes.Clone(b)
			b[at] = '\n'
			require.Equal(t, at, lastLineEnd(b), "size %d at %d", size, at)
			if at > 0 {
				b[0] = '\n'
				require.Equal(t, at, lastLineEnd(b), "size %d at %d and 0", size, at)
			}
		}
	}
}

// Run, through reads of every size, and RunBytes cut inputs of many lines into chunks as
// normalizing the lines one by one does: chunks of maxChunkLines lines and more, lines that
// go past a read or a chunk, "\r\n", no final "\n".
func TestManyLines(t *testing.T) {
	const limit = 64
	n := normalize.New(normalize.WithMaxBytes(limit))
	rng := rand.New(rand.NewPCG(3, 4))
	for range 6 {
		var data []byte
		for len(data) < 128<<10 {
			switch rng.IntN(5) {
			case 0:
				data = append(data, bytes.Repeat([]byte{'\n'}, rng.IntN(3*maxChunkLines))...)
			case 1:
				data = append(data, bytes.Repeat([]byte{'x'}, rng.IntN(20000))...)
			case 2:
				data = append(data, bytes.Repeat([]byte("\"a\"\r\n"), rng.IntN(maxChunkLines))...)
			default:
				data = append(data, bytes.Repeat([]byte("{\"final_response\":\"b\"}\n"), rng.IntN(maxChunkLines))...)
			}
		}
		if rng.IntN(2) == 0 {
			data = data[:len(data)-rng.IntN(100)]
		}
		want := sequential(n, splitLines(string(data)), limit)
		opts := Options{Workers: 1 + rng.IntN(3), ChunkBytes: 1 + rng.IntN(64<<10), MaxLineBytes: limit}
		for name, r := range map[string]io.Reader{"whole reads": bytes.NewReader(data), "half reads": iotest.HalfReader(bytes.NewReader(data))} {
			var out bytes.Buffer
			_, err := Run(context.Background(), r, &out, n, opts)
			require.NoError(t, err)
			require.True(t, bytes.Equal(want, out.Bytes()), "Run, %s, %+v", name, opts)
		}
		var out bytes.Buffer
		_, err := RunBytes(context.Background(), data, &out, n, opts)
		require.NoError(t, err)
		require.True(t, bytes.Equal(want, out.Bytes()), "RunBytes, %+v", opts)
	}
}

// A chunk that ended far past its size makes the next ones larger, up to maxChunkGrowth times
// the configured size; one that ended near it changes nothing, and chunks never shrink.
func TestGrownChunk(t *testing.T) {
	const mib = 1 << 20
	require.Equal(t, mib, grownChunk(mib, 0, mib))
	require.Equal(t, mib, grownChunk(mib, mib/2, mib))
	require.Equal(t, 2*mib+2, grownChunk(mib, mib+1, mib))
	require.Equal(t, 4*mib, grownChunk(mib, 3*mib, mib), "bounded")
	require.Equal(t, 3*mib, grownChunk(3*mib, 2*mib/3, mib), "no shrinking")
	require.Equal(t, 4*mib, grownChunk(3*mib, 2*mib, mib))
	require.Equal(t, mib, grownChunk(mib, -5, mib), "the end of the input")
}

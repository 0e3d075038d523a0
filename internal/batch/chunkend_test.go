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

// chunkEndRef is chunkEnd as its doc comment says it, counting every line of the chunk.
func chunkEndRef(data []byte, start, size int) int {
	end := len(data)
	if size < end-start {
		if i := bytes.IndexByte(data[start+size:], '\n'); i >= 0 {
			end = start + size + i + 1
		}
	}
	if bytes.Count(data[start:end], []byte{'\n'}) > maxChunkLines {
		end = start
		for range maxChunkLines {
			end += bytes.IndexByte(data[end:], '\n') + 1
		}
	}
	return end
}

// chunkEnd cuts where counting every line would, and finds every "\n" before its end:
// inputs of empty lines around maxChunkLines, long lines past the size, no final "\n".
func TestChunkEnd(t *testing.T) {
	// maxChunkLines lines up to the size, and the "\n" past it one too many.
	lf := bytes.Repeat([]byte{'\n'}, 2*maxChunkLines)
	end, _ := chunkEnd(lf, 0, maxChunkLines, nil)
	require.Equal(t, maxChunkLines, end)
	end, _ = chunkEnd(lf, 0, maxChunkLines-1, nil)
	require.Equal(t, maxChunkLines, end, "the \n past the size makes maxChunkLines")

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
			end, ends := chunkEnd(data, start, size, nil)
			require.Equal(t, want, end, "start %d size %d", start, size)
			var wantEnds []int
			for i, b := range data[start:end] {
				if b == '\n' {
					wantEnds = append(wantEnds, i)
				}
			}
			require.Equal(t, wantEnds, ends, "start %d size %d", start, size)
			require.Greater(t, want, start)
			start = want
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

package batch

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/jsonlgen"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// held runs the pipeline on size bytes of generated lines, streamed, and returns the bytes
// its buffers hold at the end: none is let go but one replaced by a larger (up to
// maxKeptBytes, past which none of these lines takes them), so this is the most the run held.
func held(t *testing.T, size int64, workers int) int {
	pr, pw := io.Pipe()
	go func() {
		_, err := jsonlgen.Write(pw, size, 5, true)
		pw.CloseWithError(err)
	}()
	p := newPipeline(normalize.New(), Options{Workers: workers}, new(buffers), streamSpare)
	stats, err := p.run(context.Background(), func(ctx context.Context) error { return p.read(ctx, pr) }, io.Discard)
	require.NoError(t, err)
	require.GreaterOrEqual(t, stats.BytesIn, size)
	return p.bufs.held() // every chunk is free, its buffers given back
}

// The memory of a run does not grow with its input: the chunks are made once and their
// buffers reused, so four times the lines take no more buffer bytes than the number of
// chunks and the longest lines decide, and two workers at most twice what one takes.
func TestMemoryFlat(t *testing.T) {
	const size = 8 << 20
	one, four := held(t, size, 1), held(t, 4*size, 1)
	t.Logf("buffers: %d bytes for %d MiB of lines, %d for %d MiB", one, size>>20, four, 4*size>>20)
	assert.LessOrEqual(t, four, 2*one, "4x the input took more than 2x the buffers")
	two := held(t, 4*size, 2)
	t.Logf("buffers with 2 workers: %d bytes", two)
	assert.LessOrEqual(t, two, 2*four, "2 workers took more than 2x the buffers of 1")
	assert.LessOrEqual(t, two, 5*2*maxKeptBytes, "over what 5 chunks may keep")
}

// A run over an input in memory has one chunk per worker and one more, the one being written:
// the reader hands chunks over with no read, so a second spare chunk would only be one more
// output buffer whose pages are new to the process. Over many chunks of lines of every size,
// the run makes no more output buffers than that, and writes one output line per input line.
func TestMemoryRunBuffers(t *testing.T) {
	var in bytes.Buffer
	_, err := jsonlgen.Write(&in, 12<<20, 7, false)
	require.NoError(t, err)
	want := lineCount(in.Bytes())
	for _, workers := range []int{1, 2, 3} {
		b := new(buffers)
		p := newPipeline(normalize.New(), Options{Workers: workers, ChunkBytes: 256 << 10}, b, memorySpare)
		var out bytes.Buffer
		stats, err := p.run(context.Background(), func(ctx context.Context) error { return p.readBytes(ctx, in.Bytes()) }, &out)
		require.NoError(t, err)
		require.Equal(t, want, stats.Lines)
		require.Equal(t, want, lineCount(out.Bytes()))
		assert.Len(t, p.chunks, workers+1)
		assert.LessOrEqual(t, b.made, workers+1, "%d workers: output buffers made", workers)
	}
}

func lineCount(b []byte) int64 { return int64(bytes.Count(b, []byte{'\n'})) }

package batch

import (
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
	p := newPipeline(normalize.New(), Options{Workers: workers}, new(buffers))
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

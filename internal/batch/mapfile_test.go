//go:build unix

package batch

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/jsonlgen"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// A mapped file gives what Run gives on it, from the file's offset, and leaves the offset
// after its end.
func TestMapFile(t *testing.T) {
	var input bytes.Buffer
	_, err := jsonlgen.Write(&input, 1<<20, 9, true)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "in.jsonl")
	require.NoError(t, os.WriteFile(path, input.Bytes(), 0o600))
	n := normalize.New()
	for _, off := range []int64{0, 1, 4097} {
		f, err := os.Open(path)
		require.NoError(t, err)
		_, err = f.Seek(off, io.SeekStart)
		require.NoError(t, err)
		m, err := MapFile(f)
		require.NoError(t, err)
		require.Equal(t, input.Bytes()[off:], m.Bytes())
		var got, want bytes.Buffer
		_, err = RunBytes(context.Background(), m.Bytes(), &got, n, Options{Progress: func(s Stats) { m.Drop(s.BytesIn) }})
		require.NoError(t, err)
		require.NoError(t, m.Close())
		_, err = Run(context.Background(), bytes.NewReader(input.Bytes()[off:]), &want, n, Options{})
		require.NoError(t, err)
		assert.Equal(t, want.String(), got.String(), "offset %d", off)
		pos, err := f.Seek(0, io.SeekCurrent)
		require.NoError(t, err)
		assert.Equal(t, int64(input.Len()), pos)
		f.Close()
	}
}

// A mapped file cut short while it is read is a read error, not a crash.
func TestMapFileCutShort(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.jsonl")
	line := []byte(`{"final_response":"a"}` + "\n")
	require.NoError(t, os.WriteFile(path, bytes.Repeat(line, 100_000), 0o600))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	m, err := MapFile(f)
	require.NoError(t, err)
	defer m.Close()
	require.NoError(t, os.Truncate(path, 0)) // every page of the mapping is now past the end
	// -j 1 normalizes on the reader, -j 2 on workers.
	for _, workers := range []int{1, 2} {
		_, err = RunBytes(context.Background(), m.Bytes(), io.Discard, normalize.New(), Options{Workers: workers})
		require.ErrorIs(t, err, errFault, "-j %d", workers)
		assert.ErrorContains(t, err, "read input: ", "-j %d", workers)
	}
}

// A mapped file cut short in its middle gives the chunks before the cut, whole, then the
// error: at -j 1, where the lines are found as they are normalized, as at -j 2, where the
// reader finds them and the fault is the reader's.
func TestMapFileCutShortInMiddle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.jsonl")
	line := []byte(`{"final_response":"a"}` + "\n")
	data := bytes.Repeat(line, 100_000)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	var want bytes.Buffer
	_, err := RunBytes(context.Background(), data, &want, normalize.New(), Options{})
	require.NoError(t, err)
	var outs [2]bytes.Buffer
	var stats [2]Stats
	for i, workers := range []int{1, 2} {
		f, err := os.Open(path)
		require.NoError(t, err)
		m, err := MapFile(f)
		require.NoError(t, err)
		require.NoError(t, os.Truncate(path, 1<<20)) // a page boundary inside a line
		stats[i], err = RunBytes(context.Background(), m.Bytes(), &outs[i], normalize.New(), Options{Workers: workers, ChunkBytes: 64 << 10})
		require.ErrorIs(t, err, errFault, "-j %d", workers)
		require.NoError(t, m.Close())
		f.Close()
		require.NoError(t, os.WriteFile(path, data, 0o600))
	}
	assert.Equal(t, stats[1], stats[0])
	assert.True(t, bytes.Equal(outs[1].Bytes(), outs[0].Bytes()), "-j 1 and -j 2 wrote different bytes")
	assert.True(t, bytes.HasPrefix(want.Bytes(), outs[0].Bytes()))
	assert.Greater(t, stats[0].BytesIn, int64(1<<20-64<<10), "the chunks before the cut's were not all written")
	assert.LessOrEqual(t, stats[0].BytesIn, int64(1<<20))
}

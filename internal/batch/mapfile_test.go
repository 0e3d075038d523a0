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
	_, err = RunBytes(context.Background(), m.Bytes(), io.Discard, normalize.New(), Options{Workers: 2})
	require.ErrorIs(t, err, errFault)
	assert.ErrorContains(t, err, "read input: ")
}

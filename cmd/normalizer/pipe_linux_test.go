package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// growPipe gives a pipe pipeBytes of room, where the kernel allows it, and leaves anything else
// alone.
func TestGrowPipe(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	before, err := unix.FcntlInt(r.Fd(), unix.F_GETPIPE_SZ, 0)
	require.NoError(t, err)
	require.Less(t, before, pipeBytes, "a new pipe holds less than pipeBytes")
	growPipe(r)
	after, err := unix.FcntlInt(r.Fd(), unix.F_GETPIPE_SZ, 0)
	require.NoError(t, err)
	b, err := os.ReadFile("/proc/sys/fs/pipe-max-size")
	require.NoError(t, err)
	limit, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, after, min(pipeBytes, limit))

	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(path, []byte("{}\n"), 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	growPipe(f)                      // a regular file: nothing to do, no panic
	growPipe(strings.NewReader("x")) // no file at all
}

// normalize --jsonl gives a pipe on standard output pipeBytes of room too, so that whoever
// reads the records drains it less often; the single-input command leaves it alone.
func TestJSONLGrowsStdoutPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"final_response":"a"}`+"\n"), 0o644))
	b, err := os.ReadFile("/proc/sys/fs/pipe-max-size")
	require.NoError(t, err)
	limit, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	for _, tt := range []struct {
		args  []string
		grown bool
	}{
		{[]string{"normalize", "--jsonl", path}, true},
		{[]string{"normalize", path}, false},
	} {
		r, w, err := os.Pipe()
		require.NoError(t, err)
		before, err := unix.FcntlInt(r.Fd(), unix.F_GETPIPE_SZ, 0)
		require.NoError(t, err)
		var stderr strings.Builder
		require.NoError(t, run(context.Background(), tt.args, func(string) string { return "" }, strings.NewReader(""), w, &stderr), stderr.String())
		require.NoError(t, w.Close())
		after, err := unix.FcntlInt(r.Fd(), unix.F_GETPIPE_SZ, 0)
		require.NoError(t, err)
		out, err := io.ReadAll(r)
		require.NoError(t, err)
		r.Close()
		assert.Contains(t, string(out), `"final_response":"a"`, tt.args)
		if tt.grown {
			assert.GreaterOrEqual(t, after, min(pipeBytes, limit), tt.args)
		} else {
			assert.Equal(t, before, after, tt.args)
		}
	}
}

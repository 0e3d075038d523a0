package main

import (
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

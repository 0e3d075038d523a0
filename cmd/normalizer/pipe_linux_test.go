package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// fcntl runs fcntl(cmd, arg) on f's descriptor without Fd, which would make it blocking.
func fcntl(t *testing.T, f *os.File, cmd, arg int) (int, error) {
	t.Helper()
	rc, err := f.SyscallConn()
	require.NoError(t, err)
	var n int
	var ferr error
	require.NoError(t, rc.Control(func(fd uintptr) { n, ferr = unix.FcntlInt(fd, cmd, arg) }))
	return n, ferr
}

// growable skips the test where this process may not give a pipe pipeBytes (a user past its
// share of pipe memory, or pipe-max-size lowered below it without the right to pass it), and
// returns the size growPipe gets: pipeBytes, or what the kernel rounds it to.
func growable(t *testing.T) int {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	n, err := fcntl(t, r, unix.F_SETPIPE_SZ, pipeBytes)
	if err != nil {
		if limit := pipeMaxSize(); limit > 0 && limit < pipeBytes {
			if n, err = fcntl(t, r, unix.F_SETPIPE_SZ, limit); err == nil {
				return n
			}
		}
		t.Skipf("this process may not grow a pipe: %v", err)
	}
	return n
}

// growPipe gives a pipe pipeBytes of room, at either end, leaves its descriptor non-blocking
// (os.Pipe's are: Fd would have made it blocking), and leaves anything else alone.
func TestGrowPipe(t *testing.T) {
	want := growable(t)
	for _, end := range []string{"read", "write"} {
		r, w, err := os.Pipe()
		require.NoError(t, err)
		f := r
		if end == "write" {
			f = w
		}
		before, err := fcntl(t, f, unix.F_GETPIPE_SZ, 0)
		require.NoError(t, err)
		require.Less(t, before, pipeBytes, "a new pipe holds less than pipeBytes")
		growPipe(f)
		after, err := fcntl(t, f, unix.F_GETPIPE_SZ, 0)
		require.NoError(t, err)
		assert.Equal(t, want, after, end)
		flags, err := fcntl(t, f, unix.F_GETFL, 0)
		require.NoError(t, err)
		assert.NotZero(t, flags&unix.O_NONBLOCK, "%s end: growPipe made the descriptor blocking", end)
		r.Close()
		w.Close()
	}

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
	want := growable(t)
	path := filepath.Join(t.TempDir(), "in.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"final_response":"a"}`+"\n"), 0o644))
	for _, tt := range []struct {
		args  []string
		grown bool
	}{
		{[]string{"normalize", "--jsonl", path}, true},
		{[]string{"normalize", path}, false},
	} {
		r, w, err := os.Pipe()
		require.NoError(t, err)
		before, err := fcntl(t, r, unix.F_GETPIPE_SZ, 0)
		require.NoError(t, err)
		var stderr strings.Builder
		require.NoError(t, run(context.Background(), tt.args, func(string) string { return "" }, strings.NewReader(""), w, &stderr), stderr.String())
		after, err := fcntl(t, w, unix.F_GETPIPE_SZ, 0)
		require.NoError(t, err)
		flags, err := fcntl(t, w, unix.F_GETFL, 0)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		out, err := io.ReadAll(r)
		require.NoError(t, err)
		r.Close()
		assert.Contains(t, string(out), `"final_response":"a"`, tt.args)
		assert.NotZero(t, flags&unix.O_NONBLOCK, "%v: standard output made blocking", tt.args)
		if tt.grown {
			assert.Equal(t, want, after, tt.args)
		} else {
			assert.Equal(t, before, after, tt.args)
		}
	}
}

//go:build linux

// Linux: /proc/self/mem is a regular file whose first page cannot be read, by root too.

package golden

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckUnreadableCases: each case whose input or golden file cannot be read is one FAIL
// line with the reason, and the check goes on with the others, which still pass. None of them
// blocks the check (the named pipes are never waited on) and none is read past the limit.
func TestCheckUnreadableCases(t *testing.T) {
	const limit = 64
	tests := []struct {
		name string
		make func(t *testing.T, dir string) // makes DIR/x.input.json and DIR/x.golden.json, or one of them
		want string                         // the FAIL line, DIR the corpus
	}{
		{name: "input: a link to nothing",
			make: func(t *testing.T, dir string) { link(t, "missing.json", dir, "x.input.json") },
			want: "FAIL DIR/x.input.json: not checked: found a symbolic link to missing.json, which does not exist"},
		{name: "input: a link loop",
			make: func(t *testing.T, dir string) { link(t, "x.input.json", dir, "x.input.json") },
			want: "FAIL DIR/x.input.json: not checked: found a symbolic link loop (too many levels of symbolic links)"},
		{name: "input: a file that cannot be read",
			make: func(t *testing.T, dir string) { link(t, "/proc/self/mem", dir, "x.input.json") },
			want: "FAIL DIR/x.input.json: not checked: cannot be read: input/output error"},
		{name: "input: a named pipe",
			make: func(t *testing.T, dir string) {
				require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "x.input.json"), 0o644))
			},
			want: "FAIL DIR/x.input.json: not checked: found a named pipe; expected a regular file"},
		{name: "input: a link to a directory",
			make: func(t *testing.T, dir string) { link(t, ".", dir, "x.input.json") },
			want: "FAIL DIR/x.input.json: not checked: found a directory; expected a regular file"},
		{name: "input: over the limit",
			make: func(t *testing.T, dir string) { write(t, dir, "x.input.json", strings.Repeat("a", limit+1)) },
			want: "FAIL DIR/x.input.json: not checked: more than 64 bytes, over the limit of 64 bytes for a case file"},
		{name: "input: over the limit, of a size not known before it is read",
			make: func(t *testing.T, dir string) { link(t, "/proc/self/maps", dir, "x.input.json") },
			want: "FAIL DIR/x.input.json: not checked: more than 64 bytes, over the limit of 64 bytes for a case file"},
		{name: "golden: a link to nothing",
			make: func(t *testing.T, dir string) {
				write(t, dir, "x.input.json", "x")
				link(t, "gone.json", dir, "x.golden.json")
			},
			want: "FAIL DIR/x.input.json: not checked: x.golden.json: found a symbolic link to gone.json, which does not exist"},
		{name: "golden: a link loop",
			make: func(t *testing.T, dir string) {
				write(t, dir, "x.input.json", "x")
				link(t, "x.golden.json", dir, "x.golden.json")
			},
			want: "FAIL DIR/x.input.json: not checked: x.golden.json: found a symbolic link loop (too many levels of symbolic links)"},
		{name: "golden: a named pipe",
			make: func(t *testing.T, dir string) {
				write(t, dir, "x.input.json", "x")
				require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "x.golden.json"), 0o644))
			},
			want: "FAIL DIR/x.input.json: not checked: x.golden.json: found a named pipe; expected a regular file"},
		{name: "golden: a directory",
			make: func(t *testing.T, dir string) {
				write(t, dir, "x.input.json", "x")
				require.NoError(t, os.Mkdir(filepath.Join(dir, "x.golden.json"), 0o755))
			},
			want: "FAIL DIR/x.input.json: not checked: x.golden.json: found a directory; expected a regular file"},
		{name: "golden: over the limit and the output",
			make: func(t *testing.T, dir string) {
				write(t, dir, "x.input.json", "x")
				write(t, dir, "x.golden.json", strings.Repeat("X", limit+1))
			},
			want: "FAIL DIR/x.input.json: output differs from x.golden.json, which holds more than 64 bytes, the output 1; if the new output is right, update DIR/x.input.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := corpus(t, nil)
			tt.make(t, dir)
			var out bytes.Buffer
			opts := testOptions(&out)
			opts.MaxBytes = limit
			got, err := Check(context.Background(), []string{dir}, opts)
			require.NoError(t, err)
			assert.Equal(t, strings.ReplaceAll(tt.want, "DIR", dir)+"\n4 passed, 1 failed\n", out.String())
			assert.Equal(t, Report{Passed: 4, Failed: 1}, got)
		})
	}
}

// TestCheckUnreadableWithoutPermission: a file and a directory of mode 000. Permissions do not
// stop root, so this runs for other users only; /proc/self/mem above stands in for an
// unreadable file for everyone.
func TestCheckUnreadableWithoutPermission(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads a file of mode 000: TestCheckUnreadableCases reads /proc/self/mem instead")
	}
	dir := corpus(t, nil)
	write(t, dir, "x.input.json", "x")
	require.NoError(t, os.Chmod(filepath.Join(dir, "x.input.json"), 0))
	sub := filepath.Join(dir, "closed")
	require.NoError(t, os.Mkdir(sub, 0o755))
	write(t, sub, "y.input.json", "y")
	require.NoError(t, os.Chmod(sub, 0))
	t.Cleanup(func() { os.Chmod(sub, 0o755) })
	var out bytes.Buffer
	got, err := Check(context.Background(), []string{dir}, testOptions(&out))
	require.NoError(t, err)
	assert.Equal(t, strings.ReplaceAll("FAIL DIR/closed: not checked: cannot list the directory: permission denied\n"+
		"FAIL DIR/x.input.json: not checked: cannot be opened: permission denied\n4 passed, 2 failed\n", "DIR", dir), out.String())
	assert.Equal(t, 2, got.Failed)
}

// TestCheckUpdateCannotWrite: a golden file that cannot be written stops the check with the
// operand's error, after the cases checked so far. Root writes into a directory of mode 555,
// so this runs for other users only.
func TestCheckUpdateCannotWrite(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into a directory of mode 555")
	}
	dir := corpus(t, nil)
	write(t, dir, "stale/x.input.json", "x")
	require.NoError(t, os.Chmod(filepath.Join(dir, "stale"), 0o555))
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "stale"), 0o755) })
	var out bytes.Buffer
	opts := testOptions(&out)
	opts.Update = true
	got, err := Check(context.Background(), []string{dir}, opts)
	var oe *OperandError
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, dir, oe.Operand)
	assert.EqualError(t, err, dir+": open "+filepath.Join(dir, "stale", "x.golden.json")+": permission denied")
	assert.Equal(t, 4, got.Passed)
}

// TestCheckUpdateUnreadable: --update writes no golden file for a case it could not check (a
// link to nothing would be written through, a named pipe would block the write), and rewrites
// a golden file over the limit, which differs from the output.
func TestCheckUpdateUnreadable(t *testing.T) {
	dir := corpus(t, nil)
	write(t, dir, "a.input.json", "a")
	link(t, "gone.json", dir, "a.golden.json")
	write(t, dir, "b.input.json", "b")
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "b.golden.json"), 0o644))
	write(t, dir, "c.input.json", "c")
	write(t, dir, "c.golden.json", strings.Repeat("C", 100))
	var out bytes.Buffer
	opts := testOptions(&out)
	opts.MaxBytes, opts.Update = 64, true
	got, err := Check(context.Background(), []string{dir}, opts)
	require.NoError(t, err)
	assert.Equal(t, strings.ReplaceAll("FAIL DIR/a.input.json: not checked: a.golden.json: found a symbolic link to gone.json, which does not exist\n"+
		"FAIL DIR/b.input.json: not checked: b.golden.json: found a named pipe; expected a regular file\n"+
		"wrote DIR/c.golden.json\n1 golden file written, 4 unchanged\n5 passed, 2 failed\n", "DIR", dir), out.String())
	assert.Equal(t, Report{Passed: 5, Failed: 2, Written: 1}, got)
	assert.NoFileExists(t, filepath.Join(dir, "gone.json"))
	b, err := os.ReadFile(filepath.Join(dir, "c.golden.json"))
	require.NoError(t, err)
	assert.Equal(t, "C", string(b))
}

func link(t *testing.T, target, dir, name string) {
	t.Helper()
	require.NoError(t, os.Symlink(target, filepath.Join(dir, name)))
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
}

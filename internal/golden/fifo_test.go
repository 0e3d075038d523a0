//go:build unix

// Named pipes exist only where syscall.Mkfifo does: this file builds on unix systems only.

package golden

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckRefusesNamedPipes: a case file that is a named pipe is refused unread (opening it
// for reading without O_NONBLOCK would block until something writes to it) and fails its case;
// the check goes on. These reach the case itself: the golden files of a case named as an
// operand, which are not walked, and the input. A symbolic link to a regular golden file is
// read as that file.
func TestCheckRefusesNamedPipes(t *testing.T) {
	tests := []struct {
		name   string
		suffix string // Options.Suffix
		pipe   string // the case file made a named pipe
		want   string // the report, IN the case's input, PIPE the pipe
	}{
		{name: "golden json of a case operand", suffix: GoldenSuffix, pipe: "a.golden.json",
			want: "FAIL IN: not checked: a.golden.json: found a named pipe; expected a regular file\n0 passed, 1 failed; 1 NAME.golden.txt file not compared\n"},
		{name: "golden txt of a case operand", suffix: TextSuffix, pipe: "a.golden.txt",
			want: "FAIL IN: not checked: a.golden.txt: found a named pipe; expected a regular file\n0 passed, 1 failed; 1 NAME.golden.json file not compared\n"},
		// The golden file of the other kind is not read, but it is not counted as one either.
		{name: "other kind's golden txt of a case operand", suffix: GoldenSuffix, pipe: "a.golden.txt",
			want: "FAIL PIPE: not counted: found a named pipe; expected a regular file\n1 passed, 1 failed\n"},
		{name: "other kind's golden json of a case operand", suffix: TextSuffix, pipe: "a.golden.json",
			want: "FAIL PIPE: not counted: found a named pipe; expected a regular file\n1 passed, 1 failed\n"},
		{name: "input under a directory", suffix: GoldenSuffix, pipe: "a.input.json",
			want: "FAIL IN: not checked: found a named pipe; expected a regular file\n0 passed, 1 failed; 1 NAME.golden.txt file not compared\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"a.input.json": "a\n", "a.golden.json": "A\n", "a.golden.txt": "A\n"})
			in, pipe := filepath.Join(dir, "a.input.json"), filepath.Join(dir, tt.pipe)
			require.NoError(t, os.Remove(pipe))
			require.NoError(t, syscall.Mkfifo(pipe, 0o644))
			operand := in
			if tt.pipe == "a.input.json" {
				operand = dir // a named pipe as an operand is a usage error (TestResolveRefuses)
			}
			var out bytes.Buffer
			opts := testOptions(&out)
			opts.Suffix = tt.suffix
			err := notBlocked(t, pipe, func() error {
				_, err := Check(context.Background(), []string{operand}, opts)
				return err
			})
			require.NoError(t, err)
			assert.Equal(t, strings.NewReplacer("IN", in, "PIPE", pipe).Replace(tt.want), out.String())
		})
	}
	t.Run("a link to a regular golden file", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"a.input.json": "a\n", "real": "A\n"})
		require.NoError(t, os.Symlink("real", filepath.Join(dir, "a.golden.json")))
		var out bytes.Buffer
		got, err := Check(context.Background(), []string{filepath.Join(dir, "a.input.json")}, testOptions(&out))
		require.NoError(t, err)
		assert.Equal(t, Report{Passed: 1}, got)
	})
}

// notBlocked runs check, which must return without opening pipe. While it runs, the test looks
// for a reader of the pipe: opening its write end without blocking succeeds only while a
// reader has it open or waits in open for a writer (Linux). A reader found fails the test, and
// closing the write end again lets the reader see the end of the file, so the check ends.
// Nothing is timed: a slow check is only waited for, up to a 2-minute backstop.
func notBlocked(t *testing.T, pipe string, check func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- check() }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	backstop := time.After(2 * time.Minute)
	opened := false
	for {
		select {
		case err := <-done:
			if opened {
				t.Fatalf("the check opened the named pipe %s to read it (it returned %v)", pipe, err)
			}
			return err
		case <-tick.C:
		case <-backstop:
			t.Fatalf("the check did not end within 2 minutes, and had not opened the named pipe %s", pipe)
		}
		if f, err := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
			opened = true
		}
	}
}

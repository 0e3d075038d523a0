//go:build unix

// Named pipes exist only where syscall.Mkfifo does: this file builds on unix systems only.

package golden

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckRefusesNamedPipes: a case file that is a named pipe is refused before it is
// opened (opening it would block until something writes to it), as the case's error, which
// stops the check like any unreadable file. The directory walk refuses pipes by their names
// and types (TestScanDirRefuses); these reach the case itself: the golden files of a case
// named as an operand, which are not walked, and its input. A symbolic link to a regular
// golden file is read as that file.
func TestCheckRefusesNamedPipes(t *testing.T) {
	check := func(in string, opts Options) error {
		_, err := Check(context.Background(), []string{in}, opts)
		return err
	}
	tests := []struct {
		name   string
		suffix string // Options.Suffix
		pipe   string // the case file made a named pipe
		call   func(in string, opts Options) error
		prefix bool // the error starts with the operand, as Check's do
	}{
		{name: "golden json of a case operand", suffix: GoldenSuffix, pipe: "a.golden.json", call: check, prefix: true},
		{name: "golden txt of a case operand", suffix: TextSuffix, pipe: "a.golden.txt", call: check, prefix: true},
		// The golden file of the other kind is not read, but it is not counted as one either.
		{name: "other kind's golden txt of a case operand", suffix: GoldenSuffix, pipe: "a.golden.txt", call: check, prefix: true},
		{name: "other kind's golden json of a case operand", suffix: TextSuffix, pipe: "a.golden.json", call: check, prefix: true},
		{name: "input", suffix: GoldenSuffix, pipe: "a.input.json", call: func(in string, opts Options) error {
			var r Report
			return r.checkCase(in, opts) // Check's operand and walk checks refuse it sooner
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"a.input.json": "a\n", "a.golden.json": "A\n", "a.golden.txt": "A\n"})
			in, pipe := filepath.Join(dir, "a.input.json"), filepath.Join(dir, tt.pipe)
			require.NoError(t, os.Remove(pipe))
			require.NoError(t, syscall.Mkfifo(pipe, 0o644))
			var out bytes.Buffer
			opts := testOptions(&out)
			opts.Suffix = tt.suffix
			err := notBlocked(t, pipe, func() error { return tt.call(in, opts) })
			want := pipe + ": found a named pipe; expected a regular file"
			if tt.prefix {
				var oe *OperandError
				require.True(t, errors.As(err, &oe), "%v", err)
				want = in + ": " + want
			}
			require.EqualError(t, err, want)
			assert.Empty(t, out.String(), "a check stopped by an unreadable file has no summary")
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

// notBlocked runs check, which must return without opening pipe. A regression would block in
// open: the watchdog fails the test instead of hanging the run, then opens the pipe's other
// end so the blocked open returns and the goroutine ends.
func notBlocked(t *testing.T, pipe string, check func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- check() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		if f, err := os.OpenFile(pipe, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		<-done
		t.Fatalf("the check blocked on the named pipe %s", pipe)
		return nil
	}
}

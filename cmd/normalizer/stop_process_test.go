//go:build linux

// These tests run the real program (the test binary as main, as main_process_test.go does) on
// inputs that never end and stop it with signals. They need Linux: /proc/PID/io counts what a
// process read, and fcntl sets a pipe's size.

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// stopProcess is `normalizer ARGS...` in a child process, with the standard input and output
// a test gives it, and what the kernel counted of its reads once it exited.
type stopProcess struct {
	cmd    *exec.Cmd
	stderr *lockedBuffer
	stdout *lockedBuffer // nil when the test gave its own standard output
	exited chan struct{} // closed once the process exited and was reaped
	rchar  int64         // bytes it read (read(2) and the like), from /proc/PID/io
}

// startStop starts the program as startMain does (main_process_test.go), with stdin and
// stdout as given (nil: /dev/null, and a buffer), and no NORMALIZER_ variable set. It is killed
// when the test ends, should it still run.
func startStop(t *testing.T, stdin, stdout *os.File, args ...string) *stopProcess {
	t.Helper()
	p := &stopProcess{cmd: exec.Command(os.Args[0], args...), stderr: &lockedBuffer{}, exited: make(chan struct{})}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NORMALIZER_") {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	p.cmd.Env = append(p.cmd.Env, runMainEnv+"=1", "GORACE="+strings.TrimSpace("atexit_sleep_ms=0 "+os.Getenv("GORACE")))
	if stdin != nil {
		p.cmd.Stdin = stdin
	}
	if stdout != nil {
		p.cmd.Stdout = stdout
	} else {
		p.stdout = &lockedBuffer{}
		p.cmd.Stdout = p.stdout
	}
	p.cmd.Stderr = p.stderr
	require.NoError(t, p.cmd.Start())
	go func() {
		// Wait for the exit without reaping the process, so that its /proc entry still holds
		// its I/O counts; then reap it.
		var info unix.Siginfo
		if unix.Waitid(unix.P_PID, p.cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == nil {
			p.rchar = procRchar(p.cmd.Process.Pid)
		}
		_ = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
			return
		default:
		}
		_ = p.cmd.Process.Kill()
		<-p.exited
		t.Logf("killed %v; its stderr:\n%s", args, p.stderr.String())
	})
	return p
}

// procRchar is the rchar of /proc/PID/io: bytes the process read through read(2) and its
// kin, from any file; -1 when it cannot be read.
func procRchar(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/io")
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}

// stopWait bounds a wait for a child that should exit by itself or on a signal: far above
// what it takes (a fraction of a second), so only a process that does not stop reaches it.
const stopWait = 60 * time.Second

// wait waits for the process to exit and returns its exit code (-1 for a process a signal
// ended).
func (p *stopProcess) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.exited:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(stopWait):
		t.Fatalf("%v still running after %s; stderr:\n%s", p.cmd.Args[1:], stopWait, p.stderr.String())
		return -1
	}
}

// pipe returns a pipe's ends; both are closed when the test ends.
func pipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// pipeSize is how many bytes the pipe holds before a write blocks.
func pipeSize(t *testing.T, f *os.File) int {
	t.Helper()
	n, err := unix.FcntlInt(f.Fd(), unix.F_GETPIPE_SZ, 0)
	require.NoError(t, err)
	return n
}

const defaultLimit = 20 << 20 // normalize.DefaultMaxBytes: 20 MiB

// TestProcessNormalizeDevZero: /dev/zero never ends. normalize reads the limit plus one
// byte of it, no more, and rejects it at once as more than the limit. The bytes it read are
// the kernel's count, less what a run that reads no input reads (the program's own files).
func TestProcessNormalizeDevZero(t *testing.T) {
	empty := startStop(t, nil, nil, "normalize", os.DevNull)
	require.Equal(t, 1, empty.wait(t), "stderr:\n%s", empty.stderr.String())
	require.Positive(t, empty.rchar, "/proc/PID/io of the exited process")

	p := startStop(t, nil, nil, "normalize", "/dev/zero")
	require.Equal(t, 1, p.wait(t), "stderr:\n%s", p.stderr.String())
	want := fmt.Sprintf(`{"error":{"class":"PayloadTooLarge","message":"payload of more than %d bytes is over the limit of %d bytes; send a smaller result or raise the limit","limit":%d}}`+"\n",
		defaultLimit, defaultLimit, defaultLimit)
	assert.Equal(t, want, p.stdout.String())
	assert.Equal(t, fmt.Sprintf("normalizer: /dev/zero rejected: PayloadTooLarge: payload of more than %d bytes is over the limit of %d bytes; send a smaller result or raise the limit\n",
		defaultLimit, defaultLimit), p.stderr.String())
	read := p.rchar - empty.rchar
	t.Logf("read %d bytes (rchar %d, %d for no input)", read, p.rchar, empty.rchar)
	// The program's own reads differ a little from run to run (the race detector's, for one):
	// a page's worth of slack, far below any buffer that reading on would fill.
	assert.InDelta(t, defaultLimit+1, read, 4096, "bytes read of /dev/zero: the limit plus one")
}

// TestProcessNormalizeEndlessPipe: a pipe that never ends (`yes | normalizer normalize`).
// normalize reads the limit plus one byte and exits; the writer counts what it could write
// before the pipe broke: what was read plus what the pipe holds, at most.
func TestProcessNormalizeEndlessPipe(t *testing.T) {
	r, w := pipe(t)
	p := startStop(t, r, nil, "normalize")
	r.Close() // the child has its own copy: once it exits, writes fail with EPIPE
	holds := int64(pipeSize(t, w))
	chunk := []byte(strings.Repeat("y\n", 32<<10))
	var written int64
	for written < 4*defaultLimit { // a program that reads on gets its end of input here
		n, err := w.Write(chunk)
		written += int64(n)
		if err != nil {
			require.ErrorIs(t, err, unix.EPIPE)
			break
		}
	}
	w.Close()
	require.Equal(t, 1, p.wait(t), "stderr:\n%s", p.stderr.String())
	assert.Contains(t, p.stdout.String(), fmt.Sprintf(`"message":"payload of more than %d bytes is over the limit`, defaultLimit))
	assert.Contains(t, p.stderr.String(), "normalizer: standard input rejected: PayloadTooLarge: payload of more than 20971520 bytes")
	t.Logf("wrote %d bytes into a pipe of %d before it broke", written, holds)
	assert.LessOrEqual(t, written, int64(defaultLimit+1)+holds, "the program read past the limit plus one byte")
	assert.Greater(t, written, int64(defaultLimit), "the program stopped before the limit")
}

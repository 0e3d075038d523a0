//go:build linux

// These tests run the real program (the test binary as main, as main_process_test.go does) on
// inputs that never end and stop it with signals. They need Linux: /proc/PID/io counts what a
// process read, and fcntl sets a pipe's size.

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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

// signals are the two that stop a command, with the exit code and the name it reports.
var signals = []struct {
	sig  syscall.Signal
	name string
	code int
}{
	{syscall.SIGTERM, "SIGTERM", 143},
	{syscall.SIGINT, "SIGINT", 130},
}

// openWriter opens fifo's write end, which returns once the process has opened the read
// end (its signal handler is set up long before).
func openWriter(t *testing.T, p *stopProcess, fifo string) *os.File {
	t.Helper()
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		require.NoError(t, o.err)
		t.Cleanup(func() { o.f.Close() })
		return o.f
	case <-p.exited:
		// Unblock the open with a reader of our own, so that its goroutine ends.
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			defer r.Close()
		}
		t.Fatalf("%v exited %d before opening %s; stderr:\n%s", p.cmd.Args[1:], p.cmd.ProcessState.ExitCode(), fifo, p.stderr.String())
	case <-time.After(stopWait):
		t.Fatalf("%v did not open %s within %s", p.cmd.Args[1:], fifo, stopWait)
	}
	return nil
}

func mkfifo(t *testing.T) string {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "in.fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	return fifo
}

// TestProcessNormalizeFIFOSignals: a FIFO whose writer never closes it, and has sent part of
// a result. One SIGTERM or SIGINT ends the read: the exit code is the signal's, and stderr is
// one line that says what was interrupted.
func TestProcessNormalizeFIFOSignals(t *testing.T) {
	for _, s := range signals {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			fifo := mkfifo(t)
			p := startStop(t, nil, nil, "normalize", fifo)
			w := openWriter(t, p, fifo)
			// The open returned in the kernel; the program may not have seen it yet. Once it
			// has taken bytes from the FIFO, it is in its read.
			fill(t, w, ' ')
			_, err := w.WriteString(`{"final_response":"never ends`)
			require.NoError(t, err)
			require.NoError(t, p.cmd.Process.Signal(s.sig))
			assert.Equal(t, s.code, p.wait(t), "stderr:\n%s", p.stderr.String())
			assert.Equal(t, "normalizer: interrupted ("+s.name+") while reading "+fifo+"\n", p.stderr.String())
			assert.Empty(t, p.stdout.String())
		})
	}
}

// waitWchan waits until a thread of the process sleeps in the kernel function fn (its
// /proc/PID/task/TID/wchan), polling: there is no event to wait on for a blocked open.
func waitWchan(t *testing.T, p *stopProcess, fn string) {
	t.Helper()
	deadline := time.Now().Add(stopWait)
	tasks := "/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/task"
	for {
		ents, _ := os.ReadDir(tasks)
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(tasks, e.Name(), "wchan"))
			if err == nil && strings.Contains(string(b), fn) {
				return
			}
		}
		select {
		case <-p.exited:
			t.Fatalf("%v exited %d; stderr:\n%s", p.cmd.Args[1:], p.cmd.ProcessState.ExitCode(), p.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no thread of %v slept in %s within %s", p.cmd.Args[1:], fn, stopWait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestProcessNormalizeFIFOOpenSignal: a FIFO that no writer opens; the open itself waits
// (the kernel's wait_for_partner). SIGTERM ends it.
func TestProcessNormalizeFIFOOpenSignal(t *testing.T) {
	fifo := mkfifo(t)
	p := startStop(t, nil, nil, "normalize", fifo)
	waitWchan(t, p, "wait_for_partner")
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 143, p.wait(t), "stderr:\n%s", p.stderr.String())
	assert.Equal(t, "normalizer: interrupted (SIGTERM) while opening "+fifo+"\n", p.stderr.String())
}

// fill writes more than the pipe holds: the write returns only once the reader has taken
// some of it, so the process is reading.
func fill(t *testing.T, w *os.File, b byte) {
	t.Helper()
	_, err := w.Write(bytes.Repeat([]byte{b}, pipeSize(t, w)+1))
	require.NoError(t, err)
}

// TestProcessNormalizeStdinSignal: standard input that never ends, in a pipe.
func TestProcessNormalizeStdinSignal(t *testing.T) {
	for _, s := range signals {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			r, w := pipe(t)
			p := startStop(t, r, nil, "normalize")
			r.Close()
			fill(t, w, ' ') // whitespace: the start of a result
			require.NoError(t, p.cmd.Process.Signal(s.sig))
			assert.Equal(t, s.code, p.wait(t), "stderr:\n%s", p.stderr.String())
			assert.Equal(t, "normalizer: interrupted ("+s.name+") while reading standard input\n", p.stderr.String())
		})
	}
}

// waitFull waits until the pipe holds all it can: the process writing into it is blocked.
// It polls, there being no event for a pipe that turns full.
func waitFull(t *testing.T, p *stopProcess, r *os.File) {
	t.Helper()
	size := pipeSize(t, r)
	deadline := time.Now().Add(stopWait)
	for {
		n, err := unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ)
		require.NoError(t, err)
		if n >= size {
			return
		}
		select {
		case <-p.exited:
			t.Fatalf("%v exited %d with %d bytes in the pipe; stderr:\n%s", p.cmd.Args[1:], p.cmd.ProcessState.ExitCode(), n, p.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pipe held %d of %d bytes after %s", n, size, stopWait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// smallPipe is a pipe that holds one page, so that a few KB of output fill it.
func smallPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w = pipe(t)
	_, err := unix.FcntlInt(w.Fd(), unix.F_SETPIPE_SZ, 4096)
	require.NoError(t, err)
	return r, w
}

// TestProcessNormalizeWriteSignal: standard output into a pipe that nobody reads; the write
// of the record blocks. SIGTERM ends it.
func TestProcessNormalizeWriteSignal(t *testing.T) {
	in := writeFile(t, "big.json", `{"final_response":"`+strings.Repeat("x", 20_000)+`"}`)
	r, w := smallPipe(t)
	p := startStop(t, nil, w, "normalize", in)
	w.Close()
	waitFull(t, p, r)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 143, p.wait(t), "stderr:\n%s", p.stderr.String())
	assert.Equal(t, "normalizer: interrupted (SIGTERM) while writing to standard output\n", p.stderr.String())
}

// TestProcessJSONLSignals: `normalize --jsonl` on a pipe that never ends. The answer to the
// first line comes out (so the pipeline waits for the next); then the signal ends the read,
// the summary is written, and the last line says how far it got.
func TestProcessJSONLSignals(t *testing.T) {
	for _, s := range signals {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			inR, inW := pipe(t)
			outR, outW := pipe(t)
			p := startStop(t, inR, outW, "normalize", "--jsonl")
			inR.Close()
			outW.Close()
			_, err := inW.WriteString(`{"final_response":"first"}` + "\n")
			require.NoError(t, err)
			line := make(chan string, 1)
			go func() {
				l, _ := bufio.NewReader(outR).ReadString('\n')
				line <- l
			}()
			select {
			case l := <-line:
				assert.Equal(t, `{"final_response":"first","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}`+"\n", l)
			case <-time.After(stopWait):
				t.Fatalf("no answer to the first line within %s", stopWait)
			}
			require.NoError(t, p.cmd.Process.Signal(s.sig))
			assert.Equal(t, s.code, p.wait(t), "stderr:\n%s", p.stderr.String())
			stderr := p.stderr.String()
			assert.Contains(t, stderr, "normalizer: 1 lines, ")
			assert.True(t, strings.HasSuffix(stderr, "\nnormalizer: interrupted ("+s.name+") after 1 line of standard input\n"), stderr)
			assert.Equal(t, 3, strings.Count(stderr, "\n"), "the summary's two lines and the reason: %s", stderr)
		})
	}
}

// TestProcessCheckSignal: `check` writing its report into a pipe that nobody reads. Once the
// write blocks, SIGTERM ends the blocked write, and the reason says how far the check got.
func TestProcessCheckSignal(t *testing.T) {
	dir := t.TempDir()
	for i := range 40 { // 40 mismatches, a diff each: far more than the pipe holds
		name := filepath.Join(dir, fmt.Sprintf("case%02d", i))
		require.NoError(t, os.WriteFile(name+".input.json", []byte(`{"final_response":"new"}`), 0o644))
		require.NoError(t, os.WriteFile(name+".golden.json", []byte(`{"final_response":"old"}`+"\n"), 0o644))
	}
	_, w := smallPipe(t)
	p := startStop(t, nil, w, "check", dir)
	w.Close()
	// The report is many small writes, and one that does not fit in what is left of the
	// pipe's page waits with the pipe not quite full: look at where the writer sleeps instead
	// (pipe_write; anon_pipe_write in newer kernels).
	waitWchan(t, p, "pipe_write")
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 143, p.wait(t), "stderr:\n%s", p.stderr.String())
	assert.Regexp(t, `^normalizer: check interrupted \(SIGTERM\) after \d+ cases? \(0 passed, \d+ failed\)\n$`, p.stderr.String())
}

// TestProcessHealthcheckSignal: healthcheck waiting for an answer that does not come (a
// listener of the test's that reads the request and never answers); SIGTERM ends the wait.
func TestProcessHealthcheckSignal(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	asked := make(chan struct{})
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		if l, err := bufio.NewReader(c).ReadString('\n'); err == nil && strings.HasPrefix(l, "GET /healthz ") {
			close(asked)
		}
		_, _ = io.Copy(io.Discard, c) // until the process is gone
	}()
	url := "http://" + ln.Addr().String() + "/healthz"
	p := startStop(t, nil, nil, "healthcheck", "--url", url, "--timeout", "1h")
	select {
	case <-asked:
	case <-p.exited:
		t.Fatalf("healthcheck exited %d; stderr:\n%s", p.cmd.ProcessState.ExitCode(), p.stderr.String())
	case <-time.After(stopWait):
		t.Fatalf("no request within %s", stopWait)
	}
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 143, p.wait(t), "stderr:\n%s", p.stderr.String())
	assert.Equal(t, "normalizer: healthcheck interrupted (SIGTERM) while waiting for "+url+"\n", p.stderr.String())
}

// TestProcessCheckUnreadable: `check` on a directory whose cases include a link to nothing, a
// link loop, a named pipe, an input of 1 GiB and a golden file of 1 GiB (sparse files: their
// size is known before they are read). Each is one failed case with its reason; the cases
// that pass still pass; exit 1, and the huge files are not read (the kernel's count of bytes
// read stays far below the 20 MiB limit).
func TestProcessCheckUnreadable(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a", "b"} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path+".input.json", []byte(okInput), 0o644))
		require.NoError(t, os.WriteFile(path+".golden.json", []byte(okRecord), 0o644))
	}
	in := func(name string) string { return filepath.Join(dir, name+".input.json") }
	require.NoError(t, os.Symlink("gone.json", in("broken")))
	require.NoError(t, os.Symlink("loop.input.json", in("loop")))
	require.NoError(t, syscall.Mkfifo(in("pipe"), 0o644))
	require.NoError(t, os.WriteFile(in("huge"), nil, 0o644))
	require.NoError(t, os.Truncate(in("huge"), 1<<30))
	require.NoError(t, os.WriteFile(in("huge-golden"), []byte(okInput), 0o644))
	hugeGolden := filepath.Join(dir, "huge-golden.golden.json")
	require.NoError(t, os.WriteFile(hugeGolden, nil, 0o644))
	require.NoError(t, os.Truncate(hugeGolden, 1<<30))

	p := startStop(t, nil, nil, "check", dir)
	require.Equal(t, 1, p.wait(t), "stdout:\n%s\nstderr:\n%s", p.stdout.String(), p.stderr.String())
	want := "FAIL " + in("broken") + ": not checked: found a symbolic link to gone.json, which does not exist\n" +
		"FAIL " + in("huge-golden") + ": output differs from huge-golden.golden.json, which holds more than 20971520 bytes, the output " +
		strconv.Itoa(len(okRecord)) + "; if the new output is right, run 'normalizer check --update " + in("huge-golden") + "'\n" +
		"FAIL " + in("huge") + ": not checked: more than 20971520 bytes, over the limit of 20971520 bytes for a case file\n" +
		"FAIL " + in("loop") + ": not checked: found a symbolic link loop (too many levels of symbolic links)\n" +
		"FAIL " + in("pipe") + ": not checked: found a named pipe; expected a regular file\n" +
		"2 passed, 5 failed\n"
	assert.Equal(t, want, p.stdout.String())
	assert.Empty(t, p.stderr.String())
	t.Logf("check read %d bytes", p.rchar)
	assert.Less(t, p.rchar, int64(1<<20), "check read the huge files")
}

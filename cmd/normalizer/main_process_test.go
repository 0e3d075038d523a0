package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/refused"
)

// runMainEnv makes the test binary the normalizer program: TestMain calls main() with the
// binary's own arguments instead of running tests. The tests below start the binary so, to
// exercise what only main does: its signal wiring and its exit codes.
// It does not start with NORMALIZER_: serve would warn that it sets nothing.
const runMainEnv = "TEST_NORMALIZER_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main() // calls os.Exit
		panic("main returned without os.Exit")
	}
	os.Exit(m.Run())
}

// procWait bounds every wait on a child process; far above what a run takes (well under a
// second each, with -race, a few on a busy machine), so only a hang hits it.
const procWait = 30 * time.Second

// mainProcess is the test binary running main() in a child process.
type mainProcess struct {
	cmd            *exec.Cmd
	stdout, stderr *lockedBuffer
	exited         chan struct{} // closed once the process has exited and its output is read
}

// startMain starts `normalizer ARGS...` with only env set among the NORMALIZER_ variables.
// The process is killed when the test ends, should it still run.
func startMain(t *testing.T, env map[string]string, args ...string) *mainProcess {
	t.Helper()
	p := &mainProcess{cmd: exec.Command(os.Args[0], args...), stdout: &lockedBuffer{}, stderr: &lockedBuffer{},
		exited: make(chan struct{})}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NORMALIZER_") {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	// With -race, a process exiting 0 sleeps atexit_sleep_ms (1 s) for late race reports; its
	// goroutines are done by then here. A race found still exits 66. GORACE's own options win.
	p.cmd.Env = append(p.cmd.Env, runMainEnv+"=1", "GORACE="+strings.TrimSpace("atexit_sleep_ms=0 "+os.Getenv("GORACE")))
	for k, v := range env {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	require.NoError(t, p.cmd.Start())
	go func() {
		_ = p.cmd.Wait() // the exit status is in cmd.ProcessState
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
			return
		default:
		}
		_ = p.cmd.Process.Kill()
		select {
		case <-p.exited:
		case <-time.After(procWait):
			t.Errorf("pid %d: still running %s after SIGKILL", p.cmd.Process.Pid, procWait)
		}
		t.Logf("killed %v; its stderr:\n%s", args, p.stderr.String())
	})
	return p
}

// exitCode waits for the process to exit and returns its exit code.
func (p *mainProcess) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case <-p.exited:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(procWait):
		t.Fatalf("%v did not exit within %s; stderr:\n%s", p.cmd.Args[1:], procWait, p.stderr.String())
		return -1
	}
}

func (p *mainProcess) running() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// listeningAddr waits for serve's "listening" log line on stderr and returns its address.
func (p *mainProcess) listeningAddr(t *testing.T) string {
	t.Helper()
	deadline := time.After(procWait)
	for {
		sc := bufio.NewScanner(strings.NewReader(p.stderr.String()))
		for sc.Scan() {
			var l struct{ Message, Addr string }
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Message == "listening" {
				return l.Addr
			}
		}
		select {
		case <-p.exited:
			t.Fatalf("serve exited %d before listening; stderr:\n%s", p.cmd.ProcessState.ExitCode(), p.stderr.String())
		case <-deadline:
			t.Fatalf("no listening line within %s; stderr:\n%s", procWait, p.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// probeClient opens a new connection per request, so an error means the listener is closed
// rather than a kept-alive connection being shut.
var probeClient = &http.Client{Timeout: procWait, Transport: &http.Transport{DisableKeepAlives: true}}

// pollReadyz polls /readyz until until() accepts its answer (status, or -1 when the request
// failed) and returns that answer; it fails the test after procWait.
func pollReadyz(t *testing.T, base string, until func(status int) bool) int {
	t.Helper()
	deadline := time.Now().Add(procWait)
	for {
		status := -1
		if res, err := probeClient.Get(base + "/readyz"); err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			status = res.StatusCode
		}
		if until(status) {
			return status
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz: last answer %d, still not the one awaited after %s", status, procWait)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// slowUpload is a POST /v1/normalize whose body the test sends in two halves.
type slowUpload struct {
	body   *io.PipeWriter
	inBody chan struct{} // closed when the server's handler starts reading the body
	done   chan slowResult
}

type slowResult struct {
	status int
	body   string
	err    error
}

// startSlowUpload sends the request headers with "Expect: 100-continue": the server answers
// 100 when the handler first reads the body, so the request is known to be in flight.
func startSlowUpload(t *testing.T, base string) *slowUpload {
	t.Helper()
	pr, pw := io.Pipe()
	u := &slowUpload{body: pw, inBody: make(chan struct{}), done: make(chan slowResult, 1)}
	t.Cleanup(func() { pw.CloseWithError(io.ErrUnexpectedEOF) })
	trace := &httptrace.ClientTrace{Got100Continue: func() { close(u.inBody) }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(t.Context(), trace), http.MethodPost, base+"/v1/normalize", pr)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Expect", "100-continue")
	client := &http.Client{Timeout: procWait, Transport: &http.Transport{ExpectContinueTimeout: procWait}}
	go func() {
		res, err := client.Do(req)
		if err != nil {
			u.done <- slowResult{err: err}
			return
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		u.done <- slowResult{status: res.StatusCode, body: string(b), err: err}
	}()
	select {
	case <-u.inBody:
	case r := <-u.done:
		t.Fatalf("slow upload ended before its body was read: %+v", r)
	case <-time.After(procWait):
		t.Fatalf("no 100 Continue within %s", procWait)
	}
	return u
}

// write sends part of the body; the transport reads the pipe, so this returns promptly.
func (u *slowUpload) write(t *testing.T, s string, last bool) {
	t.Helper()
	wrote := make(chan error, 1)
	go func() {
		_, err := u.body.Write([]byte(s))
		if err == nil && last {
			err = u.body.Close()
		}
		wrote <- err
	}()
	select {
	case err := <-wrote:
		require.NoError(t, err)
	case <-time.After(procWait):
		t.Fatalf("writing %q to the slow upload blocked for %s", s, procWait)
	}
}

func (u *slowUpload) result(t *testing.T) slowResult {
	t.Helper()
	select {
	case r := <-u.done:
		return r
	case <-time.After(procWait):
		t.Fatalf("no answer to the slow upload within %s", procWait)
		return slowResult{}
	}
}

// TestProcessServeSignals runs `normalizer serve` as its own process, main() and all, and stops
// it with a signal while a request is in flight: the listener closes, the request still
// completes, and the process exits 0. (TestProcessServeDrains covers the drain delay.)
func TestProcessServeSignals(t *testing.T) {
	tests := []struct {
		name   string
		signal syscall.Signal
	}{
		{name: "SIGTERM", signal: syscall.SIGTERM},
		{name: "SIGINT", signal: syscall.SIGINT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// The grace period only bounds a hang: the request in flight waits for the test.
			p := startMain(t, map[string]string{"NORMALIZER_SHUTDOWN_GRACE": "60s"},
				"serve", "--addr", "127.0.0.1:0", "--drain-delay", "0s")
			addr := p.listeningAddr(t)
			base := "http://" + addr
			pollReadyz(t, base, func(s int) bool { return s == 200 })

			res, err := probeClient.Post(base+"/v1/normalize", "application/json", strings.NewReader(`{"final_response":"PROCESS-ANSWER"}`))
			require.NoError(t, err)
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			require.NoError(t, err)
			require.Equal(t, 200, res.StatusCode, string(body))
			assert.Equal(t, `{"final_response":"PROCESS-ANSWER","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}`, string(body))

			hc := startMain(t, map[string]string{"NORMALIZER_ADDR": addr}, "healthcheck", "--timeout", "10s")
			require.Equal(t, 0, hc.exitCode(t), "healthcheck of the running serve; stderr:\n%s", hc.stderr.String())
			assert.Equal(t, "ok: "+base+"/healthz\n", hc.stdout.String())

			slow := startSlowUpload(t, base)
			slow.write(t, `{"final_response":"SLOW-`, false)
			port := portOf(t, addr)
			require.True(t, listeningOn(t, p.cmd.Process.Pid, port), "serve holds no listener on %s", addr)
			require.NoError(t, p.cmd.Process.Signal(tt.signal))

			// The listener closes (the process's own socket is looked at: the port, once free,
			// could be given to another process), while the request in flight holds it up.
			waitFor(t, "serve's listener to close", func() bool { return !listeningOn(t, p.cmd.Process.Pid, port) })
			require.True(t, p.running(), "serve exited with a request in flight; stderr:\n%s", p.stderr.String())

			slow.write(t, `ANSWER"}`, true)
			r := slow.result(t)
			require.NoError(t, r.err)
			assert.Equal(t, 200, r.status, r.body)
			assert.Equal(t, `{"final_response":"SLOW-ANSWER","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}`, r.body)

			require.Equal(t, 0, p.exitCode(t), "stderr:\n%s", p.stderr.String())
			logs := p.stderr.String()
			assert.Contains(t, logs, `"message":"stopped"`)
			assert.NotContains(t, logs, "ANSWER", "logs never carry a result's text")
		})
	}
}

// TestProcessServeDrains runs `normalizer serve` as its own process with a drain delay far
// longer than the test, and sends SIGTERM with a request in flight: readiness turns false
// while the listener still takes connections, and both the request in flight and a new one
// are served. Nothing is timed: for the hour of the delay every probe of /readyz is answered,
// 200 until serve has seen the signal and 503 after; a listener closed at once fails the
// probe. The process, still draining when the test ends, is killed then.
func TestProcessServeDrains(t *testing.T) {
	t.Parallel()
	p := startMain(t, map[string]string{"NORMALIZER_SHUTDOWN_GRACE": "60s"},
		"serve", "--addr", "127.0.0.1:0", "--drain-delay", "1h")
	base := "http://" + p.listeningAddr(t)
	pollReadyz(t, base, func(s int) bool { return s == 200 })
	slow := startSlowUpload(t, base)
	slow.write(t, `{"final_response":"SLOW-`, false)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))

	got := pollReadyz(t, base, func(s int) bool { return s != 200 })
	assert.Equal(t, 503, got, "readiness turns false, and the listener stays open for the drain delay")

	res, err := probeClient.Post(base+"/v1/normalize", "application/json", strings.NewReader(`{"final_response":"DRAIN-ANSWER"}`))
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, 200, res.StatusCode, "a request during the drain delay is served: %s", body)

	slow.write(t, `ANSWER"}`, true)
	r := slow.result(t)
	require.NoError(t, r.err)
	assert.Equal(t, 200, r.status, r.body)
	require.True(t, p.running(), "serve exited during its drain delay; stderr:\n%s", p.stderr.String())
	require.NoError(t, p.cmd.Process.Kill())
	<-p.exited
	assert.NotContains(t, p.stderr.String(), "ANSWER", "logs never carry a result's text")
}

// TestProcessServeDrainPooled sends POSTs from pooled keep-alive clients through a SIGTERM to
// `normalizer serve` in its own process: every request started gets its 200 and its record,
// and each client learns of the drain from an answer that says Connection: close, as a load
// balancer's client would, then stops sending. The drain delay outlasts the test, so the end
// of the drain (the idle connections closed, covered by internal/httpapi's
// TestDrainLosesNoRequest) does not come into it; nothing is timed.
func TestProcessServeDrainPooled(t *testing.T) {
	t.Parallel()
	const clients, warm = 8, 5 // warm: requests each before the signal, so each holds a connection
	p := startMain(t, map[string]string{"NORMALIZER_SHUTDOWN_GRACE": "60s"},
		"serve", "--addr", "127.0.0.1:0", "--drain-delay", "1h")
	base := "http://" + p.listeningAddr(t)
	pollReadyz(t, base, func(s int) bool { return s == 200 })

	transport := &http.Transport{MaxIdleConnsPerHost: clients, DisableCompression: true}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: procWait}
	const result = `{"final_response":"POOLED-ANSWER"}`
	const want = `{"final_response":"POOLED-ANSWER","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}`

	var warmed sync.WaitGroup
	warmed.Add(clients)
	type outcome struct {
		requests int
		closed   bool // the last answer said Connection: close
		err      error
	}
	outcomes := make(chan outcome, clients)
	for range clients {
		go func() {
			var o outcome
			defer func() { outcomes <- o }()
			for deadline := time.Now().Add(procWait); time.Now().Before(deadline); {
				o.requests++
				res, err := client.Post(base+"/v1/normalize", "application/json", strings.NewReader(result))
				if err != nil {
					o.err = fmt.Errorf("request %d: %w", o.requests, err)
					break
				}
				b, err := io.ReadAll(res.Body)
				res.Body.Close()
				if err == nil && (res.StatusCode != 200 || string(b) != want) {
					err = fmt.Errorf("%d %s", res.StatusCode, b)
				}
				if err != nil {
					o.err = fmt.Errorf("request %d: %w", o.requests, err)
					break
				}
				if o.requests == warm {
					warmed.Done()
				}
				if res.Close {
					o.closed = true
					break
				}
			}
			if o.requests < warm {
				warmed.Done()
			}
		}()
	}
	warmed.Wait()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	total := 0
	for range clients {
		o := <-outcomes
		total += o.requests
		assert.NoError(t, o.err, "a request started through the SIGTERM got no answer")
		assert.True(t, o.closed || o.err != nil, "a client saw no answer with Connection: close in %s", procWait)
	}
	t.Logf("%d requests from %d pooled clients, all answered", total, clients)
	assert.Equal(t, 503, pollReadyz(t, base, func(s int) bool { return s != 200 }), "serve drains")
	require.True(t, p.running(), "serve exited during its drain delay; stderr:\n%s", p.stderr.String())
	require.NoError(t, p.cmd.Process.Kill())
	<-p.exited
	assert.NotContains(t, p.stderr.String(), "POOLED-ANSWER", "logs never carry a result's text")
}

// portOf is the port of a host:port address.
func portOf(t *testing.T, addr string) int {
	t.Helper()
	_, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	n, err := strconv.Atoi(port)
	require.NoError(t, err)
	return n
}

// TestProcessExitCodes checks the codes main() exits with, and that it says why on stderr.
func TestProcessExitCodes(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0") // a port taken for as long as the test runs
	require.NoError(t, err)
	defer busy.Close()
	closedAddr := refused.Addr(t) // bound, never listening: connecting is refused

	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		wantCode   int
		wantStderr string
	}{
		{name: "no command", wantCode: 2, wantStderr: "Usage:"},
		{name: "unknown command", args: []string{"frobnicate"}, wantCode: 2, wantStderr: `unknown command "frobnicate"`},
		{name: "serve unknown flag", args: []string{"serve", "--no-such-flag"}, wantCode: 2, wantStderr: "no-such-flag"},
		{name: "serve bad value", args: []string{"serve", "--addr", "127.0.0.1:0", "--max-in-flight", "0"}, wantCode: 2,
			wantStderr: "--max-in-flight is 0"},
		{name: "serve port taken", args: []string{"serve", "--addr", busy.Addr().String()}, wantCode: 2,
			wantStderr: "listen on " + busy.Addr().String()},
		{name: "healthcheck negative timeout", args: []string{"healthcheck", "--timeout", "-1s"}, wantCode: 2,
			wantStderr: "--timeout is -1s"},
		{name: "healthcheck bad url", args: []string{"healthcheck", "--url", "://"}, wantCode: 2, wantStderr: `--url "://"`},
		{name: "healthcheck nothing listening", env: map[string]string{"NORMALIZER_ADDR": closedAddr},
			args: []string{"healthcheck"}, wantCode: 1, wantStderr: "GET http://" + closedAddr + "/healthz"},
		{name: "help", args: []string{"help"}, wantCode: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := startMain(t, tt.env, tt.args...)
			stderr := func() string { return p.stderr.String() }
			require.Equal(t, tt.wantCode, p.exitCode(t), "stderr:\n%s", stderr())
			assert.Contains(t, stderr(), tt.wantStderr)
		})
	}
}

// TestProcessServeFailureLogs runs serve as its own process, main() and all, with misspelt
// variables and a port it cannot listen on: stderr is JSON lines only (the warning about the
// variables, and the failure once, with no plain-text copy from main), and the exit code is 2.
func TestProcessServeFailureLogs(t *testing.T) {
	p := startMain(t, map[string]string{"NORMALIZER_BODYLIMIT": "1MiB", "NORMALIZER_MAX_INFLIGHT": "2",
		"NORMALIZER_SERVICE_HOST": "10.96.0.12", "NORMALIZER_PORT_80_TCP_ADDR": "10.96.0.12"},
		"serve", "--addr", "127.0.0.1:99999")
	require.Equal(t, 2, p.exitCode(t), "stderr:\n%s", p.stderr.String())
	var warned, failed []map[string]any
	for _, l := range logLines(t, p.stderr.String()) {
		switch l["level"] {
		case "warn":
			warned = append(warned, l)
		case "error":
			failed = append(failed, l)
		}
	}
	require.Len(t, warned, 1, p.stderr.String())
	assert.Equal(t, []any{"NORMALIZER_BODYLIMIT", "NORMALIZER_MAX_INFLIGHT"}, warned[0]["ignored_variables"])
	assert.Equal(t, map[string]any{"NORMALIZER_BODYLIMIT": "NORMALIZER_BODY_LIMIT", "NORMALIZER_MAX_INFLIGHT": "NORMALIZER_MAX_IN_FLIGHT"},
		warned[0]["did_you_mean"])
	require.Len(t, failed, 1, p.stderr.String())
	assert.Equal(t, "serve failed", failed[0]["message"])
	assert.Equal(t, "listen on 127.0.0.1:99999 (from --addr): listen tcp: address 99999: invalid port", failed[0]["error"])
}

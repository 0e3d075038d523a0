package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/httpapi"
)

// lockedBuffer is stderr for a server running in the test's process.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// startServe runs `normalizer serve` with args and env until ctx is done, logging into the
// buffer it returns; the channel gets run's result, and is closed after it.
func startServe(ctx context.Context, env map[string]string, args ...string) (*lockedBuffer, <-chan error) {
	logs := &lockedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve"}, args...), envOf(env), nil, io.Discard, logs)
		close(done)
	}()
	return logs, done
}

// listeningAddr waits for the server's "listening" log line and returns its address.
func listeningAddr(t *testing.T, logs *lockedBuffer, done <-chan error) string {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		sc := bufio.NewScanner(strings.NewReader(logs.String()))
		for sc.Scan() {
			var l struct{ Message, Addr string }
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Message == "listening" {
				return l.Addr
			}
		}
		select {
		case err := <-done:
			t.Fatalf("serve ended before listening: %v\n%s", err, logs.String())
		case <-deadline:
			t.Fatalf("no listening line in the logs:\n%s", logs.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(b)
}

// waitFor polls cond until it holds; it fails the test after 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestServeEndToEnd runs the real `serve` on 127.0.0.1:0, holds a request in flight, sends
// the process SIGTERM (through the same signal.NotifyContext wiring as main), and checks that
// the listener closes, the request completes, and serve exits 0. (TestProcessServeDrains
// checks readiness during the drain delay, through main.)
func TestServeEndToEnd(t *testing.T) {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	// The grace period only bounds a hang: the request in flight waits for the test.
	logs, done := startServe(ctx, map[string]string{"NORMALIZER_SHUTDOWN_GRACE": "60s", "NORMALIZER_ADDR": "127.0.0.1:1"},
		"--addr", "127.0.0.1:0", "--drain-delay", "0s")
	addr := listeningAddr(t, logs, done)
	base := "http://" + addr

	res, err := http.Post(base+"/v1/normalize", "application/json", strings.NewReader(`{"final_response":"E2E-ANSWER"}`))
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
	assert.Equal(t, `{"final_response":"E2E-ANSWER","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}`, string(body))
	code, _ := get(t, base+"/readyz")
	require.Equal(t, 200, code)
	require.NoError(t, run(ctx, []string{"healthcheck", "--url", base + "/healthz"}, envOf(nil), nil, io.Discard, io.Discard))

	// A slow request, known to be in flight once the handler reads its body: half of it now,
	// the rest after SIGTERM.
	slow := startSlowUpload(t, base)
	slow.write(t, `{"final_response":"SLOW-`, false)
	port := portOf(t, addr)
	require.True(t, listeningOn(t, os.Getpid(), port), "serve holds no listener on %s", addr)

	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	<-ctx.Done()
	waitFor(t, "serve's listener to close", func() bool { return !listeningOn(t, os.Getpid(), port) })

	slow.write(t, `ANSWER"}`, true)
	r := slow.result(t)
	require.NoError(t, r.err)
	assert.Equal(t, 200, r.status, r.body)
	assert.Contains(t, r.body, `"final_response":"SLOW-ANSWER"`)

	select {
	case err := <-done:
		require.NoError(t, err, logs.String())
		assert.Equal(t, 0, exitCode(err, io.Discard))
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not exit after SIGTERM")
	}
	assert.Contains(t, logs.String(), `"message":"stopped"`)
	assert.NotContains(t, logs.String(), "E2E-ANSWER", "logs never carry the result's text")
	assert.NotContains(t, logs.String(), "SLOW-", "logs never carry the result's text")
}

func TestServeGraceExceeded(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs, done := startServe(ctx, nil, "--addr", "127.0.0.1:0", "--shutdown-grace", "200ms")
	base := "http://" + listeningAddr(t, logs, done)
	stuck := startSlowUpload(t, base) // in flight once its handler reads the body
	stuck.write(t, `"never finished`, false)
	cancel()
	select {
	case err := <-done:
		require.ErrorContains(t, err, "grace period")
		var stderr bytes.Buffer
		assert.Equal(t, exitUsage, exitCode(err, &stderr), "a cut-off shutdown exits 2, as serve -h says")
		assert.Empty(t, stderr.String(), "the failure is in the log already: main prints nothing more")
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not exit after the grace period")
	}
	var failed []map[string]any
	for _, l := range logLines(t, logs.String()) {
		if l["message"] == "serve failed" {
			failed = append(failed, l)
		}
	}
	require.Len(t, failed, 1, logs.String())
	assert.Equal(t, "error", failed[0]["level"])
	assert.Equal(t, "serve", failed[0]["component"])
	assert.Equal(t, "shutdown: requests still in flight after the grace period of 200ms were cut off", failed[0]["error"])
}

// TestServeFailureIsOneLogLine: once serve's logger exists, a failure (here the listen) is one
// log line in the chosen format, and main adds nothing to stderr; the exit code stays 2.
func TestServeFailureIsOneLogLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{name: "json", args: []string{"serve", "--addr", "127.0.0.1:99999"}},
		{name: "console", args: []string{"serve", "--addr", "127.0.0.1:99999", "--log-format", "console"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", nil, tt.args...)
			assert.Equal(t, exitUsage, r.code)
			const reason = "listen on 127.0.0.1:99999 (from --addr): listen tcp: address 99999: invalid port"
			assert.Equal(t, 1, strings.Count(r.stderr, reason), "the reason once:\n%s", r.stderr)
			assert.NotContains(t, r.stderr, "normalizer: serve:", "no plain-text copy from main")
			if tt.name == "console" {
				assert.Regexp(t, `(?m)^\S+ ERR serve failed error="`+regexp.QuoteMeta(reason)+`" component=serve$`, r.stderr)
				return
			}
			lines := logLines(t, r.stderr) // every line is JSON
			last := lines[len(lines)-1]
			assert.Equal(t, map[string]any{"level": "error", "component": "serve", "error": reason, "message": "serve failed"},
				map[string]any{"level": last["level"], "component": last["component"], "error": last["error"], "message": last["message"]})
		})
	}
}

// millisTime is a time as httpapi.TimeFormat writes it: RFC 3339 with three fractional
// digits, "Z" for UTC, else the zone's offset.
var millisTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$`)

// TestServeLifecycleLines checks the fields of the start-up and shutdown lines: the version on
// "listening", durations named with their unit, and every line's time in milliseconds.
func TestServeLifecycleLines(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs, done := startServe(ctx, nil, "--addr", "127.0.0.1:0", "--drain-delay", "10ms", "--shutdown-grace", "1500ms")
	listeningAddr(t, logs, done)
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	byMessage := map[string]map[string]any{}
	for _, l := range logLines(t, logs.String()) {
		byMessage[l["message"].(string)] = l
		// httpapi.TimeFormat, which serve sets as zerolog's: milliseconds, in the local zone.
		assert.Regexp(t, millisTime, l["time"], "line %q", l["message"])
	}
	// Written as the access line's duration_ms is: three decimals, which decoding would hide.
	assert.Contains(t, logs.String(), `"drain_delay_ms":10.000,"grace_ms":1500.000,`)
	listening := byMessage["listening"]
	require.NotNil(t, listening, logs.String())
	assert.Equal(t, buildVersion(), listening["version"])
	assert.NotEmpty(t, listening["version"])

	shutdown := byMessage["shutting down: not ready"]
	require.NotNil(t, shutdown, logs.String())
	delete(shutdown, "time")
	assert.Equal(t, map[string]any{"level": "info", "component": "http", "drain_delay_ms": 10.0, "grace_ms": 1500.0,
		"message": "shutting down: not ready"}, shutdown)
}

func TestServeFlagsAndEnv(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string // "" when the flags are accepted
		check   func(t *testing.T, f *serveFlags)
	}{
		{name: "defaults", check: func(t *testing.T, f *serveFlags) {
			assert.Equal(t, ":8080", f.addr)
			assert.Equal(t, byteSize(20<<20), f.bodyLimit)
			assert.Equal(t, 64, f.maxInFlight)
			assert.Equal(t, budgetFlag{auto: true}, f.memBudget)
		}},
		{name: "memory-budget-env", env: map[string]string{"NORMALIZER_MEMORY_BUDGET": "512MiB"}, check: func(t *testing.T, f *serveFlags) {
			assert.Equal(t, budgetFlag{size: 512 << 20}, f.memBudget)
		}},
		{name: "memory-budget-off", args: []string{"--memory-budget", "off"}, env: map[string]string{"NORMALIZER_MEMORY_BUDGET": "512MiB"},
			check: func(t *testing.T, f *serveFlags) { assert.Equal(t, budgetFlag{}, f.memBudget) }},
		{name: "memory-budget-zero-is-off", args: []string{"--memory-budget", "0"}, check: func(t *testing.T, f *serveFlags) {
			assert.Equal(t, budgetFlag{}, f.memBudget)
			assert.Equal(t, "off", f.memBudget.String())
		}},
		{name: "memory-budget-any-case", env: map[string]string{"NORMALIZER_MEMORY_BUDGET": " Off "},
			check: func(t *testing.T, f *serveFlags) { assert.Equal(t, budgetFlag{}, f.memBudget) }},
		{name: "memory-budget-auto", args: []string{"--memory-budget", "AUTO"}, env: map[string]string{"NORMALIZER_MEMORY_BUDGET": "1GiB"},
			check: func(t *testing.T, f *serveFlags) { assert.Equal(t, budgetFlag{auto: true}, f.memBudget) }},
		{name: "memory-budget-not-a-size", env: map[string]string{"NORMALIZER_MEMORY_BUDGET": "plenty"},
			wantErr: `NORMALIZER_MEMORY_BUDGET="plenty": found "plenty", expected a whole number of bytes such as 1048576, 512KiB or 20MiB, or auto, or off`},
		{name: "memory-budget-negative", args: []string{"--memory-budget", "-1MiB"},
			wantErr: `"-1MiB" for flag --memory-budget: found "-1MiB", expected a size of 0 or more, or auto, or off`},
		{name: "env-supplies", env: map[string]string{"NORMALIZER_ADDR": "127.0.0.1:9", "NORMALIZER_BODY_LIMIT": "1MiB",
			"NORMALIZER_MAX_IN_FLIGHT": "3", "NORMALIZER_READ_TIMEOUT": "7s", "NORMALIZER_LOG_FORMAT": "console"},
			check: func(t *testing.T, f *serveFlags) {
				assert.Equal(t, "127.0.0.1:9", f.addr)
				assert.Equal(t, byteSize(1<<20), f.bodyLimit)
				assert.Equal(t, 3, f.maxInFlight)
				assert.Equal(t, 7*time.Second, f.timeouts.Read)
				assert.Equal(t, "console", f.logFormat)
			}},
		{name: "flag-wins", args: []string{"--addr", "127.0.0.1:7", "--body-limit", "2KiB"},
			env: map[string]string{"NORMALIZER_ADDR": "127.0.0.1:9", "NORMALIZER_BODY_LIMIT": "1MiB"},
			check: func(t *testing.T, f *serveFlags) {
				assert.Equal(t, "127.0.0.1:7", f.addr)
				assert.Equal(t, byteSize(2048), f.bodyLimit)
			}},
		{name: "bad-env", env: map[string]string{"NORMALIZER_MAX_DEPTH": "deep"}, wantErr: "NORMALIZER_MAX_DEPTH"},
		{name: "zero-limit", args: []string{"--body-limit", "0"}, wantErr: "--body-limit"},
		{name: "zero-in-flight", args: []string{"--max-in-flight", "0"}, wantErr: "--max-in-flight"},
		{name: "negative-timeout", args: []string{"--write-timeout", "-1s"}, wantErr: "--write-timeout"},
		{name: "unknown-flag", args: []string{"--nope"}, wantErr: "nope"},
		{name: "body-limit-over-the-maximum", args: []string{"--body-limit", "2GiB"}, wantErr: "at most 2147483647"},
		{name: "body-limit-int64-max", args: []string{"--body-limit", "9223372036854775807"}, wantErr: "--body-limit"},
		{name: "body-limit-maximum", args: []string{"--body-limit", "2147483647"}, check: func(t *testing.T, f *serveFlags) {
			assert.Equal(t, byteSize(httpapi.MaxBodyLimit), f.bodyLimit)
		}},
		{name: "retry-after-negative", env: map[string]string{"NORMALIZER_RETRY_AFTER": "-5s"}, wantErr: "NORMALIZER_RETRY_AFTER is -5s; expected 1s or more"},
		{name: "retry-after-zero", args: []string{"--retry-after", "0"}, wantErr: "--retry-after"},
		{name: "retry-after-below-a-second", args: []string{"--retry-after", "500ms"}, wantErr: "--retry-after"},
		{name: "retry-after-fraction", args: []string{"--retry-after", "1500ms"},
			wantErr: "serve: --retry-after is 1.5s; expected a whole number of seconds, such as 1s or 2s (Retry-After is sent in whole seconds)"},
		{name: "retry-after-fraction-env", env: map[string]string{"NORMALIZER_RETRY_AFTER": "2.001s"},
			wantErr: "serve: NORMALIZER_RETRY_AFTER is 2.001s; expected a whole number of seconds, such as 2s or 3s"},
		{name: "retry-after-whole", args: []string{"--retry-after", "2000ms"}, env: map[string]string{"NORMALIZER_RETRY_AFTER": "1500ms"},
			check: func(t *testing.T, f *serveFlags) { assert.Equal(t, 2*time.Second, f.retryAfter) }},
		{name: "retry-after-minutes-env", env: map[string]string{"NORMALIZER_RETRY_AFTER": "1m"},
			check: func(t *testing.T, f *serveFlags) { assert.Equal(t, time.Minute, f.retryAfter) }},
		{name: "duration-env-without-unit", env: map[string]string{"NORMALIZER_READ_TIMEOUT": "5"},
			wantErr: `NORMALIZER_READ_TIMEOUT="5": parse error; expected a duration with its unit, such as 500ms, 30s or 2m`},
		{name: "duration-flag-without-unit", args: []string{"--read-timeout", "5"},
			wantErr: "expected a duration with its unit"},
		{name: "integer-env", env: map[string]string{"NORMALIZER_MAX_IN_FLIGHT": "many"},
			wantErr: `NORMALIZER_MAX_IN_FLIGHT="many": parse error; expected a whole number`},
		{name: "integer-flag", args: []string{"--max-depth", "1.5"}, wantErr: "expected a whole number"},
		{name: "zero-limit-env", env: map[string]string{"NORMALIZER_BODY_LIMIT": "0"}, wantErr: "serve: NORMALIZER_BODY_LIMIT is 0; expected a positive size"},
		{name: "zero-depth-env", env: map[string]string{"NORMALIZER_MAX_DEPTH": "0"}, wantErr: "serve: NORMALIZER_MAX_DEPTH is 0"},
		{name: "zero-in-flight-env", env: map[string]string{"NORMALIZER_MAX_IN_FLIGHT": "0"}, wantErr: "serve: NORMALIZER_MAX_IN_FLIGHT is 0"},
		{name: "header-bytes-env", env: map[string]string{"NORMALIZER_MAX_HEADER_BYTES": "2GiB"}, wantErr: "serve: NORMALIZER_MAX_HEADER_BYTES is 2147483648"},
		{name: "timeout-env", env: map[string]string{"NORMALIZER_IDLE_TIMEOUT": "-1s"}, wantErr: "serve: NORMALIZER_IDLE_TIMEOUT is -1s"},
		{name: "drain-delay-env", env: map[string]string{"NORMALIZER_DRAIN_DELAY": "-1s"}, wantErr: "serve: NORMALIZER_DRAIN_DELAY is -1s"},
		{name: "drain-delay-flag", args: []string{"--drain-delay", "-1s"}, wantErr: "serve: --drain-delay is -1s"},
		{name: "linger-env", env: map[string]string{"NORMALIZER_LINGER_TIME": "1m", "NORMALIZER_LINGER_TIMEOUT": "2s", "NORMALIZER_LINGER_BYTES": "1MiB"},
			check: func(t *testing.T, f *serveFlags) {
				assert.Equal(t, time.Minute, f.timeouts.LingerTime)
				assert.Equal(t, 2*time.Second, f.timeouts.LingerTimeout)
				assert.Equal(t, byteSize(1<<20), f.lingerBytes)
			}},
		{name: "linger-time-zero-env", env: map[string]string{"NORMALIZER_LINGER_TIME": "0"},
			check: func(t *testing.T, f *serveFlags) { assert.Zero(t, f.timeouts.LingerTime) }},
		{name: "linger-time-negative-env", env: map[string]string{"NORMALIZER_LINGER_TIME": "-1s"}, wantErr: "serve: NORMALIZER_LINGER_TIME is -1s; expected 0 (no lingering) or more"},
		{name: "linger-timeout-zero-flag", args: []string{"--linger-timeout", "0"}, wantErr: "serve: --linger-timeout is 0s; expected a positive duration"},
		{name: "linger-bytes-zero-env", env: map[string]string{"NORMALIZER_LINGER_BYTES": "0"}, wantErr: "serve: NORMALIZER_LINGER_BYTES is 0; expected a positive size"},
		{name: "min-body-rate-env", env: map[string]string{"NORMALIZER_MIN_BODY_RATE": "1000", "NORMALIZER_MIN_BODY_RATE_GRACE": "2s"},
			check: func(t *testing.T, f *serveFlags) {
				assert.EqualValues(t, 1000, f.minRate)
				assert.Equal(t, 2*time.Second, f.timeouts.MinBodyRateGrace)
			}},
		{name: "min-body-rate-default", check: func(t *testing.T, f *serveFlags) {
			assert.EqualValues(t, 240, f.minRate)
			assert.Equal(t, 5*time.Second, f.timeouts.MinBodyRateGrace)
		}},
		{name: "min-body-rate-negative-flag", args: []string{"--min-body-rate", "-1"}, wantErr: "serve: --min-body-rate is -1; expected 0 (no minimum) or more bytes a second"},
		{name: "min-body-rate-grace-negative-env", env: map[string]string{"NORMALIZER_MIN_BODY_RATE_GRACE": "-5s"}, wantErr: "serve: NORMALIZER_MIN_BODY_RATE_GRACE is -5s"},
		{name: "log-level-env", env: map[string]string{"NORMALIZER_LOG_LEVEL": "trace"}, wantErr: `serve: NORMALIZER_LOG_LEVEL is "trace"; expected debug, info, warn or error`},
		{name: "log-format-env", env: map[string]string{"NORMALIZER_LOG_FORMAT": "xml"}, wantErr: `serve: NORMALIZER_LOG_FORMAT is "xml"; expected json or console`},
		{name: "log-format-flag", args: []string{"--log-format", "xml"}, wantErr: `serve: --log-format is "xml"`},
		{name: "flag-wins-over-env", args: []string{"--body-limit", "0"}, env: map[string]string{"NORMALIZER_BODY_LIMIT": "1MiB"}, wantErr: "serve: --body-limit is 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f serveFlags
			fs := newServeFlagSet(&f)
			_, err := parseFlags(fs, tt.args)
			origin := flagOrigins(fs)
			if err == nil {
				err = applyEnv(fs, envOf(tt.env))
			}
			if err == nil {
				err = f.check(origin)
			}
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				assert.Equal(t, exitUsage, exitCode(err, io.Discard))
				return
			}
			require.NoError(t, err)
			tt.check(t, &f)
		})
	}
}

func TestServeUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{name: "log-level", args: []string{"serve", "--log-level", "loud"}, want: "--log-level"},
		{name: "log-level-disabled", args: []string{"serve"}, env: map[string]string{"NORMALIZER_LOG_LEVEL": "disabled"},
			want: `NORMALIZER_LOG_LEVEL is "disabled"; expected debug, info, warn or error`},
		{name: "log-level-number", args: []string{"serve", "--log-level", "5"}, want: "expected debug, info, warn or error"},
		{name: "log-level-trace", args: []string{"serve", "--log-level", "trace"}, want: "expected debug, info, warn or error"},
		{name: "listen-names-the-variable", args: []string{"serve"}, env: map[string]string{"NORMALIZER_ADDR": "256.0.0.1:0"},
			want: "listen on 256.0.0.1:0 (from NORMALIZER_ADDR)"},
		{name: "log-format", args: []string{"serve", "--log-format", "xml"}, want: "--log-format"},
		{name: "operand", args: []string{"serve", "extra"}, want: "expected no arguments"},
		{name: "listen", args: []string{"serve", "--addr", "256.0.0.1:0"}, want: "listen"},
		{name: "memory-limit-ratio-flag", args: []string{"serve", "--memory-limit-ratio", "1.5"},
			want: "serve: --memory-limit-ratio is 1.5; expected a fraction of the memory limit above 0 and at most 1"},
		{name: "memory-limit-ratio-env", args: []string{"serve"}, env: map[string]string{"NORMALIZER_MEMORY_LIMIT_RATIO": "0"},
			want: "serve: NORMALIZER_MEMORY_LIMIT_RATIO is 0; expected"},
		{name: "memory-limit-ratio-not-a-number", args: []string{"serve"}, env: map[string]string{"NORMALIZER_MEMORY_LIMIT_RATIO": "most"},
			want: `NORMALIZER_MEMORY_LIMIT_RATIO="most"`},
		{name: "memory-limit-divisor-mistake", args: []string{"serve"}, env: map[string]string{"NORMALIZER_MEMORY_LIMIT": "1024"},
			want: "serve: NORMALIZER_MEMORY_LIMIT is 1024 bytes; expected the container's memory limit in bytes, at least 33554432"},
		{name: "memory-limit-not-a-size", args: []string{"serve", "--memory-limit", "lots"}, want: `found "lots", expected a whole number of bytes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), tt.args, envOf(tt.env), nil, io.Discard, io.Discard)
			require.ErrorContains(t, err, tt.want)
			assert.Equal(t, exitUsage, exitCode(err, io.Discard))
		})
	}
}

// TestServeMemoryLimit runs the real serve and reads its start-up line about the Go soft memory
// limit; the limit is in force while serve runs and the previous one is back when it returns.
func TestServeMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		wantSoft int64 // the runtime's limit while serving
		wantLine map[string]any
		// the memory budget of the requests in flight: 80% of the soft limit unless given
		wantBudget int64
	}{
		{name: "from the Deployment's env, default ratio", env: map[string]string{"NORMALIZER_MEMORY_LIMIT": "1073741824"},
			wantSoft: 966367641,
			wantLine: map[string]any{"source": "NORMALIZER_MEMORY_LIMIT", "container_limit": float64(1 << 30), "ratio": 0.9,
				"soft_limit": float64(966367641), "message": "go soft memory limit set"},
			wantBudget: 773094112}, // 966367641 / 5 * 4
		{name: "budget given", env: map[string]string{"NORMALIZER_MEMORY_LIMIT": "1073741824", "NORMALIZER_MEMORY_BUDGET": "300MiB"},
			wantSoft: 966367641,
			wantLine: map[string]any{"source": "NORMALIZER_MEMORY_LIMIT", "container_limit": float64(1 << 30), "ratio": 0.9,
				"soft_limit": float64(966367641), "message": "go soft memory limit set"},
			wantBudget: 300 << 20},
		{name: "flag wins over env, ratio from env", args: []string{"--memory-limit", "2GiB"},
			env:      map[string]string{"NORMALIZER_MEMORY_LIMIT": "1073741824", "NORMALIZER_MEMORY_LIMIT_RATIO": "0.75"},
			wantSoft: 3 << 29,
			wantLine: map[string]any{"source": "--memory-limit", "container_limit": float64(2 << 30), "ratio": 0.75,
				"soft_limit": float64(3 << 29), "message": "go soft memory limit set"},
			wantBudget: 3 << 29 / 5 * 4},
		{name: "GOMEMLIMIT wins", env: map[string]string{"GOMEMLIMIT": "900MiB", "NORMALIZER_MEMORY_LIMIT": "1073741824"},
			wantSoft: prev, // this test's process was not started with it: serve leaves the runtime alone
			wantLine: map[string]any{"source": "GOMEMLIMIT", "gomemlimit": "900MiB", "soft_limit": float64(prev),
				"message": "go soft memory limit from GOMEMLIMIT, applied by the Go runtime; --memory-limit and its ratio are not used"},
			wantBudget: 0}, // this process has no soft limit: no budget
		{name: "budget off", env: map[string]string{"NORMALIZER_MEMORY_LIMIT": "1073741824", "NORMALIZER_MEMORY_BUDGET": "off"},
			wantSoft: 966367641,
			wantLine: map[string]any{"source": "NORMALIZER_MEMORY_LIMIT", "container_limit": float64(1 << 30), "ratio": 0.9,
				"soft_limit": float64(966367641), "message": "go soft memory limit set"},
			wantBudget: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			logs, done := startServe(ctx, tt.env, append([]string{"--addr", "127.0.0.1:0"}, tt.args...)...)
			listeningAddr(t, logs, done)
			assert.Equal(t, tt.wantSoft, debug.SetMemoryLimit(-1), "the soft limit while serving")
			cancel()
			select {
			case err := <-done:
				require.NoError(t, err)
			case <-time.After(30 * time.Second):
				t.Fatal("serve did not stop")
			}
			assert.Equal(t, prev, debug.SetMemoryLimit(-1), "serve puts the previous limit back on return")

			var lines []map[string]any
			budget, budgetLines := int64(-1), 0
			sc := bufio.NewScanner(strings.NewReader(logs.String()))
			for sc.Scan() {
				var l map[string]any
				require.NoError(t, json.Unmarshal(sc.Bytes(), &l), sc.Text())
				if strings.HasPrefix(l["message"].(string), "go soft memory limit") {
					lines = append(lines, l)
				}
				if l["message"] == "listening" {
					budget = int64(l["memory_budget"].(float64))
					assert.EqualValues(t, httpapi.DefaultMaxInFlight, l["max_in_flight"])
				}
				if strings.HasPrefix(l["message"].(string), "memory budget") {
					budgetLines++
					assert.EqualValues(t, tt.wantBudget, l["memory_budget"])
				}
			}
			assert.Equal(t, tt.wantBudget, budget, "memory_budget on the listening line")
			if _, given := tt.env["NORMALIZER_MEMORY_BUDGET"]; given {
				assert.Zero(t, budgetLines, "a line about the budget only when it is derived (auto)")
			} else {
				assert.Equal(t, 1, budgetLines, "a line says where the budget comes from, or why there is none")
			}
			require.Len(t, lines, 1, "one start-up line about the memory limit:\n%s", logs.String())
			got := lines[0]
			assert.Equal(t, "info", got["level"])
			assert.Equal(t, "serve", got["component"])
			for _, k := range []string{"level", "component", "time"} {
				delete(got, k)
			}
			assert.Equal(t, tt.wantLine, got)
		})
	}
}

func TestServeHelp(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"serve", "-h"}, envOf(nil), nil, &out, io.Discard))
	assert.Contains(t, out.String(), "-max-in-flight")
	assert.Contains(t, out.String(), "NORMALIZER_")
}

func TestConsoleLogsAreColouredOnlyOnATerminal(t *testing.T) {
	for _, terminal := range []bool{false, true} {
		var buf bytes.Buffer
		logger := newLogger(zerolog.InfoLevel, true, &buf, terminal)
		logger.Info().Str("k", "v").Msg("hello")
		assert.Equal(t, terminal, strings.Contains(buf.String(), "\x1b["), "escape codes in %q", buf.String())
	}
}

func TestBadFlagValuesSayWhatIsExpected(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"normalize", "--jsonl=maybe", "/dev/null"}, "expected true or false"},
		{[]string{"check", "-v=2"}, "expected true or false"},
		{[]string{"serve", "--max-depth", "deep"}, "expected a whole number"},
		{[]string{"serve", "--idle-timeout", "10"}, "expected a duration with its unit"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			err := run(context.Background(), tt.args, envOf(nil), nil, io.Discard, io.Discard)
			require.ErrorContains(t, err, tt.want)
			assert.Equal(t, exitUsage, exitCode(err, io.Discard))
		})
	}
}

// The 413 tells the operator how to raise the limit: by the flag or the variable it names,
// which are serve's own (each sets the limit the message then quotes).
func TestServeTooLargeNamesItsSettings(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"flag", []string{"--body-limit", "1KiB"}, nil},
		{"variable", nil, map[string]string{"NORMALIZER_BODY_LIMIT": "1KiB"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			logs, done := startServe(ctx, tt.env, append([]string{"--addr", "127.0.0.1:0", "--drain-delay", "0s"}, tt.args...)...)
			base := "http://" + listeningAddr(t, logs, done)
			body := `{"final_response":"` + strings.Repeat("a", 2000) + `"}`
			res, err := http.Post(base+"/v1/normalize", "application/json", strings.NewReader(body))
			require.NoError(t, err)
			msg, _ := io.ReadAll(res.Body)
			res.Body.Close()
			cancel()
			require.NoError(t, <-done)
			assert.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)
			assert.Contains(t, string(msg), "over the body limit of 1024 bytes (1KiB); the operator raises the limit with normalizer serve --body-limit or NORMALIZER_BODY_LIMIT")
		})
	}
}

// logLines parses every line of a JSON log; a line that is not JSON fails the test.
func logLines(t *testing.T, logs string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(logs))
	for sc.Scan() {
		var l map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), "a log line that is not JSON: %q", sc.Text())
		lines = append(lines, l)
	}
	require.NoError(t, sc.Err())
	return lines
}

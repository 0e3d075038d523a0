package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// The access line beyond TestAccessLog (httpapi_test.go): the method as logged, the level of a
// readiness probe's 503 and of an answer that did not arrive, the warning count, the bytes out
// of a HEAD, and the remote address of a real connection.

func TestLoggedMethodIsBounded(t *testing.T) {
	assert.Equal(t, "POST", loggedMethod("POST"))
	long := strings.Repeat("A", 30000)
	assert.Equal(t, strings.Repeat("A", 32)+"...", loggedMethod(long))
}

// A readiness probe answered 503 (starting, or draining before shutdown) is logged at info:
// every pod would log errors on every rollout otherwise. A 500 stays an error.
func TestNotReadyIsNotAnErrorLine(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	w := do(t, s, call{method: "GET", target: "/readyz"})
	require.Equal(t, http.StatusServiceUnavailable, w.Code)
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 1)
	assert.Equal(t, "info", lines[0].Level)
	assert.Equal(t, ClassUnavailable, lines[0].ErrorClass, "still counted and logged as what it is")

	reg := prometheus.NewRegistry()
	reg.MustRegister(failingCollector{})
	s, logs = newTestServer(t, Config{Registry: reg})
	w = do(t, s, call{method: "GET", target: "/metrics"})
	require.Equal(t, http.StatusInternalServerError, w.Code)
	lines = accessLines(t, logs.String())
	require.Len(t, lines, 1)
	assert.Equal(t, "error", lines[0].Level)
}

func TestWarningCountIncludesUnlisted(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	n := 1500
	doc := `{"final_response":"x","messages":[` + strings.TrimSuffix(strings.Repeat("1,", n), ",") + `]}`
	w := do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(doc)})
	require.Equal(t, http.StatusOK, w.Code)
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 1)
	require.NotNil(t, lines[0].Warnings)
	assert.Equal(t, n, *lines[0].Warnings, "every problem counted, listed or not")
	var rec struct {
		SoftWarnings []string `json:"soft_warnings"`
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &rec))
	listed := len(rec.SoftWarnings) - 1 // the last says how many more there were
	assert.Equal(t, normalize.DefaultMaxWarnings, listed)
	assert.Equal(t, float64(n-listed), metricValue(t, s, "normalizer_warnings_unlisted_total"))
}

// An answer whose write failed (the client went away, or the write timed out) is logged at
// warn, so that --log-level warn shows it; a 5xx stays an error whether or not it arrived.
func TestFailedWriteIsAWarning(t *testing.T) {
	tests := []struct {
		name          string
		brokenMetrics bool
		method, path  string
		body          string
		status        int
		level         string
	}{
		{"normalize 200", false, "POST", "/v1/normalize", okResult, 200, "warn"},
		{"normalize 422", false, "POST", "/v1/normalize", `{"output":"x"}`, 422, "warn"},
		{"unmatched 404", false, "GET", "/nope", "", 404, "warn"},
		{"metrics 500", true, "GET", "/metrics", "", 500, "error"},
	}
	for _, tt := range tests {
		for _, err := range []error{os.ErrDeadlineExceeded, errors.New("write: broken pipe")} {
			t.Run(tt.name+"/"+err.Error(), func(t *testing.T) {
				logs := &syncBuffer{}
				cfg := Config{Logger: zerolog.New(logs).Level(zerolog.WarnLevel)} // as serve --log-level warn
				if tt.brokenMetrics {
					cfg.Registry = prometheus.NewRegistry()
					cfg.Registry.MustRegister(failingCollector{})
				}
				s, e := New(cfg)
				require.NoError(t, e)
				w := failingFlush{httptest.NewRecorder(), err}
				s.Handler().ServeHTTP(w, httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body)))
				require.Equal(t, tt.status, w.Code)
				lines := accessLines(t, logs.String())
				require.Len(t, lines, 1, "the line is not hidden at --log-level warn")
				assert.Equal(t, tt.level, lines[0].Level)
				assert.Equal(t, tt.status, lines[0].Status)
				assert.NotEmpty(t, lines[0].WriteError)
			})
		}
	}
	// An answer that arrived stays at info: hidden at --log-level warn.
	logs := &syncBuffer{}
	s, err := New(Config{Logger: zerolog.New(logs).Level(zerolog.WarnLevel)})
	require.NoError(t, err)
	do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(okResult)})
	assert.Empty(t, logs.String())
}

// net/http sends no body for HEAD, though the handler writes GET's: the line says 0 bytes out.
// Over a real connection, remote_addr is the client's address and port.
func TestHeadLogsNoBytesOut(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	get := func(method, path string) {
		req, err := http.NewRequest(method, srv.URL+path, nil)
		require.NoError(t, err)
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	get("GET", "/healthz")
	get("HEAD", "/healthz")
	get("HEAD", "/metrics")
	get("HEAD", "/openapi.json")
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 4)
	assert.Equal(t, int64(len(`{"status":"ok"}`)), lines[0].BytesOut, "GET sends the body")
	for _, l := range lines[1:] {
		assert.Equal(t, "HEAD", l.Method)
		assert.Zero(t, l.BytesOut, "HEAD %s sends no body", l.Route)
	}
	for _, l := range lines {
		assert.Regexp(t, `^127\.0\.0\.1:[0-9]+$`, l.RemoteAddr)
	}
}

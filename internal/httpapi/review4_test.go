package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests from the fourth review (helper-21, 2026-11-30): the log line of a request cut off at
// shutdown, paths as sent, explain's values, limits in 413s, Content-Length on errors, the
// readiness probe while draining.

// A request cut off when the grace period ends is logged before Serve returns: the process
// exits right after, and a line written later would be lost.
func TestCutOffRequestIsLoggedBeforeServeReturns(t *testing.T) {
	for i := range 3 {
		// A log writer as slow as a loaded disk: without the wait for handlers, Serve returns
		// before the line is written, every time.
		logs := &syncBuffer{}
		s, err := New(Config{Logger: zerolog.New(slowWriter{logs, 100 * time.Millisecond}), Schemas: testSchemas})
		require.NoError(t, err)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		served := make(chan error, 1)
		go func() { served <- s.Serve(ctx, ln, Timeouts{Grace: 50 * time.Millisecond}) }()
		conn, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		_, err = io.WriteString(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n\"a")
		require.NoError(t, err)
		require.Eventually(t, func() bool { return s.handling.Load() == 1 }, 5*time.Second, time.Millisecond,
			"the handler is waiting for the rest of the body")
		cancel()
		require.ErrorContains(t, <-served, "were cut off")
		conn.Close()
		lines := accessLines(t, logs.String())
		require.Len(t, lines, 1, "run %d: the cut-off request's line is written before Serve returns", i)
		assert.Equal(t, http.StatusServiceUnavailable, lines[0].Status)
		assert.Equal(t, ClassUnavailable, lines[0].ErrorClass)
		assert.Zero(t, s.handling.Load())
	}
}

// slowWriter writes to w after a delay.
type slowWriter struct {
	w     io.Writer
	delay time.Duration
}

func (s slowWriter) Write(p []byte) (int, error) {
	time.Sleep(s.delay)
	return s.w.Write(p)
}

// explain takes one boolean: no value, or two values, is ambiguous and an error says so.
func TestExplainTakesOneBoolean(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	tests := []struct {
		query   string
		status  int
		diag    bool
		message string
	}{
		{query: "explain=true", status: 200, diag: true},
		{query: "explain=1", status: 200, diag: true},
		{query: "explain=TRUE", status: 200, diag: true},
		{query: "explain=false", status: 200},
		{query: "explain=0", status: 200},
		{query: "other=1", status: 200},
		{query: "Explain=1", status: 400, message: `query parameter "Explain": did you mean explain?`},
		{query: "explain", status: 400, message: `query parameter explain is ""; expected true or false (or 1, 0)`},
		{query: "explain=", status: 400, message: `query parameter explain is ""`},
		{query: "explain=maybe", status: 400, message: `query parameter explain is "maybe"`},
		{query: "explain=true&explain=false", status: 400, message: "query parameter explain is given 2 times; expected it once"},
		{query: "explain=true&explain=true", status: 400, message: "given 2 times"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			w := do(t, s, call{method: "POST", target: "/v1/normalize?" + tt.query, body: strings.NewReader(okResult)})
			require.Equal(t, tt.status, w.Code, w.Body.String())
			if tt.status != 200 {
				class, message := errorOf(t, w.Body.Bytes())
				assert.Equal(t, ClassBadRequest, class)
				assert.Contains(t, message, tt.message)
				return
			}
			assert.Equal(t, tt.diag, strings.Contains(w.Body.String(), `"diagnostics"`))
		})
	}
}

// Every JSON answer carries its Content-Length: errors (flushed by the error handler) and the
// documents were sent chunked before.
func TestJSONAnswersHaveContentLength(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: 16})
	s.SetReady(true)
	for _, c := range []call{
		{method: "GET", target: "/nope"},
		{method: "DELETE", target: "/healthz"},
		{method: "POST", target: "/v1/normalize", body: strings.NewReader("{")},
		{method: "POST", target: "/v1/normalize", body: strings.NewReader(`"` + strings.Repeat("x", 32) + `"`)},
		{method: "POST", target: "/v1/normalize?explain=maybe", body: strings.NewReader(okResult)},
		{method: "GET", target: "/openapi.json"},
		{method: "GET", target: "/v1/schemas/"},
		{method: "GET", target: "/healthz"},
		{method: "GET", target: "/readyz"},
	} {
		w := do(t, s, c)
		assert.Equal(t, strconv.Itoa(w.Body.Len()), w.Header().Get("Content-Length"), "%s %s: %d", c.method, c.target, w.Code)
	}
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

// A 404 names the path as it was sent: echo routes on that, so the decoded path would name a
// route that exists.
func TestNotFoundNamesThePathAsSent(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, tt := range []struct{ target, path string }{
		{"/v1/normaliz%65", "/v1/normaliz%65"},
		{"/no/such/path", "/no/such/path"},
		{"/a%2Fb", "/a%2Fb"},
	} {
		w := do(t, s, call{method: "POST", target: tt.target, body: strings.NewReader(okResult)})
		require.Equal(t, http.StatusNotFound, w.Code, tt.target)
		_, message := errorOf(t, w.Body.Bytes())
		assert.Contains(t, message, "no route for POST "+tt.path+" (paths are matched as sent", tt.target)
	}
}

// A body that cannot be read or decoded gets a message that says what arrived and what was
// expected, not the decoder's own "EOF" or "gzip: invalid header".
func TestUnreadableBodySaysWhatArrived(t *testing.T) {
	member := gzipBytes([]byte(okResult))
	corrupt := append([]byte(nil), member...)
	corrupt[len(corrupt)-5] ^= 0xff // in the CRC
	tests := []struct {
		name    string
		body    io.Reader
		length  int64 // Content-Length; -1 for chunked
		gzip    bool
		message string
	}{
		{name: "empty gzip", body: strings.NewReader(""), gzip: true,
			message: "gzip body: empty; expected a gzip stream, as Content-Encoding: gzip says"},
		{name: "not gzip", body: strings.NewReader(okResult), length: int64(len(okResult)), gzip: true,
			message: "gzip body: not gzip: it does not start with gzip's bytes 1f 8b"},
		{name: "not gzip, shorter than a gzip header", body: strings.NewReader("{}"), length: 2, gzip: true,
			message: "gzip body: not gzip: it does not start with gzip's bytes 1f 8b"},
		{name: "not gzip, one byte", body: strings.NewReader("1"), length: 1, gzip: true,
			message: "gzip body: not gzip"},
		{name: "cut inside the first header", body: bytes.NewReader(member[:6]), length: 6, gzip: true,
			message: "gzip body: the gzip stream is cut short: all 6 compressed bytes arrived, and they end inside a gzip header"},
		{name: "bad header", body: bytes.NewReader(append([]byte{0x1f, 0x8b, 7}, member[3:]...)), gzip: true, // a method other than deflate (8)
			message: "gzip body: its gzip header is invalid"},
		{name: "garbage after a member", body: bytes.NewReader(append(append([]byte(nil), member...), "and then some text"...)), gzip: true,
			message: "request body: bytes after the end of a gzip member (within the first "},
		{name: "a few bytes after a member", body: bytes.NewReader(append(append([]byte(nil), member...), "abc"...)), gzip: true,
			message: "request body: the gzip stream is cut short"},
		{name: "truncated gzip", body: bytes.NewReader(member[:len(member)-6]), gzip: true,
			message: fmt.Sprintf("request body: the gzip stream is cut short: all %d compressed bytes arrived", len(member)-6)},
		{name: "corrupt gzip", body: bytes.NewReader(corrupt), gzip: true,
			message: "request body: the gzip stream's checksum does not match its data: the body is corrupt"},
		{name: "connection cut", body: shortBody{strings.NewReader(`{"final`)}, length: 100,
			message: "request body: the connection ended after 7 bytes of the body, of the 100 its Content-Length announced"},
		{name: "connection cut, chunked", body: shortBody{strings.NewReader(`{"final`)}, length: -1,
			message: "request body: the connection ended after 7 bytes of the body, before the chunked body's last chunk"},
		{name: "connection cut, gzip", body: shortBody{bytes.NewReader(member[:len(member)/2])}, length: int64(len(member)), gzip: true,
			message: fmt.Sprintf("request body: the connection ended after %d compressed bytes of the body, of the %d its Content-Length announced", len(member)/2, len(member))},
	}
	s, _ := newTestServer(t, Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/v1/normalize", tt.body)
			req.ContentLength = tt.length
			if tt.gzip {
				req.Header.Set("Content-Encoding", "gzip")
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			require.Equal(t, http.StatusBadRequest, w.Code, w.Body.String())
			class, message := errorOf(t, w.Body.Bytes())
			assert.Equal(t, ClassBadRequest, class)
			assert.Contains(t, message, tt.message)
		})
	}
}

package httpapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// syncBuffer is a log sink that handlers may write while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var testSchemas = fstest.MapFS{
	"record.schema.json": {Data: []byte(`{"$id":"record.schema.json","type":"object"}`)},
	"error.schema.json":  {Data: []byte(`{"$id":"error.schema.json","type":"object"}`)},
	"README.md":          {Data: []byte(`not a schema`)},
}

func newTestServer(t *testing.T, cfg Config) (*Server, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	cfg.Logger = zerolog.New(logs)
	if cfg.Schemas == nil {
		cfg.Schemas = testSchemas
	}
	s, err := New(cfg)
	require.NoError(t, err)
	return s, logs
}

type call struct {
	method, target string
	body           io.Reader
	header         map[string]string
}

func do(t *testing.T, s *Server, c call) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(c.method, c.target, c.body)
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	return w
}

// errorClass decodes the error object and checks its shape.
func errorClass(t *testing.T, body []byte) string {
	t.Helper()
	class, _ := errorOf(t, body)
	return class
}

// errorOf is the class and message of an error answer's body, which must have both.
func errorOf(t *testing.T, body []byte) (class, message string) {
	t.Helper()
	var e struct {
		Error struct {
			Class   string `json:"class"`
			Message string `json:"message"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(body, &e), "body %s", body)
	require.NotEmpty(t, e.Error.Message, "body %s", body)
	return e.Error.Class, e.Error.Message
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(b)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

const okResult = `{"final_response":"The refund was issued.","messages":[{"role":"user","content":"refund?"},{"role":"developer","content":"x"}]}`

func TestRoutes(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: 1024})
	s.SetReady(true)
	big := `{"final_response":"` + strings.Repeat("a", 2000) + `"}`
	bomb := gzipped(t, []byte(`"`+strings.Repeat("a", 1<<20)+`"`))
	tests := []struct {
		name      string
		call      call
		status    int
		class     string // "" for a success
		bodyHas   string
		ctype     string
		retryHint bool
	}{
		{name: "normalize", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(okResult)},
			status: 200, bodyHas: `"rich_mode":true}`, ctype: "application/json"},
		{name: "normalize-string", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`"done"`)},
			status: 200, bodyHas: `{"final_response":"done","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}`},
		{name: "explain", call: call{method: "POST", target: "/v1/normalize?explain=true", body: strings.NewReader(okResult)},
			status: 200, bodyHas: `"diagnostics":[{"path":"messages[1].role"`},
		{name: "explain-false", call: call{method: "POST", target: "/v1/normalize?explain=false", body: strings.NewReader(okResult)},
			status: 200, bodyHas: `"rich_mode":true}`},
		{name: "explain-bad", call: call{method: "POST", target: "/v1/normalize?explain=maybe", body: strings.NewReader(okResult)},
			status: 400, class: "BadRequest"},
		{name: "invalid-json", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`{"final_response":`)},
			status: 400, class: "InvalidJSON", bodyHas: `"line":1`},
		{name: "empty-body", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(``)},
			status: 400, class: "InvalidJSON"},
		{name: "shape", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`{"output":"x"}`)},
			status: 422, class: "ResponseShapeError"},
		{name: "empty-final", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`""`)},
			status: 422, class: "ResponseShapeError", bodyHas: "Handler returned an empty string"},
		{name: "too-large-content-length", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(big)},
			status: 413, class: "PayloadTooLarge", bodyHas: `"limit":1024`},
		{name: "too-large-chunked", call: call{method: "POST", target: "/v1/normalize", body: io.MultiReader(strings.NewReader(big))},
			status: 413, class: "PayloadTooLarge"},
		{name: "gzip", call: call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(gzipped(t, []byte(okResult))),
			header: map[string]string{"Content-Encoding": "gzip"}}, status: 200, bodyHas: `"final_response":"The refund was issued."`},
		{name: "gzip-bomb", call: call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(bomb),
			header: map[string]string{"Content-Encoding": "gzip"}}, status: 413, class: "PayloadTooLarge"},
		{name: "gzip-corrupt", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader("not gzip"),
			header: map[string]string{"Content-Encoding": "gzip"}}, status: 400, class: "BadRequest"},
		{name: "encoding-br", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(okResult),
			header: map[string]string{"Content-Encoding": "br"}}, status: 415, class: "UnsupportedMediaType"},
		{name: "encoding-identity", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(okResult),
			header: map[string]string{"Content-Encoding": "identity"}}, status: 200},
		{name: "healthz", call: call{method: "GET", target: "/healthz"}, status: 200, bodyHas: `{"status":"ok"}`},
		{name: "readyz", call: call{method: "GET", target: "/readyz"}, status: 200, bodyHas: `{"status":"ready"}`},
		{name: "metrics", call: call{method: "GET", target: "/metrics"}, status: 200, bodyHas: "go_goroutines"},
		{name: "schema-index", call: call{method: "GET", target: "/v1/schemas"}, status: 200,
			bodyHas: `{"schemas":[{"name":"error","url":"/v1/schemas/error.schema.json"},{"name":"record","url":"/v1/schemas/record.schema.json"}]}`},
		{name: "schema-index-trailing-slash", call: call{method: "GET", target: "/v1/schemas/"}, status: 200,
			bodyHas: `{"schemas":[{"name":"error","url":"/v1/schemas/error.schema.json"},{"name":"record","url":"/v1/schemas/record.schema.json"}]}`},
		{name: "schema-by-name", call: call{method: "GET", target: "/v1/schemas/record"}, status: 200,
			bodyHas: `"$id":"record.schema.json"`, ctype: "application/schema+json"},
		{name: "schema-by-file", call: call{method: "GET", target: "/v1/schemas/error.schema.json"}, status: 200, bodyHas: `"$id":"error.schema.json"`},
		{name: "schema-unknown", call: call{method: "GET", target: "/v1/schemas/nope"}, status: 404, class: "NotFound"},
		{name: "openapi", call: call{method: "GET", target: "/openapi.json"}, status: 200, bodyHas: `"openapi": "3.1.0"`},
		{name: "not-found", call: call{method: "GET", target: "/v2/normalize"}, status: 404, class: "NotFound"},
		{name: "method-not-allowed", call: call{method: "GET", target: "/v1/normalize"}, status: 405, class: "MethodNotAllowed"},
		{name: "method-not-allowed-post-healthz", call: call{method: "POST", target: "/healthz"}, status: 405, class: "MethodNotAllowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, s, tt.call)
			body := w.Body.Bytes()
			require.Equal(t, tt.status, w.Code, "body %s", body)
			if tt.class != "" {
				assert.Equal(t, tt.class, errorClass(t, body))
				assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
			}
			if tt.ctype != "" {
				assert.Equal(t, tt.ctype, w.Header().Get("Content-Type"))
			}
			assert.Contains(t, string(body), tt.bodyHas)
			assert.NotEmpty(t, w.Header().Get("X-Request-ID"))
		})
	}
}

func TestMethodNotAllowedHasAllow(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	w := do(t, s, call{method: "DELETE", target: "/v1/normalize"})
	require.Equal(t, 405, w.Code)
	assert.Contains(t, w.Header().Get("Allow"), "POST")
}

func TestReadyzFollowsSetReady(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	w := do(t, s, call{method: "GET", target: "/readyz"})
	require.Equal(t, 503, w.Code)
	assert.Equal(t, "Unavailable", errorClass(t, w.Body.Bytes()))
	s.SetReady(true)
	assert.Equal(t, 200, do(t, s, call{method: "GET", target: "/readyz"}).Code)
	s.SetReady(false)
	assert.Equal(t, 503, do(t, s, call{method: "GET", target: "/readyz"}).Code)
}

// countingBody records how many bytes the server took from it.
type blockingBody struct {
	started chan struct{}
	release chan struct{}
	r       io.Reader
	once    sync.Once
}

func (b *blockingBody) Read(p []byte) (int, error) {
	b.once.Do(func() { close(b.started) })
	<-b.release
	return b.r.Read(p)
}

func TestInFlightCap(t *testing.T) {
	s, _ := newTestServer(t, Config{MaxInFlight: 2})
	release := make(chan struct{})
	var wg sync.WaitGroup
	codes := make([]int, 2)
	for i := range 2 {
		body := &blockingBody{started: make(chan struct{}), release: release, r: strings.NewReader(`"ok"`)}
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := httptest.NewRequest("POST", "/v1/normalize", body)
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			codes[i] = w.Code
		}()
		<-body.started
	}
	over := &countingBody{r: strings.NewReader(`"ok"`)}
	req := httptest.NewRequest("POST", "/v1/normalize", over)
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	assert.Equal(t, 429, w.Code)
	assert.Equal(t, "TooManyRequests", errorClass(t, w.Body.Bytes()))
	assert.Equal(t, "1", w.Header().Get("Retry-After"))
	assert.Equal(t, 0, over.n, "a 429 must not read the body")
	// Health stays reachable while normalize is saturated.
	assert.Equal(t, 200, do(t, s, call{method: "GET", target: "/healthz"}).Code)
	close(release)
	wg.Wait()
	assert.Equal(t, []int{200, 200}, codes)
	assert.Equal(t, 200, do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`"ok"`)}).Code)
}

func TestRequestID(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	tests := []struct {
		name, sent string
		kept       bool
	}{
		{name: "echoed", sent: "abc-123", kept: true},
		{name: "generated", sent: "", kept: false},
		{name: "control-chars-replaced", sent: "a\tb", kept: false},
		{name: "too-long-replaced", sent: strings.Repeat("x", 200), kept: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.sent != "" {
				h["X-Request-ID"] = tt.sent
			}
			w := do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`"ok"`), header: h})
			got := w.Header().Get("X-Request-ID")
			require.NotEmpty(t, got)
			if tt.kept {
				assert.Equal(t, tt.sent, got)
			} else {
				assert.NotEqual(t, tt.sent, got)
			}
			assert.Contains(t, logs.String(), `"request_id":"`+got+`"`)
		})
	}
}

// logLine is one access log line.
type logLine struct {
	Level      string  `json:"level"`
	Component  string  `json:"component"`
	Method     string  `json:"method"`
	Route      string  `json:"route"`
	Status     int     `json:"status"`
	DurationMS float64 `json:"duration_ms"`
	BytesIn    int64   `json:"bytes_in"`
	BytesOut   int64   `json:"bytes_out"`
	Warnings   *int    `json:"warnings"`
	RequestID  string  `json:"request_id"`
	RemoteAddr string  `json:"remote_addr"`
	Path       string  `json:"path"`
	ErrorClass string  `json:"error_class"`
	WriteError string  `json:"write_error"`
	Message    string  `json:"message"`
}

func accessLines(t *testing.T, logs string) []logLine {
	t.Helper()
	var out []logLine
	for _, l := range strings.Split(strings.TrimSpace(logs), "\n") {
		var ll logLine
		require.NoError(t, json.Unmarshal([]byte(l), &ll), "log line %s", l)
		if ll.Component == "access" {
			out = append(out, ll)
		}
	}
	return out
}

func TestAccessLog(t *testing.T) {
	s, logs := newTestServer(t, Config{BodyLimit: 4096})
	secret := "SECRET-ANSWER-TEXT"
	result := `{"final_response":"` + secret + `","messages":[{"role":"developer","content":"SECRET-CONTENT"}],"metadata":{"model":"SECRET-MODEL"}}`
	// A proxy's header names another address: the line has the connection's, never the header's.
	forwarded := map[string]string{"X-Forwarded-For": "203.0.113.9-SECRET-FORWARDED", "X-Real-IP": "SECRET-REAL-IP"}
	do(t, s, call{method: "POST", target: "/v1/normalize?explain=true", body: strings.NewReader(result), header: map[string]string{"X-Request-ID": "rid-1"}})
	do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`{"final_response": 1, "x": "SECRET-IN-REJECTED"}`), header: map[string]string{"X-Request-ID": "rid-2"}})
	forwarded["X-Request-ID"] = "rid-3"
	do(t, s, call{method: "GET", target: "/no/such%20path", header: forwarded})

	all := logs.String()
	assert.NotContains(t, all, "SECRET", "logs must never carry the result's text")
	lines := accessLines(t, all)
	require.Len(t, lines, 3)
	ok, rej, nf := lines[0], lines[1], lines[2]
	assert.Equal(t, "POST", ok.Method)
	assert.Equal(t, "/v1/normalize", ok.Route)
	assert.Equal(t, 200, ok.Status)
	assert.Equal(t, int64(len(result)), ok.BytesIn)
	assert.Positive(t, ok.BytesOut)
	require.NotNil(t, ok.Warnings)
	assert.Equal(t, 1, *ok.Warnings)
	assert.Equal(t, "rid-1", ok.RequestID)
	assert.Empty(t, ok.ErrorClass)
	assert.Equal(t, "request", ok.Message)
	assert.Equal(t, 422, rej.Status)
	assert.Equal(t, "ResponseShapeError", rej.ErrorClass)
	assert.Equal(t, "rid-2", rej.RequestID)
	assert.Equal(t, "unmatched", nf.Route)
	assert.Equal(t, "NotFound", nf.ErrorClass)
	assert.Equal(t, "/no/such%20path", nf.Path, "a 404's line says what was asked for, as sent")
	assert.Empty(t, ok.Path, "no path where the route says it")
	for _, l := range lines {
		assert.Equal(t, "192.0.2.1:1234", l.RemoteAddr, "r.RemoteAddr, as net/http (here httptest) sets it")
	}

	// Every line has its fields in the same order, the 200 of POST /v1/normalize (whose first
	// fields the logger renders once) as the others.
	raw := strings.Split(strings.TrimSpace(all), "\n")
	var okLine, rejLine string
	for _, l := range raw {
		switch {
		case strings.Contains(l, `"request_id":"rid-1"`):
			okLine = l
		case strings.Contains(l, `"request_id":"rid-2"`):
			rejLine = l
		}
	}
	prefix := `{"level":"info","component":"access","method":"POST","route":"/v1/normalize","status":`
	assert.True(t, strings.HasPrefix(okLine, prefix+`200,"duration_ms":`), okLine)
	assert.True(t, strings.HasPrefix(rejLine, prefix+`422,"duration_ms":`), rejLine)
	fields := []string{"level", "component", "method", "route", "status", "duration_ms", "bytes_in", "bytes_out", "warnings", "request_id", "remote_addr"}
	assert.Equal(t, append(fields, "message"), keysOf(t, okLine))
	assert.Equal(t, append(fields, "error_class", "message"), keysOf(t, rejLine))
}

// TestAccessLogPath: the line names the path where the route does not (a schema's name, what
// a 404 asked for), as sent and cut, without the query, after remote_addr; where the route is
// the path (a 405 too), no path (docs/hardening.md, docs/http.md).
func TestAccessLogPath(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	long := "/" + strings.Repeat("a", 1000)
	do(t, s, call{method: "GET", target: "/v1/schemas/result.schema.json"})
	do(t, s, call{method: "GET", target: "/healthz"})
	do(t, s, call{method: "GET", target: "/missing?token=SECRET-QUERY"})
	do(t, s, call{method: "GET", target: "/v1/normalize?token=SECRET-QUERY"})
	do(t, s, call{method: "GET", target: long})
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 5)
	assert.Equal(t, "/v1/schemas/:name", lines[0].Route)
	assert.Equal(t, "/v1/schemas/result.schema.json", lines[0].Path)
	assert.Empty(t, lines[1].Path)
	assert.Equal(t, "/missing", lines[2].Path, "the path without its query")
	assert.Equal(t, 405, lines[3].Status)
	assert.Empty(t, lines[3].Path, "a 405's route is its path")
	assert.NotContains(t, logs.String(), "SECRET-QUERY", "no query string is logged")
	assert.Equal(t, long[:256]+"...", lines[4].Path)
	raw := strings.Split(strings.TrimSpace(logs.String()), "\n")
	keys := keysOf(t, raw[len(raw)-1])
	assert.Equal(t, []string{"remote_addr", "path", "error_class", "message"}, keys[len(keys)-4:])
}

// keysOf is the keys of a JSON object, in the order they are written.
func keysOf(t *testing.T, line string) []string {
	t.Helper()
	var keys []string
	dec := json.NewDecoder(strings.NewReader(line))
	_, err := dec.Token() // {
	require.NoError(t, err)
	for dec.More() {
		k, err := dec.Token()
		require.NoError(t, err)
		keys = append(keys, k.(string))
		var v json.RawMessage
		require.NoError(t, dec.Decode(&v))
	}
	return keys
}

func TestMetricsContent(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: 100_000})
	long := `{"final_response":"` + strings.Repeat("z", 50_001) + `","messages":"nope"}`
	do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(long)})
	do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`[1]`)})
	do(t, s, call{method: "BREW", target: "/coffee"})
	w := do(t, s, call{method: "GET", target: "/metrics"})
	require.Equal(t, 200, w.Code)
	m := w.Body.String()
	for _, want := range []string{
		`normalizer_http_requests_total{method="POST",route="/v1/normalize",status="200"} 1`,
		`normalizer_http_requests_total{method="POST",route="/v1/normalize",status="422"} 1`,
		`normalizer_http_requests_total{method="OTHER",route="unmatched",status="404"} 1`,
		`normalizer_http_request_duration_seconds_count{route="/v1/normalize",status="200"} 1`,
		`normalizer_http_request_duration_seconds_count{route="/v1/normalize",status="422"} 1`,
		`normalizer_http_request_duration_seconds_count{route="unmatched",status="404"} 1`,
		`normalizer_request_body_bytes_total ` + itoa(len(long)+3),
		`normalizer_warnings_total{code="final_response_truncated"} 1`,
		`normalizer_warnings_total{code="messages_not_array"} 1`,
		`normalizer_rejections_total{class="ResponseShapeError"} 1`,
		`normalizer_rejections_total{class="NotFound"} 1`,
		`normalizer_truncations_total 1`,
		`normalizer_http_requests_in_flight 1`, // the scrape itself
		`go_goroutines `,
		`go_memstats_heap_alloc_bytes `,
		`process_start_time_seconds `,
	} {
		assert.Contains(t, m, want)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestPanicIsInternalJSON(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	s.echo.GET("/panic", func(c echo.Context) error { panic("boom") })
	w := do(t, s, call{method: "GET", target: "/panic"})
	require.Equal(t, 500, w.Code)
	assert.Equal(t, "Internal", errorClass(t, w.Body.Bytes()))
	assert.Contains(t, logs.String(), "panic in handler")
}

func TestClassTableCoversEveryClass(t *testing.T) {
	for _, class := range []string{"InvalidJSON", "PayloadTooLarge", "ResponseShapeError", ClassBadRequest, ClassNotFound,
		ClassMethodNotAllowed, ClassRequestTimeout, ClassUnsupportedMediaType, ClassTooManyRequests, ClassInternal, ClassUnavailable} {
		assert.NotZero(t, classStatus[class], class)
	}
	want := map[string]int{"InvalidJSON": 400, "PayloadTooLarge": 413, "ResponseShapeError": 422, "NotFound": 404,
		"MethodNotAllowed": 405, "UnsupportedMediaType": 415, "TooManyRequests": 429, "Internal": 500}
	for class, status := range want {
		assert.Equal(t, status, classStatus[class], class)
	}
}

func TestSchemasRejectInvalidJSON(t *testing.T) {
	_, err := New(Config{Schemas: fstest.MapFS{"bad.schema.json": {Data: []byte(`{`)}}})
	require.ErrorContains(t, err, "bad.schema.json")
}

func TestNewWithoutSchemas(t *testing.T) {
	s, err := New(Config{Logger: zerolog.Nop()})
	require.NoError(t, err)
	w := do(t, s, call{method: "GET", target: "/v1/schemas"})
	assert.Equal(t, `{"schemas":[]}`, w.Body.String())
	assert.Equal(t, http.StatusOK, w.Code)
}

func TestLogWriterFlushes(t *testing.T) {
	var sink syncBuffer
	lw := NewLogWriter(&sink, time.Millisecond)
	_, err := lw.Write([]byte("line 1\n"))
	require.NoError(t, err)
	waitUntil(t, func() bool { return sink.String() == "line 1\n" }, "the ticker to flush")
	_, err = lw.Write([]byte("line 2\n"))
	require.NoError(t, err)
	require.NoError(t, lw.Close())
	assert.Equal(t, "line 1\nline 2\n", sink.String(), "Close flushes the rest")
}

// stoppedResult is an empty final_response from a run that stopped at a tool call.
const stoppedResult = `{"final_response":"","messages":[{"role":"user","content":"Where is order 4521?"},{"type":"function_call","call_id":"c1","name":"get_order","arguments":"{}"}]}`

// A rejection whose message the contract fixes carries its advice beside the message with
// ?explain=true only: without it, the error object is the plain one, byte for byte.
func TestRejectionAdvice(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	const plain = `{"error":{"class":"ResponseShapeError","message":"Handler returned an empty string for final_response. The platform rejects empty responses (the LLM judge has nothing to grade against). Return at least a one-sentence summary of what the agent did or why it failed.","path":"final_response"}}`
	for _, target := range []string{"/v1/normalize", "/v1/normalize?explain=false"} {
		w := do(t, s, call{method: "POST", target: target, body: strings.NewReader(stoppedResult)})
		require.Equal(t, 422, w.Code)
		require.Equal(t, plain, strings.TrimSuffix(w.Body.String(), "\n"), target)
	}
	w := do(t, s, call{method: "POST", target: "/v1/normalize?explain=true", body: strings.NewReader(stoppedResult)})
	require.Equal(t, 422, w.Code)
	body := w.Body.String()
	require.True(t, strings.HasPrefix(body, strings.TrimSuffix(plain, "}}")+`,"advice":{"path":"messages[1]","pointer":"/messages/1","code":"final_response_stopped_at_tool_call"`), body)
	var obj struct {
		Error struct {
			Message string
			Advice  struct {
				Message string
				Fix     struct{ Message string }
			}
		}
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &obj))
	require.Equal(t, normalize.EmptyResponseMessage, obj.Error.Message)
	require.Contains(t, obj.Error.Advice.Message, "the agent stopped at a tool call")
	require.Contains(t, obj.Error.Advice.Fix.Message, "responses.create")
}

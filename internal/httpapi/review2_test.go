package httpapi

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// Tests for the second review of the service (helper-15, 2026-11-30).

func TestBodyLimitHasAMaximum(t *testing.T) {
	_, err := New(Config{BodyLimit: MaxBodyLimit + 1, Schemas: testSchemas})
	require.Error(t, err)
	assert.Contains(t, err.Error(), strconv.Itoa(MaxBodyLimit))
	_, err = New(Config{BodyLimit: MaxBodyLimit, Schemas: testSchemas})
	require.NoError(t, err)
}

// shortBody claims more than it holds: a client that sends a large Content-Length and then
// only a few bytes.
type shortBody struct{ r io.Reader }

func (b shortBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

func TestContentLengthIsNotTakenOnTrust(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: MaxBodyLimit})
	req := httptest.NewRequest("POST", "/v1/normalize", shortBody{strings.NewReader(`{"final_response":"x"`)})
	req.ContentLength = 1 << 30 // a claim of 1 GiB, 21 bytes sent
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	runtime.ReadMemStats(&after)
	assert.Equal(t, http.StatusBadRequest, w.Code, w.Body.String())
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d bytes for a 1 GiB claim", allocated)
	assert.Less(t, allocated, uint64(4<<20), "a claimed length reserves at most upfrontLimit before its bytes come")
}

func TestReadLimitedReadsAKnownLength(t *testing.T) {
	for _, size := range []int{0, 1, upfrontLimit - 1, upfrontLimit, upfrontLimit + 1, 3*upfrontLimit + 7, 20 << 20} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			body := bytes.Repeat([]byte{'a'}, size)
			dst := make([]byte, 0, min(size+1, upfrontLimit))
			got, n, err := readLimited(iotestHalf{bytes.NewReader(body)}, dst, 20<<20, int64(size), &reservation{})
			require.NoError(t, err)
			assert.Equal(t, int64(size), n)
			assert.True(t, bytes.Equal(body, got))
			assert.LessOrEqual(t, cap(got), size+1, "the last buffer is no larger than the body and room for EOF")
		})
	}
}

// iotestHalf returns at most half of what is asked each time (at least one byte), as a slow
// network does.
type iotestHalf struct{ r io.Reader }

func (h iotestHalf) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:len(p)/2]
	}
	return h.r.Read(p)
}

func TestGzipWireBytesAreBounded(t *testing.T) {
	// Thousands of empty gzip members decode to nothing: the decoded limit never trips, the
	// compressed bound does.
	var empty bytes.Buffer
	zw := gzip.NewWriter(&empty)
	require.NoError(t, zw.Close())
	limit := int64(1024)
	members := int(gzipWireLimit(limit))/empty.Len() + 10
	body := append(bytes.Repeat(empty.Bytes(), members), gzipped(t, []byte(`"x"`))...)
	s, logs := newTestServer(t, Config{BodyLimit: limit})
	w := do(t, s, call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(body),
		header: map[string]string{"Content-Encoding": "gzip"}})
	require.Equal(t, http.StatusRequestEntityTooLarge, w.Code, w.Body.String())
	assert.Equal(t, "PayloadTooLarge", errorClass(t, w.Body.Bytes()))
	assert.Contains(t, w.Body.String(), "compressed bytes")
	var e struct {
		Error struct {
			Limit *int64 `json:"limit"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &e))
	require.NotNil(t, e.Error.Limit, "every 413 says its limit (review 4): %s", w.Body.String())
	assert.Equal(t, limit, *e.Error.Limit, "the body limit, which the client can act on")
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 1)

	// An honest gzip body just under the limit passes: incompressible bytes grow a little.
	s, _ = newTestServer(t, Config{BodyLimit: 64 << 10})
	noise := make([]byte, 60<<10)
	for i := range noise {
		noise[i] = byte('a' + (i*7919)%26)
	}
	doc := []byte(`{"final_response":"` + string(noise) + `"}`)
	w = do(t, s, call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(gzipped(t, doc)),
		header: map[string]string{"Content-Encoding": "gzip"}})
	assert.Equal(t, http.StatusOK, w.Code, w.Body.String())
}

func TestContentEncodingLines(t *testing.T) {
	doc := []byte(`{"final_response":"hi"}`)
	tests := []struct {
		name   string
		lines  []string
		gzip   bool
		status int
	}{
		{"none", nil, false, 200},
		{"identity", []string{"identity"}, false, 200},
		{"gzip", []string{"gzip"}, true, 200},
		{"x-gzip upper case", []string{"X-GZIP"}, true, 200},
		{"identity line then gzip line", []string{"identity", "gzip"}, true, 200},
		{"gzip and identity in one line", []string{"gzip, identity"}, true, 200},
		{"gzip twice in two lines", []string{"gzip", "gzip"}, true, 415},
		{"gzip twice in one line", []string{"gzip, gzip"}, true, 415},
		{"br", []string{"br"}, false, 415},
		{"gzip then br", []string{"gzip", "br"}, true, 415},
		{"empty line", []string{""}, false, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestServer(t, Config{})
			body := doc
			if tt.gzip {
				body = gzipped(t, doc)
			}
			req := httptest.NewRequest("POST", "/v1/normalize", bytes.NewReader(body))
			for _, l := range tt.lines {
				req.Header.Add("Content-Encoding", l)
			}
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			require.Equal(t, tt.status, w.Code, w.Body.String())
			if tt.status == 415 {
				assert.Equal(t, ClassUnsupportedMediaType, errorClass(t, w.Body.Bytes()))
			}
		})
	}
}

// failingFlush is a ResponseWriter whose flush fails as net/http's does when the write
// deadline has passed or the client has gone.
type failingFlush struct {
	*httptest.ResponseRecorder
	err error
}

func (f failingFlush) FlushError() error { return f.err }

func TestFailedWriteIsLoggedAndCounted(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{os.ErrDeadlineExceeded, "write timeout"},
		{errors.New("write: broken pipe"), "connection lost"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			s, logs := newTestServer(t, Config{})
			req := httptest.NewRequest("POST", "/v1/normalize", strings.NewReader(okResult))
			s.Handler().ServeHTTP(failingFlush{httptest.NewRecorder(), tt.err}, req)
			all := logs.String()
			assert.Contains(t, all, `"write_error":"`+tt.want+`"`)
			assert.Equal(t, 1.0, metricValue(t, s, "normalizer_http_write_failures_total"))
		})
	}
	s, logs := newTestServer(t, Config{})
	do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(okResult)})
	assert.NotContains(t, logs.String(), "write_error")
	assert.Equal(t, 0.0, metricValue(t, s, "normalizer_http_write_failures_total"))
}

// TestSlowUploadKeepsTheWriteTimeout sends half a body, waits past the write timeout, sends
// the rest: the answer still arrives, since the write deadline starts again once the body is in.
func TestSlowUploadKeepsTheWriteTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 1.5 s")
	}
	s, _ := newTestServer(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln, Timeouts{Write: time.Second, Read: 10 * time.Second}) }()
	t.Cleanup(func() {
		cancel()
		<-served
	})

	conn, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	body := okResult
	_, err = io.WriteString(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "+
		strconv.Itoa(len(body))+"\r\n\r\n"+body[:len(body)/2])
	require.NoError(t, err)
	time.Sleep(1500 * time.Millisecond)
	_, err = io.WriteString(conn, body[len(body)/2:])
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "the answer must arrive")
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(got), `"final_response":"The refund was issued."`)
}

// erroringBody fails mid-way, as a connection closed by the server's shutdown does.
type erroringBody struct{}

func (erroringBody) Read([]byte) (int, error) { return 0, net.ErrClosed }

func TestBodyCutOffByShutdownIsUnavailable(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	w := do(t, s, call{method: "POST", target: "/v1/normalize", body: erroringBody{}})
	assert.Equal(t, http.StatusBadRequest, w.Code, "while serving, a broken body is the client's")
	s.stopping.Store(true)
	w = do(t, s, call{method: "POST", target: "/v1/normalize", body: erroringBody{}})
	assert.Equal(t, http.StatusServiceUnavailable, w.Code, w.Body.String())
	assert.Equal(t, ClassUnavailable, errorClass(t, w.Body.Bytes()))
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

func TestLoggedMethodIsBounded(t *testing.T) {
	assert.Equal(t, "POST", loggedMethod("POST"))
	long := strings.Repeat("A", 30000)
	assert.Equal(t, strings.Repeat("A", 32)+"...", loggedMethod(long))
}

func TestMalformedQueryIsBadRequest(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, target := range []string{"/v1/normalize?explain=%zz", "/v1/normalize?explain=true&x=%"} {
		w := do(t, s, call{method: "POST", target: target, body: strings.NewReader(okResult)})
		assert.Equal(t, http.StatusBadRequest, w.Code, target)
		assert.Equal(t, ClassBadRequest, errorClass(t, w.Body.Bytes()))
	}
	w := do(t, s, call{method: "POST", target: "/v1/normalize?explain=true", body: strings.NewReader(okResult)})
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Contains(t, w.Body.String(), `"diagnostics"`)
}

func TestAllowNamesHeadAndOptionsAreRoutes(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	w := do(t, s, call{method: "DELETE", target: "/healthz"})
	require.Equal(t, http.StatusMethodNotAllowed, w.Code)
	assert.Equal(t, "OPTIONS, GET, HEAD", w.Header().Get("Allow"))
	w = do(t, s, call{method: "OPTIONS", target: "/v1/schemas/record"})
	require.Equal(t, http.StatusNoContent, w.Code)
	assert.Equal(t, "OPTIONS, GET, HEAD", w.Header().Get("Allow"))
	w = do(t, s, call{method: "OPTIONS", target: "/v1/normalize"})
	require.Equal(t, http.StatusNoContent, w.Code)
	assert.Equal(t, "OPTIONS, POST", w.Header().Get("Allow"))
	w = do(t, s, call{method: "HEAD", target: "/v1/normalize"})
	require.Equal(t, http.StatusMethodNotAllowed, w.Code)
	assert.Contains(t, w.Body.String(), "method HEAD is not allowed on /v1/normalize")
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 4)
	assert.Equal(t, "/v1/schemas/:name", lines[1].Route, "OPTIONS is logged under its route")
	assert.Equal(t, "/v1/normalize", lines[2].Route)
}

func TestMetricsFailureIsTheJSONError(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(failingCollector{}) // openapi_test.go's
	s, logs := newTestServer(t, Config{Registry: reg})
	w := do(t, s, call{method: "GET", target: "/metrics"})
	require.Equal(t, http.StatusInternalServerError, w.Code)
	assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
	assert.Equal(t, ClassInternal, errorClass(t, w.Body.Bytes()))
	assert.Contains(t, logs.String(), "collect failed", "the cause is logged")
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 1)
	assert.Equal(t, ClassInternal, lines[0].ErrorClass)
}

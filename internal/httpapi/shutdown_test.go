package httpapi

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Requests caught by shutdown: a body cut off by it, a corrupt body sent during it, and a
// request cut off when the grace period ends.

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

// A corrupt body sent while the server shuts down is still the client's: 400, not 503.
func TestCorruptBodyDuringShutdownIsBadRequest(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	body := gzipBytes([]byte(okResult))
	body[len(body)-5] ^= 0xff // break the CRC
	for _, stopping := range []bool{false, true} {
		s.stopping.Store(stopping)
		w := do(t, s, call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(body),
			header: map[string]string{"Content-Encoding": "gzip"}})
		assert.Equal(t, http.StatusBadRequest, w.Code, "stopping %v: %s", stopping, w.Body.String())
	}
}

// A request cut off when the grace period ends is logged before Serve returns: the process
// exits right after, and a line written later would be lost.
func TestCutOffRequestIsLoggedBeforeServeReturns(t *testing.T) {
	for i := range 3 {
		// A log writer as slow as a loaded disk: without the wait for handlers, Serve returns
		// before the line is written, every time.
		logs := &syncBuffer{}
		s, err := New(Config{Logger: zerolog.New(slowWriter{logs, 100 * time.Millisecond}), Schemas: testSchemas})
		require.NoError(t, err)
		// The handler's line takes 100 ms to write: more than a run without the wait takes
		// to return, and on a busy machine maybe more than HandlersExitWait, which the
		// process waits at most. The test waits until it is hung.
		s.waits.handlers = hung
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
		waitUntil(t, func() bool { return s.handling.Load() == 1 }, "the handler to wait for the rest of the body")
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

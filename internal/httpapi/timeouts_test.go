package httpapi

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Timeouts and writes: a write that fails is logged and counted, and the write deadline starts
// again once the body is read, so an upload slower than the write timeout (408 included) still
// gets its answer.

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

// A client that never reads a large answer: the write times out, and the log line and the
// metric say so (the status was committed, so the client cannot be told).
func TestWriteTimeoutOverARealConnection(t *testing.T) {
	s, logs := newTestServer(t, Config{BodyLimit: 32 << 20})
	addr := startServer(t, s, Timeouts{Write: time.Second})
	msg := `{"role":"user","content":"` + strings.Repeat("m", 200) + `"}`
	body := []byte(`{"final_response":"x","messages":[` + strings.Repeat(msg+",", 60000) + msg + `]}`) // a 13 MB record, past the socket buffers
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.(*net.TCPConn).SetReadBuffer(4096))
	_, err = io.WriteString(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n")
	require.NoError(t, err)
	_, err = conn.Write(body)
	require.NoError(t, err)
	waitUntil(t, func() bool { return strings.Contains(logs.String(), `"route":"/v1/normalize"`) }, "the request's line")
	require.Len(t, accessLines(t, logs.String()), 1, "the request is logged once it ends")
	assert.Contains(t, logs.String(), `"write_error":"write timeout"`)
	assert.Equal(t, 1.0, metricValue(t, s, "normalizer_http_write_failures_total"))
}

// slowWrite is the write timeout of the tests of slow uploads: an upload pauses past it, and
// the answer must be written within it once the body is in.
const slowWrite = 2 * time.Second

// TestSlowUploadKeepsTheWriteTimeout sends half a body, waits past the write timeout, sends
// the rest: the answer still arrives, since the write deadline starts again once the body is in.
func TestSlowUploadKeepsTheWriteTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 2 s")
	}
	t.Parallel()
	s, _ := newTestServer(t, Config{})
	addr := startServer(t, s, Timeouts{Write: slowWrite, Read: 2 * hung})
	body := okResult
	resp, got := sendSlowly(t, s, addr, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "+
		strconv.Itoa(len(body))+"\r\n\r\n", []byte(body[:len(body)/2]), []byte(body[len(body)/2:]), true)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(got), `"final_response":"The refund was issued."`)
}

// sendSlowly writes head and first to s, listening on addr; with pause, it waits until the
// server has read the headers (its handler has begun: net/http set the write deadline before
// that) and then past the write timeout, so that the deadline net/http set has passed
// however late the server read them; then it writes second, and reads the answer.
func sendSlowly(t *testing.T, s *Server, addr, head string, first, second []byte, pause bool) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, head)
	require.NoError(t, err)
	_, err = conn.Write(first)
	require.NoError(t, err)
	if pause {
		waitUntil(t, func() bool { return s.handling.Load() == 1 }, "the handler to begin")
		time.Sleep(slowWrite + 100*time.Millisecond) // the duration under test, not a synchronisation
	}
	if second != nil {
		_, err = conn.Write(second)
		require.NoError(t, err)
	}
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(hung)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "the answer must arrive")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, b
}

// An upload slower than the write timeout that ends in an error (over the limit, a corrupt
// gzip stream) still gets its error answer: the write deadline starts again once the body is
// read, whatever the outcome.
func TestSlowUploadErrorAnswerArrives(t *testing.T) {
	t.Parallel()
	gz := gzipBytes([]byte(okResult))
	gz[len(gz)-5] ^= 0xff
	half := len(gz) / 2
	tests := []struct {
		name          string
		extra         string
		first, second []byte
		status        int
	}{
		{"over the limit, chunked", "", []byte("400\r\n" + strings.Repeat("a", 0x400) + "\r\n"),
			[]byte("800\r\n" + strings.Repeat("a", 0x800) + "\r\n0\r\n\r\n"), 413},
		{"corrupt gzip", "Content-Encoding: gzip\r\n", fmt.Appendf(nil, "%x\r\n%s\r\n", half, gz[:half]),
			fmt.Appendf(nil, "%x\r\n%s\r\n0\r\n\r\n", len(gz)-half, gz[half:]), 400},
		{"fine (control)", "", []byte("5\r\n\"abc\"\r\n"), []byte("0\r\n\r\n"), 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, logs := newTestServer(t, Config{BodyLimit: 2048})
			addr := startServer(t, s, Timeouts{Write: slowWrite, Read: 2 * hung})
			resp, b := sendSlowly(t, s, addr, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"+tt.extra+"\r\n",
				tt.first, tt.second, true)
			assert.Equal(t, tt.status, resp.StatusCode, "%s", b)
			assert.NotContains(t, logs.String(), "write_error")
		})
	}
}

// With the read and write timeouts equal (as the defaults are), a stalled body's 408 comes
// after the write deadline net/http set at the end of the headers: it arrives all the same.
func TestStalledBody408Arrives(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Config{})
	addr := startServer(t, s, Timeouts{Read: slowWrite, Write: slowWrite})
	resp, b := sendSlowly(t, s, addr, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n",
		[]byte(`{"final`), nil, false)
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode, "%s", b)
	assert.Equal(t, ClassRequestTimeout, errorClass(t, b))
}

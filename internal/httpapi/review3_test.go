package httpapi

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests from the third review (helper-19, 2026-11-30): error answers after a slow body, body
// errors during shutdown, a write timeout over a real connection.

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

// sendSlowly writes head and first, waits, writes second, and reads the answer.
func sendSlowly(t *testing.T, addr, head string, first, second []byte, wait time.Duration) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, head)
	require.NoError(t, err)
	_, err = conn.Write(first)
	require.NoError(t, err)
	time.Sleep(wait)
	if second != nil {
		_, err = conn.Write(second)
		require.NoError(t, err)
	}
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
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
			s, logs := newTestServer(t, Config{BodyLimit: 2048})
			addr := startServer(t, s, Timeouts{Write: time.Second, Read: 10 * time.Second})
			resp, b := sendSlowly(t, addr, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"+tt.extra+"\r\n",
				tt.first, tt.second, 1500*time.Millisecond)
			assert.Equal(t, tt.status, resp.StatusCode, "%s", b)
			assert.NotContains(t, logs.String(), "write_error")
		})
	}
}

// With the read and write timeouts equal (as the defaults are), a stalled body's 408 comes
// after the write deadline net/http set at the end of the headers: it arrives all the same.
func TestStalledBody408Arrives(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	addr := startServer(t, s, Timeouts{Read: time.Second, Write: time.Second})
	resp, b := sendSlowly(t, addr, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n",
		[]byte(`{"final`), nil, 0)
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode, "%s", b)
	assert.Equal(t, ClassRequestTimeout, errorClass(t, b))
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
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(logs.String(), `"route":"/v1/normalize"`) {
		time.Sleep(50 * time.Millisecond)
	}
	require.Len(t, accessLines(t, logs.String()), 1, "the request is logged once it ends")
	assert.Contains(t, logs.String(), `"write_error":"write timeout"`)
	assert.Equal(t, 1.0, metricValue(t, s, "normalizer_http_write_failures_total"))
}

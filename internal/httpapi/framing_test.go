package httpapi

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exchangeRaw writes raw to a new connection to addr, reads the answers it expects (their
// statuses, and for 400 the class and a message), and requires the connection to end after
// them when close is set, or to stay open for another request when not.
func exchangeRaw(t *testing.T, addr, raw string, close bool, want ...int) []string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	_, err = io.WriteString(conn, raw)
	require.NoError(t, err)
	br := bufio.NewReader(conn)
	var messages []string
	for i, status := range want {
		res, err := http.ReadResponse(br, nil)
		require.NoError(t, err, "answer %d", i)
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, status, res.StatusCode, "answer %d: %s", i, b)
		if status == http.StatusBadRequest {
			class, message := errorOf(t, b)
			assert.Equal(t, ClassBadRequest, class)
			assert.True(t, res.Close, "a framing 400 says Connection: close")
			messages = append(messages, message)
		}
	}
	if close {
		_, err = br.ReadByte()
		assert.ErrorIs(t, err, io.EOF, "the connection ends after the answers")
		return messages
	}
	_, err = io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	res, err := http.ReadResponse(br, nil)
	require.NoError(t, err, "the connection serves another request")
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
	return messages
}

const (
	postHead = "POST /v1/normalize HTTP/1.1\r\nHost: x\r\n"
	okCL     = postHead + "Content-Length: 7\r\n\r\n\"hello\""
	okChunk  = postHead + "Transfer-Encoding: chunked\r\n\r\n7\r\n\"hello\"\r\n0\r\n\r\n"
)

// TestAmbiguousFramingIs400: a request with both Content-Length and Transfer-Encoding, a
// folded header (a folded Transfer-Encoding above all), or a Transfer-Encoding in HTTP/1.0 is
// answered 400 BadRequest with Connection: close, before its body is read (none of it is
// sent here), on any route, alone, after a request on a kept-alive connection, or pipelined
// behind one; and the connection ends. Requests framed plainly, pipelined, are all served.
func TestAmbiguousFramingIs400(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	addr := startServer(t, s, Timeouts{})
	tests := []struct {
		name, head, message string
	}{
		{"Content-Length and chunked", postHead + "Content-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n", "both Content-Length and Transfer-Encoding"},
		{"chunked and Content-Length", postHead + "transfer-encoding: chunked\r\ncontent-length: 0\r\n\r\n", "both Content-Length and Transfer-Encoding"},
		{"Transfer-Encoding folded", postHead + "Transfer-Encoding:\r\n chunked\r\n\r\n", "folded onto a second line"},
		{"Transfer-Encoding folded with a tab", postHead + "Transfer-Encoding: \r\n\tchunked\r\n\r\n", "folded onto a second line"},
		{"another header folded", postHead + "X-Note: a\r\n b\r\nContent-Length: 7\r\n\r\n", "folded onto a second line"},
		{"Transfer-Encoding in HTTP/1.0", "POST /v1/normalize HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", "HTTP/1.0 with a Transfer-Encoding"},
		{"on GET /healthz", "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", "both Content-Length"},
		{"on an unknown path", "POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", "both Content-Length"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := exchangeRaw(t, addr, tt.head, true, http.StatusBadRequest)
			assert.Contains(t, msgs[0], tt.message)
		})
		t.Run(tt.name+", after a request on the same connection", func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer conn.Close()
			require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
			br := bufio.NewReader(conn)
			for i, req := range []string{okCL, tt.head} {
				_, err := io.WriteString(conn, req)
				require.NoError(t, err)
				res, err := http.ReadResponse(br, nil)
				require.NoError(t, err)
				_, _ = io.ReadAll(res.Body)
				res.Body.Close()
				assert.Equal(t, []int{200, 400}[i], res.StatusCode)
			}
			_, err = br.ReadByte()
			assert.ErrorIs(t, err, io.EOF)
		})
		t.Run(tt.name+", pipelined behind others", func(t *testing.T) {
			exchangeRaw(t, addr, okCL+okChunk+tt.head, true, 200, 200, 400)
		})
	}
	before := metricValue(t, s, "normalizer_request_body_bytes_total")
	exchangeRaw(t, addr, postHead+"Content-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n\"hello\"\r\n0\r\n\r\n", true, 400)
	assert.Equal(t, before, metricValue(t, s, "normalizer_request_body_bytes_total"), "the body is not read")
	t.Run("plain framing, pipelined", func(t *testing.T) {
		exchangeRaw(t, addr, okCL+okChunk+"POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\n\"hello\"\r\n"+okCL+
			"GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"+okChunk, false, 200, 200, 200, 200, 200, 200)
	})
}

// A request served by net/http itself (OPTIONS *) with ambiguous framing is not the handler's
// to answer; the next request on the connection is answered 400, and the connection ends.
func TestAmbiguousFramingOfOptionsStar(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	addr := startServer(t, s, Timeouts{})
	exchangeRaw(t, addr, "OPTIONS * HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"+okCL,
		true, 200, 400)
}

// The framer alone, fed a stream one byte at a time and all at once: what it finds of each
// request.
func TestFramerFindsRequests(t *testing.T) {
	stream := okCL + okChunk + "\r\n" + "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n" + "GET / HTTP/1.0\r\n\r\n" +
		postHead + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
	want := []framingRecord{
		{start: 0, end: int64(len(okCL) - 7), handled: true, length: 7},
		{start: int64(len(okCL)), end: int64(len(okCL) + len(postHead) + 30), handled: true, chunked: true},
		{handled: false},
		{handled: true},
		{handled: true, length: 3, chunked: true, flag: framingBoth},
	}
	for _, piece := range []int{1, len(stream)} {
		var f framer
		var got []framingRecord
		f.onRequest = func(r framingRecord) { got = append(got, r) }
		for i := 0; i < len(stream); i += piece {
			f.feed([]byte(stream[i:min(len(stream), i+piece)]))
		}
		require.Len(t, got, len(want))
		for i := range want {
			assert.Equal(t, want[i].handled, got[i].handled, "request %d", i)
			assert.Equal(t, want[i].chunked, got[i].chunked, "request %d", i)
			assert.Equal(t, want[i].length, got[i].length, "request %d", i)
			assert.Equal(t, want[i].flag, got[i].flag, "request %d", i)
		}
		assert.Equal(t, want[0].end, got[0].end)
		assert.Equal(t, want[1].start, got[1].start)
		assert.Equal(t, want[1].end, got[1].end)
		assert.Equal(t, framingBoth, f.flag)
		assert.EqualValues(t, 3, f.flaggedAt, "the flagged request is the handler's fourth (index 3): OPTIONS * is not the handler's")
		assert.True(t, strings.HasPrefix(stream[got[2].start:], "OPTIONS *"), "the two CR LF after a POST are skipped")
	}
}

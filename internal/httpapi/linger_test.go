package httpapi

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The lingering close (linger.go): how each one ends, what it holds, and shutdown.

// refusedUpload sends the headers of a POST /v1/normalize whose Content-Length (size) is over
// the limit, and reads its 413, which comes before any of the body is sent: the server has
// answered, shut its writing side and is lingering. The answer must say Connection: close, and
// the connection end right after it for the client.
func refusedUpload(t *testing.T, addr string, size int) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	_, err = fmt.Fprintf(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", size)
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(30*time.Second)))
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode, "%s", b)
	assert.True(t, res.Close, "the answer says Connection: close")
	_, err = br.ReadByte()
	assert.ErrorIs(t, err, io.EOF, "the server's side of the connection ends with the answer")
	return conn
}

// awaitLingered waits until one lingering close has ended so, and returns the bytes discarded.
func awaitLingered(t *testing.T, s *Server, end string) float64 {
	t.Helper()
	series := `normalizer_lingering_closes_total{end="` + end + `"}`
	require.Eventually(t, func() bool { return metricOr0(t, s, series) == 1 }, 30*time.Second, time.Millisecond,
		"a lingering close ends: %s", end)
	assert.Equal(t, 0.0, metricValue(t, s, "normalizer_lingering_connections"))
	return metricValue(t, s, "normalizer_lingering_discarded_bytes_total")
}

// metricOr0 is a metric's value, 0 when the series does not exist yet.
func metricOr0(t *testing.T, s *Server, name string) float64 {
	w := do(t, s, call{method: "GET", target: "/metrics"})
	for line := range strings.SplitSeq(w.Body.String(), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			var f float64
			_, err := fmt.Sscan(v, &f)
			require.NoError(t, err, line)
			return f
		}
	}
	return 0
}

// writeUntilFails writes b to conn until a write fails (the server closed), and returns how
// many bytes were written.
func writeUntilFails(conn net.Conn, b []byte) int {
	n := 0
	_ = conn.SetWriteDeadline(time.Now().Add(30 * time.Second)) // a backstop
	for {
		k, err := conn.Write(b)
		n += k
		if err != nil {
			return n
		}
	}
}

func TestLingeringCloseEnds(t *testing.T) {
	const limit = 1 << 10
	t.Run("the client closes", func(t *testing.T) {
		s, _ := newTestServer(t, Config{BodyLimit: limit})
		addr := startServer(t, s, Timeouts{LingerTimeout: time.Minute})
		conn := refusedUpload(t, addr, 100<<10)
		_, err := conn.Write(make([]byte, 5000))
		require.NoError(t, err)
		conn.Close()
		assert.Equal(t, 5000.0, awaitLingered(t, s, lingerClientClosed), "every byte sent is discarded")
	})
	t.Run("the client stops sending", func(t *testing.T) {
		s, _ := newTestServer(t, Config{BodyLimit: limit})
		addr := startServer(t, s, Timeouts{LingerTimeout: 100 * time.Millisecond, LingerTime: time.Hour})
		conn := refusedUpload(t, addr, 100<<10)
		_, err := conn.Write(make([]byte, 300))
		require.NoError(t, err)
		assert.Equal(t, 300.0, awaitLingered(t, s, lingerTimeout), "the client holds the connection only for --linger-timeout")
	})
	t.Run("the client sends past the byte limit", func(t *testing.T) {
		s, _ := newTestServer(t, Config{BodyLimit: limit})
		addr := startServer(t, s, Timeouts{LingerTimeout: time.Minute, LingerBytes: 1 << 20})
		conn := refusedUpload(t, addr, 64<<20)
		sent := writeUntilFails(conn, make([]byte, 64<<10))
		assert.Equal(t, float64(1<<20), awaitLingered(t, s, lingerByteLimit), "no more than --linger-bytes is discarded")
		t.Logf("the client sent %d bytes before its write failed", sent)
	})
	t.Run("the client sends for longer than the time limit", func(t *testing.T) {
		s, _ := newTestServer(t, Config{BodyLimit: limit})
		addr := startServer(t, s, Timeouts{LingerTimeout: time.Minute, LingerTime: 200 * time.Millisecond})
		conn := refusedUpload(t, addr, 64<<20)
		// A byte a write, as fast as the client can: the linger's byte limit (256 MiB) stays far
		// off, whatever the machine's speed, and its time limit ends it.
		go writeUntilFails(conn, []byte("x"))
		awaitLingered(t, s, lingerTimeLimit)
	})
}

// TestLingeringHoldsNoSlot: while a refused request's connection lingers, its in-flight slot
// and its share of the memory budget are free: the one slot serves the next request at once.
func TestLingeringHoldsNoSlot(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: 1 << 10, MaxInFlight: 1, MemoryBudget: 64 << 20})
	addr := startServer(t, s, Timeouts{LingerTimeout: time.Minute})
	refusedUpload(t, addr, 100<<10)
	require.Eventually(t, func() bool { return metricValue(t, s, "normalizer_lingering_connections") == 1 },
		30*time.Second, time.Millisecond)
	assert.EqualValues(t, 0, s.inFlight.Load())
	assert.Equal(t, 0.0, metricValue(t, s, "normalizer_memory_reserved_bytes"))
	res, err := http.Post("http://"+addr+routeNormalize, "application/json", strings.NewReader(okResult))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, 1.0, metricValue(t, s, "normalizer_lingering_connections"), "still lingering")
}

// TestLingeringEndsWithShutdown: a connection lingering when shutdown starts is closed by the
// end of the grace period, however long its own bounds, and Serve waits for it.
func TestLingeringEndsWithShutdown(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: 1 << 10})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- s.Serve(ctx, ln, Timeouts{Grace: 200 * time.Millisecond, LingerTimeout: time.Hour, LingerTime: time.Hour})
	}()
	defer cancel()
	refusedUpload(t, ln.Addr().String(), 100<<10)
	require.Eventually(t, func() bool { return metricValue(t, s, "normalizer_lingering_connections") == 1 },
		30*time.Second, time.Millisecond)
	cancel()
	select {
	case err := <-served:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return: the lingering connection outlived the grace period")
	}
	assert.Equal(t, 1.0, metricValue(t, s, `normalizer_lingering_closes_total{end="shutdown"}`))
}

// TestStalledBodyLingers: a 408 for a body that did not arrive in time also closes only after
// lingering, so that a client still sending sees it.
func TestStalledBodyLingers(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	addr := startServer(t, s, Timeouts{Read: 300 * time.Millisecond, LingerTimeout: time.Minute})
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"final")
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(30*time.Second)))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	assert.Equal(t, http.StatusRequestTimeout, res.StatusCode, "%s", b)
	assert.True(t, res.Close, "the answer says Connection: close")
	_, err = io.WriteString(conn, strings.Repeat("x", 93)) // the rest of the body, late
	require.NoError(t, err)
	conn.Close()
	assert.Equal(t, 93.0, awaitLingered(t, s, lingerClientClosed))
}

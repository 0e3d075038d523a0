package httpapi

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The minimum body data rate (bodyrate.go).

// trickle opens a connection and sends the headers of a normalize request claiming size bytes
// and the first bytes of its body, then nothing; it returns the connection and its reader.
func trickle(t *testing.T, addr string, size int, first string) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	_, err = fmt.Fprintf(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", size, first)
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(30*time.Second))) // a backstop
	return conn, bufio.NewReader(conn)
}

// readAnswerOf reads one answer from br.
func readAnswerOf(t *testing.T, br *bufio.Reader) (*http.Response, []byte) {
	t.Helper()
	res, err := http.ReadResponse(br, nil)
	require.NoError(t, err, "the answer must arrive")
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	res.Body.Close()
	return res, b
}

// TestMinBodyRateFreesTheSlots: clients trickling their bodies take every in-flight slot;
// once the grace period is over (a short one here; the read timeout is an hour) each is
// answered 408 RequestTimeout, with Connection: close, counted, and the slots serve again.
func TestMinBodyRateFreesTheSlots(t *testing.T) {
	const slots = 4
	s, _ := newTestServer(t, Config{MaxInFlight: slots})
	addr := startServer(t, s, Timeouts{Read: time.Hour, MinBodyRate: 240, MinBodyRateGrace: 200 * time.Millisecond})
	var readers []*bufio.Reader
	for range slots {
		_, br := trickle(t, addr, 1000, `{"f`)
		readers = append(readers, br)
	}
	for _, br := range readers {
		res, b := readAnswerOf(t, br)
		require.Equal(t, http.StatusRequestTimeout, res.StatusCode, "%s", b)
		class, msg := errorOf(t, b)
		assert.Equal(t, ClassRequestTimeout, class)
		assert.Contains(t, msg, "request body: arrived at ")
		assert.Contains(t, msg, "under the minimum of 240 bytes/s that applies after its first 200ms")
		assert.True(t, res.Close, "the connection is closed after the 408")
	}
	assert.Equal(t, float64(slots), metricValue(t, s, "normalizer_body_rate_cuts_total"))
	require.Eventually(t, func() bool { return s.inFlight.Load() == 0 }, 30*time.Second, time.Millisecond)
	res, err := http.Post("http://"+addr+routeNormalize, "application/json", strings.NewReader(okResult))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
}

// TestMinBodyRateSparesFastClients: a body above the minimum rate, whole or in pieces, is not
// cut once the grace is over.
func TestMinBodyRateSparesFastClients(t *testing.T) {
	body := `{"final_response":"` + strings.Repeat("x", 2<<20) + `"}`
	for _, chunked := range []bool{false, true} {
		// The clock the rule reads stands for a client at 1.25 times the minimum rate (300 bytes
		// a second of 240): it says n/300 seconds once the server has read n bytes. The hour's
		// grace by that clock is over after 1.08 MB, halfway through the body, and the rule
		// then holds the rest to the rate; the connection's deadlines, an hour or more away,
		// never come into it, however busy the machine.
		s, _ := newTestServer(t, Config{BodyLimit: 4 << 20})
		var clock atomic.Int64
		s.now = func() time.Duration { return time.Duration(clock.Load()) }
		s.rateRead = func(n int64) { clock.Store(int64(float64(n) / 300 * float64(time.Second))) }
		addr := startServer(t, s, Timeouts{Read: 2 * time.Hour, MinBodyRate: 240, MinBodyRateGrace: time.Hour})
		var r io.Reader = strings.NewReader(body)
		if chunked {
			r = onlyReader{r}
		}
		res, err := http.Post("http://"+addr+routeNormalize, "application/json", r)
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		assert.Equal(t, http.StatusOK, res.StatusCode, "chunked %v: %.200s", chunked, b)
		assert.Greater(t, time.Duration(clock.Load()), time.Hour, "chunked %v: the body outlasted the grace by the clock", chunked)
		assert.Equal(t, 0.0, metricValue(t, s, "normalizer_body_rate_cuts_total"))
	}
}

// TestMinBodyRateByTheClock holds the rule to a clock the test moves, once the server has read
// what was sent: a body that came at 320 bytes a second by that clock is served, one that sent
// 19 bytes in an hour is cut, and its message says so. The grace is ten minutes by that clock,
// so the connection's own deadlines are minutes away and a busy machine changes no verdict.
func TestMinBodyRateByTheClock(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	var clock, read atomic.Int64
	s.now = func() time.Duration { return time.Duration(clock.Load()) }
	s.rateRead = func(n int64) { read.Store(n) }
	addr := startServer(t, s, Timeouts{Read: time.Hour, MinBodyRate: 240, MinBodyRateGrace: 10 * time.Minute})
	awaitRead := func(n int) {
		t.Helper()
		require.Eventually(t, func() bool { return read.Load() >= int64(n) }, 30*time.Second, time.Millisecond,
			"the server reads the %d bytes sent", n)
	}

	t.Run("fast enough", func(t *testing.T) {
		clock.Store(0)
		read.Store(0)
		head := `{"final_response":"ok"}`
		piece := strings.Repeat(" ", 288000) // 15 minutes at 320 bytes a second
		conn, br := trickle(t, addr, len(head)+3*len(piece), head+piece)
		for sent := 1; sent <= 2; sent++ {
			awaitRead(len(head) + sent*len(piece))
			clock.Add(int64(15 * time.Minute))
			_, err := io.WriteString(conn, piece)
			require.NoError(t, err)
		}
		res, b := readAnswerOf(t, br)
		assert.Equal(t, http.StatusOK, res.StatusCode, "%.300s", b)
		assert.Equal(t, 0.0, metricValue(t, s, "normalizer_body_rate_cuts_total"))
	})
	t.Run("too slow", func(t *testing.T) {
		clock.Store(0)
		read.Store(0)
		conn, br := trickle(t, addr, 1000, `{"final_re`)
		awaitRead(10)
		clock.Add(int64(time.Hour))
		_, err := io.WriteString(conn, `sponse":"`)
		require.NoError(t, err)
		res, b := readAnswerOf(t, br)
		require.Equal(t, http.StatusRequestTimeout, res.StatusCode, "%s", b)
		_, msg := errorOf(t, b)
		assert.Contains(t, msg, "request body: arrived at 0.005 bytes/s on average (19 bytes in 3600.0 s), under the minimum of 240 bytes/s that applies after its first 10m0s")
		assert.Equal(t, 1.0, metricValue(t, s, "normalizer_body_rate_cuts_total"))
	})
}

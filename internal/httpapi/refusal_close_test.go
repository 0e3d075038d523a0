package httpapi

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRefusalClosesAtOnce: after a 429 the connection is closed within the second the server
// gives the rest of the body (net/http reads up to 256 KiB of it), or at once past that, not
// after the read timeout (3 s here).
func TestRefusalClosesAtOnce(t *testing.T) {
	for _, size := range []int{100 << 10, 300 << 10} {
		s, _ := newTestServer(t, Config{MaxInFlight: 1})
		addr := startServer(t, s, Timeouts{Read: 3 * time.Second})
		send := func() net.Conn {
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			t.Cleanup(func() { conn.Close() })
			fmt.Fprintf(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n{\"final_re", size)
			return conn
		}
		send()
		require.Eventually(t, func() bool { return s.inFlight.Load() == 1 }, 5*time.Second, time.Millisecond)
		conn := send()
		start := time.Now()
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
		br := bufio.NewReader(conn)
		res, err := http.ReadResponse(br, nil)
		require.NoError(t, err)
		_, _ = io.ReadAll(res.Body)
		got := time.Since(start)
		_, err = br.ReadByte() // EOF when the server closes
		closed := time.Since(start)
		t.Logf("body %d: 429 after %v, connection closed after %v (%v)", size, got, closed, err)
		assert.Less(t, closed, 2*time.Second, "the server kept the connection to read the body")
	}
}

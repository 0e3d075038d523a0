package httpapi

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A request refused by the budget (429), or by its Content-Length (413), allocates no body buffer.
func TestRefusedRequestAllocatesNoBuffer(t *testing.T) {
	if raceEnabled {
		t.Skip("counts allocations")
	}
	s, _ := newTestServer(t, Config{MemoryBudget: 8 << 20})
	h := s.Handler()
	release := holdClaim(h, 20<<20) // holds 4.6 MiB of the 8 until released: its body never comes
	require.Eventually(t, func() bool { return s.budget.used.Load() > 0 }, 5*time.Second, time.Millisecond)
	for _, tt := range []struct {
		length int64
		want   int
	}{{3 << 20, 429}, {1 << 40, 413}} {
		runtime.GC()
		runtime.GC() // empties the buffer pools
		req := httptest.NewRequest("POST", "/v1/normalize", strings.NewReader("{}"))
		req.ContentLength = tt.length
		w := httptest.NewRecorder()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		h.ServeHTTP(w, req)
		runtime.ReadMemStats(&after)
		require.Equal(t, tt.want, w.Code)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10), "a %d allocated a body buffer", tt.want)
	}
	release()
}

// Claiming 20 MiB and sending 1 MiB must not hold 8x what was sent of the budget.
func TestClaimedLengthReservesLittleMoreThanSent(t *testing.T) {
	s, _ := newTestServer(t, Config{MemoryBudget: 1 << 30})
	addr := startServer(t, s, Timeouts{})
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", 20<<20)
	_, err = conn.Write(bytes.Repeat([]byte{' '}, 1<<20))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return s.metrics != nil && s.budget.used.Load() > ceilMul(4.5, 1<<20)+perRequest },
		5*time.Second, time.Millisecond) // the 1 MiB buffer is full
	time.Sleep(100 * time.Millisecond)
	assert.LessOrEqual(t, s.budget.used.Load(), ceilMul(4.5, 2<<20)+perRequest, "reserved for bytes not sent")
}

// A client that does not read its record holds only what is live: the record's buffer (and the
// body's), not the core's worst case, whose scratch went back before the write.
func TestSlowReaderHoldsOnlyItsBuffers(t *testing.T) {
	const size = 16 << 20 // a record larger than the sockets' buffers: the write blocks
	s, _ := newTestServer(t, Config{MemoryBudget: 1 << 30})
	addr := startServer(t, s, Timeouts{})
	body := []byte(`{"final_response":"ok","messages":[{"role":"user","content":"` + strings.Repeat("x", size-70) + `"}]}`)
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", len(body))
	_, err = conn.Write(body)
	require.NoError(t, err)
	time.Sleep(time.Second) // normalized, and blocked writing
	held := s.budget.used.Load()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, res.Body)
	assert.Less(t, held, int64(2*len(body)+perRequest+(1<<20)), "%.1fx the body held while writing", float64(held)/float64(len(body)))
}

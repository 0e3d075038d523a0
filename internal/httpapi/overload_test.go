package httpapi

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dystopic/normalizer/internal/testkit/heaptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startServer serves s on 127.0.0.1:0 with the real http.Server settings of Serve and stops
// it when the test ends.
func startServer(t *testing.T, s *Server, to Timeouts) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, to) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	return ln.Addr().String()
}

// TestOverload: eight times the in-flight cap arrive at once, every one holding back the
// end of its body. The server admits exactly the cap (they wait for their bodies), answers
// every other one 429 with Retry-After at once, without reading its body, and, once the held
// bodies arrive, 200 with the exact record for the admitted ones: no 5xx, and the bodies
// read are exactly those of the admitted requests.
func TestOverload(t *testing.T) {
	if !heaptest.Alone(t) { // Peak reads the process's heap
		return
	}
	const (
		inFlight = 4
		clients  = 8 * inFlight
		size     = 300 << 10 // over net/http's 256 KiB post-handler read: a 429 closes at once
	)
	s, _ := newTestServer(t, Config{MaxInFlight: inFlight})
	addr := startServer(t, s, Timeouts{})
	body := []byte(`{"final_response":"` + strings.Repeat("x", size-21) + `"}`)
	want, class := expectedOutput(s.plain, body)
	require.Empty(t, class)
	head := len(body) / 2

	var burst *heldBurst
	extra := heaptest.Peak(func() { // memory: the burst costs what the admitted requests hold
		burst = startHeldBurst(t, addr, body, head, clients)
		burst.take(clients - inFlight) // all the 429s come while the admitted ones still wait
		require.Equal(t, map[int]int{429: clients - inFlight}, burst.got, "before the held bodies are sent")
		require.EqualValues(t, inFlight, s.inFlight.Load())
		burst.finish(inFlight)
	})
	// Each admitted request holds its body, its record and the scanner's scratch (under 3x
	// the body, TestMemoryBoundHTTP); each connection a few KiB of buffers.
	bound := uint64(inFlight*3*len(body) + clients*64<<10)
	t.Logf("burst of %d on a cap of %d: peak heap %d bytes, bound %d", clients, inFlight, extra, bound)
	if !raceEnabled {
		assert.Less(t, extra, bound)
	}
	assert.Equal(t, map[int]int{200: inFlight, 429: clients - inFlight}, burst.got)
	for _, b := range burst.ok {
		assert.Equal(t, string(want), string(b))
	}
	// A 300 KiB record reaches the client while its handler is still returning, so the slot
	// comes back a moment after the answer.
	waitUntil(t, func() bool { return s.inFlight.Load() == 0 }, "every slot to be given back")
	assert.Equal(t, float64(inFlight*len(body)), metricValue(t, s, "normalizer_request_body_bytes_total"),
		"only admitted requests' bodies are read")
}

// TestOverloadRetriedLosesNothing: a burst of complete requests, several times the cap, from
// clients that retry a 429: every answer is 200 or 429 (never 5xx), and in the end every
// request got its own record. The burst comes while two held requests take both slots, so
// that every client is refused at least once; the held ones go on once every client has been.
// A client retries once another request has been answered 200 since it sent its own (a 429
// means the slots were all held, by requests that are answered 200 in turn): it waits for
// work done, not for a time, and retries at most once per other request's record.
func TestOverloadRetriedLosesNothing(t *testing.T) {
	const inFlight, clients = 2, 16
	s, _ := newTestServer(t, Config{MaxInFlight: inFlight, RetryAfter: time.Second})
	addr := startServer(t, s, Timeouts{})
	client := &http.Client{Timeout: hung}
	t.Cleanup(client.CloseIdleConnections)
	var mu sync.Mutex
	statuses := map[int]int{}
	answered := sync.NewCond(&mu) // broadcast at each 200
	post := func(body io.Reader) (int, string, []byte) {
		res, err := client.Post("http://"+addr+"/v1/normalize", "application/json", body)
		if !assert.NoError(t, err) {
			return 0, "", nil
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		mu.Lock()
		statuses[res.StatusCode]++
		if res.StatusCode == 200 {
			answered.Broadcast()
		}
		mu.Unlock()
		return res.StatusCode, res.Header.Get("Retry-After"), b
	}
	twoHundreds := func() int {
		mu.Lock()
		defer mu.Unlock()
		return statuses[200]
	}

	var wg sync.WaitGroup
	release := make(chan struct{})
	for range inFlight {
		body, _ := newHeldBody([]byte(okResult), 0, release)
		wg.Go(func() {
			code, _, b := post(body)
			assert.Equal(t, 200, code, "a held request: %s", b)
		})
	}
	waitUntil(t, func() bool { return s.inFlight.Load() == inFlight }, "the held requests to take the slots")

	var refused sync.WaitGroup // every client's first answer, a 429
	refused.Add(clients)
	for i := range clients {
		wg.Go(func() {
			body := fmt.Sprintf(`{"final_response":"answer %d %s"}`, i, strings.Repeat("y", 20000))
			want, _ := expectedOutput(s.plain, []byte(body))
			for attempt := 0; ; attempt++ {
				before := twoHundreds()
				code, retryAfter, b := post(strings.NewReader(body))
				if attempt == 0 {
					assert.Equal(t, 429, code, "while the held requests take the slots")
					refused.Done()
				}
				if code == 200 {
					assert.Equal(t, string(want), string(b))
					return
				}
				if !assert.Equal(t, 429, code, "%s", b) || !assert.LessOrEqual(t, attempt, clients+inFlight, "retries of one request") {
					return
				}
				assert.Equal(t, "1", retryAfter)
				mu.Lock()
				for statuses[200] == before { // one of the requests that held the slots is answered
					answered.Wait()
				}
				mu.Unlock()
			}
		})
	}
	refused.Wait()
	close(release)
	wg.Wait()
	t.Logf("answers: %v", statuses)
	assert.Equal(t, clients+inFlight, statuses[200])
	assert.GreaterOrEqual(t, statuses[429], clients)
	for code := range statuses {
		assert.Contains(t, []int{200, 429}, code)
	}
}

// TestRefusalClosesAtOnce: after a 429 sent while the body is still missing, the connection
// ends for the client with the answer (the server shuts its side at once), and the server,
// lingering for the rest of the body, closes its own side after --linger-timeout without it,
// not after the read timeout (an hour here).
func TestRefusalClosesAtOnce(t *testing.T) {
	for _, size := range []int{100 << 10, 300 << 10} {
		s, _ := newTestServer(t, Config{MaxInFlight: 1})
		addr := startServer(t, s, Timeouts{Read: time.Hour, LingerTimeout: 100 * time.Millisecond, LingerTime: time.Hour,
			MinBodyRate: -1}) // the held request's 10 bytes outlast the test
		send := func() net.Conn {
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			t.Cleanup(func() { conn.Close() })
			fmt.Fprintf(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n{\"final_re", size)
			return conn
		}
		send()
		waitUntil(t, func() bool { return s.inFlight.Load() == 1 }, "the first request to be admitted")
		conn := send()
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(hung)))
		br := bufio.NewReader(conn)
		res, err := http.ReadResponse(br, nil)
		require.NoError(t, err)
		_, _ = io.ReadAll(res.Body)
		assert.Equal(t, http.StatusTooManyRequests, res.StatusCode)
		assert.True(t, res.Close)
		_, err = br.ReadByte()
		assert.ErrorIs(t, err, io.EOF, "body %d: the connection ends with the answer", size)
		awaitLingered(t, s, lingerTimeout)
	}
}

// TestSlotFreeOnceAnswered: once a client has a record's last byte, the request no longer
// holds its in-flight slot, so that a client sending one request after another at
// --max-in-flight 1 is never refused for its own finished request. The handler is held
// after its answer (afterAnswer) while the client reads it: the slot must already be free.
// A small record gives the slot back before it is written, a large one before its last byte.
func TestSlotFreeOnceAnswered(t *testing.T) {
	for _, size := range []int{10, smallRecord + 1, 4 << 20} {
		s, _ := newTestServer(t, Config{MaxInFlight: 1})
		answered, resume := make(chan int64), make(chan struct{})
		s.afterAnswer = func() {
			answered <- s.inFlight.Load()
			<-resume
		}
		addr := startServer(t, s, Timeouts{})
		body := `{"final_response":"a","metadata":{"blob":"` + strings.Repeat("a", size) + `"}}`
		res, err := http.Post("http://"+addr+"/v1/normalize", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		record, err := io.ReadAll(res.Body) // the whole answer, while its handler is held
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode, "%.200s", record)
		assert.Zero(t, <-answered, "record of %d bytes: its request still holds the slot after the client has it", len(record))
		close(resume)
		_ = res.Body.Close()
	}
}

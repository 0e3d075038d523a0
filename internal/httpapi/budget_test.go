package httpapi

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	rtmetrics "runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/heaptest"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// grows is growTo's ok.
func grows(r *reservation, n int64) bool {
	ok, _ := r.growTo(n)
	return ok
}

func TestReservation(t *testing.T) {
	t.Run("no budget", func(t *testing.T) {
		var r reservation
		assert.True(t, grows(&r, math.MaxInt64))
		r.release()
	})
	b := &memoryBudget{limit: 100, retryAfter: "1"}
	a, c, d := reservation{budget: b}, reservation{budget: b}, reservation{budget: b}
	require.True(t, grows(&a, 60))
	ok, others := c.growTo(50)
	assert.False(t, ok, "60 + 50 is over 100 while another holds some")
	assert.EqualValues(t, 60, others, "what the others held when it was refused")
	require.True(t, grows(&c, 40), "60 + 40 fits")
	require.True(t, grows(&a, 60), "what is held already costs nothing more")
	assert.False(t, grows(&a, 61))
	assert.EqualValues(t, 100, b.used.Load())
	a.release()
	a.release() // twice is harmless
	assert.EqualValues(t, 40, b.used.Load())
	assert.False(t, grows(&d, 200), "over the whole budget while another holds some")
	c.release()
	require.True(t, grows(&d, 200), "alone, a request is admitted whatever it needs")
	require.True(t, grows(&d, 300), "and may grow, alone")
	assert.False(t, grows(&a, 1), "nothing else fits while it is over")
	d.release()
	assert.Zero(t, b.used.Load())

	// forBody gives back what reading reserved beyond the body's need.
	e := reservation{budget: b, ratio: 4.5}
	require.NoError(t, e.forRead(-1, 10))
	assert.EqualValues(t, 45+perRequest, e.held)
	b.limit = 1 << 20
	require.NoError(t, e.forBody(4, 10))
	assert.EqualValues(t, 18+6+perRequest, e.held, "4.5 x 4 bytes, and the buffer's 6 bytes of slack")
	assert.Equal(t, e.held, b.used.Load())
	e.release()
	assert.Zero(t, b.used.Load())
}

// TestReservationConcurrent: reservations taken, grown and given back from many goroutines
// never hold more than the budget together, and all of it comes back.
func TestReservationConcurrent(t *testing.T) {
	const limit = 1000
	b := &memoryBudget{limit: limit}
	var over atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for range 2000 {
				r := reservation{budget: b}
				first := rng.Int64N(limit/2) + 1
				if grows(&r, first) {
					_ = grows(&r, first+rng.Int64N(limit/2))
				}
				if u := b.used.Load(); u > limit {
					over.Store(u)
				}
				r.release()
			}
		}()
	}
	wg.Wait()
	assert.Zero(t, over.Load(), "the reservations held more than the budget together")
	assert.Zero(t, b.used.Load())
}

// TestReservationAloneIsAlone: a reservation over the budget (admitted because no other held
// any) is the only one while it lasts, however many goroutines try.
func TestReservationAloneIsAlone(t *testing.T) {
	const limit = 1000
	b := &memoryBudget{limit: limit}
	var bad atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 2))
			for range 20000 {
				r := reservation{budget: b}
				if grows(&r, rng.Int64N(limit)+1) && grows(&r, rng.Int64N(2*limit)+1) && r.held > limit {
					for range 10 {
						if u := b.used.Load(); u != r.held {
							bad.Store(u)
						}
					}
				}
				r.release()
			}
		}()
	}
	wg.Wait()
	require.Zero(t, bad.Load(), "another reservation was held beside one over the budget")
	require.Zero(t, b.used.Load())
}

// needOf is what a request whose body of n bytes came with its Content-Length reserves once
// read into a pooled buffer (of the smallest class that holds it and a byte more).
func needOf(ratio float64, n int) int64 {
	return ceilMul(ratio, int64(n)) + int64(initialBuffer<<sizeClass(n+1)-n) + perRequest
}

// TestMemoryBudgetBurst: a burst of requests of 300 KiB each, every one holding back the end of
// its body, on a budget with room for three and a half of them and a count cap far above: the
// server admits exactly three (they wait for their bodies) and answers every other one 429 with
// Retry-After at once, without reading its body, saying what the budget holds and what the
// operator can change; a small result still gets through while the three hold their share;
// once the held bodies arrive, the three get their exact records and the budget is whole again.
func TestMemoryBudgetBurst(t *testing.T) {
	if !heaptest.Alone(t) { // Peak reads the process's heap
		return
	}
	const (
		size      = 300 << 10
		clients   = 12
		room      = 3
		smallSize = 2048
	)
	need := needOf(4.5, size)
	s, _ := newTestServer(t, Config{MemoryBudget: room*need + need/2})
	require.InDelta(t, 4.5, s.plain.PeakHeapRatio(), 0, "need above is computed from it")
	addr := startServer(t, s, Timeouts{})
	body := []byte(`{"final_response":"` + strings.Repeat("x", size-21) + `"}`)
	require.Len(t, body, size)
	want, class := expectedOutput(s.plain, body)
	require.Empty(t, class)
	head := len(body) / 2

	var burst *heldBurst
	extra := heaptest.Peak(func() {
		burst = startHeldBurst(t, addr, body, head, clients)
		burst.take(clients - room) // all the 429s come while the admitted ones still wait
		require.Equal(t, map[int]int{429: clients - room}, burst.got, "before the held bodies are sent")
		require.Equal(t, room*need, s.budget.used.Load())
		assert.Equal(t, float64(room*need), metricValue(t, s, "normalizer_memory_reserved_bytes"))

		small := `{"final_response":"` + strings.Repeat("y", smallSize-21) + `"}`
		res, err := http.Post("http://"+addr+"/v1/normalize", "application/json", strings.NewReader(small))
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		assert.Equal(t, 200, res.StatusCode, "a small result fits beside them: %s", b)

		burst.finish(room)
	})
	bound := uint64(room*need + need/2)
	t.Logf("burst of %d on a budget for %d: peak heap %d bytes, budget %d", clients, room, extra, bound)
	if !raceEnabled {
		assert.Less(t, extra, bound)
	}
	assert.Equal(t, map[int]int{200: room, 429: clients - room}, burst.got)
	for _, b := range burst.ok {
		assert.Equal(t, string(want), string(b))
	}
	refusal := burst.refusal
	assert.Contains(t, refusal, "hold "+sizeText(room*need)+" of the server's memory budget of "+sizeText(room*need+need/2))
	assert.Contains(t, refusal, "this one needs "+sizeText(ceilMul(4.5, size)+int64(initialBuffer<<5-size)+perRequest)+
		": 4.5 times its body of 300.0 KiB (the record and the working memory, at worst), its buffers' slack and 64 KiB; retry after 1s; "+
		"a client needs less by sending a smaller result (trim its messages); the operator sizes")
	assert.Equal(t, float64(clients-room), metricValue(t, s, "normalizer_memory_budget_rejections_total"))
	assert.Contains(t, refusal, "--memory-budget or NORMALIZER_MEMORY_BUDGET")
	// A 300 KiB record reaches the client while its handler is still returning, so the
	// reservation comes back a moment after the answer.
	waitUntil(t, func() bool { return s.budget.used.Load() == 0 }, "every reservation to be given back")
	assert.Equal(t, float64(room*len(body)+smallSize), metricValue(t, s, "normalizer_request_body_bytes_total"),
		"only admitted requests' bodies are read, and the small one")
}

// heldBody is a request body that gives its first half bytes at once and the rest once
// released; waiting, when not nil, is closed when the reader first asks for more than half:
// it has read those and is waiting.
type heldBody struct {
	r       io.Reader
	half    int
	read    int
	release chan struct{}
	waiting chan struct{}
}

// newHeldBody is a heldBody of b that gives half bytes at once, and the channel its reader's
// waiting closes.
func newHeldBody(b []byte, half int, release chan struct{}) (*heldBody, <-chan struct{}) {
	waiting := make(chan struct{})
	return &heldBody{r: bytes.NewReader(b), half: half, release: release, waiting: waiting}, waiting
}

func (h *heldBody) Read(p []byte) (int, error) {
	if h.read >= h.half {
		if h.waiting != nil {
			close(h.waiting)
			h.waiting = nil
		}
		<-h.release
	} else if len(p) > h.half-h.read {
		p = p[:h.half-h.read]
	}
	n, err := h.r.Read(p)
	h.read += n
	return n, err
}

// TestMemoryBudgetUnknownLength: a body without Content-Length (chunked, or gzip) is charged
// as its bytes arrive, so one that grows past what the budget has left is stopped with a 429
// while it is read, not after it is all in memory; explain reserves more per byte.
func TestMemoryBudgetUnknownLength(t *testing.T) {
	const size = 256 << 10
	held := []byte(`{"final_response":"` + strings.Repeat("h", size-21) + `"}`)
	// Larger than any buffer the pool keeps, so that reading it must allocate, whatever
	// the requests before it left in the pool.
	big := []byte(`{"final_response":"` + strings.Repeat("b", maxPooled+size-21) + `"}`)
	for _, tt := range []struct {
		name   string
		gzip   bool
		target string
	}{
		{name: "chunked", target: "/v1/normalize"},
		{name: "gzip", gzip: true, target: "/v1/normalize"},
		{name: "chunked, explain", target: "/v1/normalize?explain=true"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			heldNeed := needOf(4.5, len(held))
			s, _ := newTestServer(t, Config{MemoryBudget: heldNeed + 512<<10})
			h := s.Handler()
			release := make(chan struct{})
			done := make(chan int)
			body, waiting := newHeldBody(held, len(held)/2, release)
			go func() {
				req := httptest.NewRequest("POST", "/v1/normalize", body)
				req.ContentLength = int64(len(held))
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				done <- w.Code
			}()
			<-waiting // the held request has read half its body, and holds its share
			require.Equal(t, heldNeed, s.budget.used.Load())

			wire := big
			if tt.gzip {
				wire = gzipBytes(big)
			}
			src := &countingSource{r: bytes.NewReader(wire)}
			req := httptest.NewRequest("POST", tt.target, src)
			req.ContentLength = -1
			if tt.gzip {
				req.Header.Set("Content-Encoding", "gzip")
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			assert.Equal(t, 429, w.Code, w.Body.String())
			assert.Equal(t, "1", w.Header().Get("Retry-After"))
			assert.Contains(t, w.Body.String(), "memory budget")
			assert.Contains(t, w.Body.String(), "so far (its size was not given)")
			if strings.Contains(tt.target, "explain") {
				assert.Contains(t, w.Body.String(), "or leaving out explain=true (4.5 times its body without it)")
			}
			if !tt.gzip {
				assert.Less(t, src.n, len(wire), "stopped while reading, not after")
			}
			assert.Equal(t, heldNeed, s.budget.used.Load(), "the refused request gave back what it held")

			close(release)
			assert.Equal(t, 200, <-done)
			assert.Zero(t, s.budget.used.Load())

			// Alone, the same request is admitted, though it needs more than the budget.
			req = httptest.NewRequest("POST", tt.target, bytes.NewReader(wire))
			req.ContentLength = -1
			if tt.gzip {
				req.Header.Set("Content-Encoding", "gzip")
			}
			w = httptest.NewRecorder()
			h.ServeHTTP(w, req)
			assert.Equal(t, 200, w.Code, w.Body.String())
			assert.Zero(t, s.budget.used.Load())
		})
	}
}

// countingSource counts the bytes a request body gave.
type countingSource struct {
	r io.Reader
	n int
}

func (c *countingSource) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestMemoryBudgetOff: without a budget, neither its gauges nor any refusal.
func TestMemoryBudgetOff(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	assert.Nil(t, s.budget)
	w := do(t, s, call{method: "GET", target: "/metrics"})
	assert.NotContains(t, w.Body.String(), "normalizer_memory_")
	s, _ = newTestServer(t, Config{MemoryBudget: 1 << 30})
	w = do(t, s, call{method: "GET", target: "/metrics"})
	assert.Contains(t, w.Body.String(), "normalizer_memory_budget_bytes 1.073741824e+09")
	assert.Contains(t, w.Body.String(), "normalizer_memory_reserved_bytes 0")
}

// TestMemoryBudgetTooSmallIsLogged: a budget smaller than what a request at the body limit
// with explain reserves is served, with a warning at start-up that says what follows and what
// to change; one large enough gets none.
func TestMemoryBudgetTooSmallIsLogged(t *testing.T) {
	for _, tt := range []struct {
		budget int64
		warned bool
	}{{budget: 8 << 20, warned: true}, {budget: 14 << 20, warned: false}} {
		s, logs := newTestServer(t, Config{BodyLimit: 2 << 20, MemoryBudget: tt.budget})
		startServer(t, s, Timeouts{})
		waitUntil(t, func() bool { return strings.Contains(logs.String(), `"listening"`) }, "the listening line")
		warning := `"level":"warn","component":"http","memory_budget":8388608,"largest_reservation":13697024,` +
			`"message":"the memory budget is smaller than what a request at the body limit with explain reserves`
		if tt.warned {
			assert.Contains(t, logs.String(), warning)
			assert.Contains(t, logs.String(), "raise --memory-budget")
		} else {
			assert.NotContains(t, logs.String(), "memory budget is smaller")
		}
	}
}

// liveHeap is the heap's live objects, after collecting what is not.
func liveHeap() uint64 {
	for range 3 {
		runtime.GC()
	}
	sample := []rtmetrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	rtmetrics.Read(sample)
	return sample[0].Value.Uint64()
}

// TestPooledBuffersAreReserved: small requests in flight after a burst of large ones hold
// about what they reserved, not the large buffers the burst left in the pool (with one pool
// for every size, 20 requests of 2 KB held 52 MiB while reserving 1.4 MiB).
func TestPooledBuffersAreReserved(t *testing.T) {
	if raceEnabled {
		t.Skip("measures the heap")
	}
	if !heaptest.Alone(t) { // the live heap is the process's
		return
	}
	const clients = 20
	s, _ := newTestServer(t, Config{MemoryBudget: 64 << 20})
	h := s.Handler()
	small := []byte(`{"final_response":"` + strings.Repeat("y", 2048-21) + `"}`)
	release := make(chan struct{})
	var wg sync.WaitGroup
	before := liveHeap()    // collects, which empties the pools: fill them after
	for range 2 * clients { // what earlier bodies of up to maxPooled put back
		putBuffer(&buffer{b: make([]byte, 0, maxPooled)})
	}
	for range clients {
		body, waiting := newHeldBody(small, len(small)/2, release)
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := httptest.NewRequest("POST", "/v1/normalize", body)
			req.ContentLength = int64(len(small))
			h.ServeHTTP(httptest.NewRecorder(), req)
		}()
		<-waiting
	}
	require.Equal(t, clients*needOf(4.5, len(small)), s.budget.used.Load(), "every request in flight holds its share")
	held := int64(liveHeap()) - int64(before)
	close(release)
	wg.Wait()
	reserved := clients * needOf(4.5, len(small))
	t.Logf("%d small requests in flight: %d bytes live, %d reserved", clients, held, reserved)
	assert.Less(t, held, reserved, "the requests in flight hold more than they reserved")
}

// TestRefusalIsAnsweredAtOnce: a 429 goes out as soon as the request is refused, though its
// body (under net/http's 256 KiB of post-handler reading) has not come: the connection is
// closed after it instead of the rest of the body being waited for. Both limits.
func TestRefusalIsAnsweredAtOnce(t *testing.T) {
	const size = 100 << 10
	for _, cfg := range []Config{{MemoryBudget: needOf(4.5, size) * 3 / 2}, {MaxInFlight: 1}} {
		s, _ := newTestServer(t, cfg)
		addr := startServer(t, s, Timeouts{MinBodyRate: -1}) // the held request's 10 bytes outlast the test
		send := func() net.Conn {
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			t.Cleanup(func() { conn.Close() })
			fmt.Fprintf(conn, "POST /v1/normalize HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n{\"final_re", addr, size)
			return conn
		}
		send() // holds its share until its body comes, which it never does
		waitUntil(t, func() bool { return s.inFlight.Load() == 1 && (s.budget == nil || s.budget.used.Load() > 0) },
			"the first request to be admitted")
		conn := send()
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(hung)))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		require.NoError(t, err, "no answer while the body is missing")
		assert.Equal(t, 429, res.StatusCode)
		assert.Equal(t, "1", res.Header.Get("Retry-After"))
		assert.True(t, res.Close, "the connection is closed after the 429")
	}
}

// TestWarningsAreReserved: what a record's warnings add beyond the core's ratio of its body is
// reserved before the record is written: a small body with a thousand warnings is refused
// where a small body without any is served, on a budget with room for one but not the other.
func TestWarningsAreReserved(t *testing.T) {
	heavy := []byte(`{"final_response":"ok","messages":[` + strings.Repeat(`{},`, 1100) + `{}]}`)
	light := []byte(`{"final_response":"` + strings.Repeat("x", len(heavy)-21) + `"}`)
	res, err := normalize.New().Normalize(heavy)
	require.NoError(t, err)
	excess := int64(res.SizeHint() - len(heavy))
	require.Greater(t, excess, int64(64<<10), "a thousand warnings add more than the body")
	holder := ceilMul(4.5, 1<<20) + perRequest // a claim of 20 MiB with nothing sent: its first buffer, 1 MiB
	s, _ := newTestServer(t, Config{MemoryBudget: holder + needOf(4.5, len(heavy)) + excess/2})
	release := holdClaim(s.Handler(), 20<<20)
	require.Equal(t, holder, s.budget.used.Load())

	w := do(t, s, call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(light)})
	assert.Equal(t, 200, w.Code, w.Body.String())
	w = do(t, s, call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(heavy)})
	assert.Equal(t, 429, w.Code, w.Body.String())
	assert.Contains(t, w.Body.String(), "more for the 1101 warnings of its record; retry after 1s; a client needs less by fixing what the warnings report")
	assert.Equal(t, "1", w.Header().Get("Retry-After"))
	assert.Equal(t, holder, s.budget.used.Load(), "the refused request gave back what it held")
	assert.Zero(t, metricValue(t, s, "normalizer_warnings_unlisted_total"), "a refused record's warnings are not counted")
	release()
	w = do(t, s, call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(heavy)})
	assert.Equal(t, 200, w.Code, "alone, it is served")
}

// A request refused by the budget (429), or by its Content-Length (413), allocates no body buffer.
func TestRefusedRequestAllocatesNoBuffer(t *testing.T) {
	if raceEnabled {
		t.Skip("counts allocations")
	}
	if !heaptest.Alone(t) { // allocations are counted process-wide
		return
	}
	s, _ := newTestServer(t, Config{MemoryBudget: 8 << 20})
	h := s.Handler()
	release := holdClaim(h, 20<<20) // holds 4.6 MiB of the 8 until released: its body never comes
	for _, tt := range []struct {
		length int64
		want   int
	}{{3 << 20, 429}, {1 << 40, 413}} {
		runtime.GC()
		runtime.GC() // empties the buffer pools
		req := httptest.NewRequest("POST", "/v1/normalize", strings.NewReader("{}"))
		req.ContentLength = tt.length
		w := httptest.NewRecorder()
		allocated := heaptest.Allocated(func() { h.ServeHTTP(w, req) })
		require.Equal(t, tt.want, w.Code)
		assert.Less(t, allocated, uint64(64<<10), "a %d allocated a body buffer", tt.want)
	}
	release()
}

// When the budget has no room for the record's class slack, no class buffer is taken (or
// allocated and left in the pool) before the exact one.
func TestRecordSlackCheckedBeforeTheBuffer(t *testing.T) {
	if !heaptest.Alone(t) { // the buffer pools are the process's: another test's handler could fill one
		return
	}
	const n = 2<<20 + 100<<10 // the record's hint rounds up to the 4 MiB class
	body := `{"final_response":"ok","messages":[{"role":"user","content":"` + strings.Repeat("x", n-70) + `"}]}`
	holder := ceilMul(4.5, 1<<20) + perRequest
	s, _ := newTestServer(t, Config{MemoryBudget: holder + ceilMul(4.5, int64(len(body))) + 1 + perRequest + 100<<10})
	h := s.Handler()
	release := holdClaim(h, 20<<20)
	require.Equal(t, holder, s.budget.used.Load())
	runtime.GC()
	runtime.GC() // empties the pools
	req := httptest.NewRequest("POST", "/v1/normalize", strings.NewReader(body))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	require.Equal(t, 200, w.Code)
	if b, ok := bufferPools[8].Get().(*buffer); ok {
		assert.Fail(t, "a 4 MiB buffer was allocated for the record and never reserved", "cap %d", cap(b.b))
	}
	release()
}

// Claiming 20 MiB and sending 1 MiB must not hold 8x what was sent of the budget: once the
// 1 MiB is read and the handler waits for more, it holds room for at most another MiB.
func TestClaimedLengthReservesLittleMoreThanSent(t *testing.T) {
	s, _ := newTestServer(t, Config{MemoryBudget: 1 << 30})
	release := make(chan struct{})
	body, waiting := newHeldBody(bytes.Repeat([]byte{' '}, 1<<20), 1<<20, release)
	done := make(chan int)
	go func() {
		req := httptest.NewRequest("POST", "/v1/normalize", body)
		req.ContentLength = 20 << 20
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		done <- w.Code
	}()
	<-waiting // the 1 MiB is read, and the handler asks for more
	held := s.budget.used.Load()
	close(release)
	assert.Equal(t, http.StatusBadRequest, <-done, "the body ends 19 MiB short of its claim")
	assert.Greater(t, held, ceilMul(4.5, 1<<20)+perRequest, "the first buffer is full: room for the next chunk is reserved")
	assert.LessOrEqual(t, held, ceilMul(4.5, 2<<20)+perRequest, "reserved for bytes not sent")
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
	require.NoError(t, conn.(*net.TCPConn).SetReadBuffer(4096)) // the record stays in the server's write
	fmt.Fprintf(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", len(body))
	_, err = conn.Write(body)
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(hung)))
	status, err := bufio.NewReaderSize(conn, 16).ReadString('\n') // the record is built and being written
	require.NoError(t, err)
	require.Equal(t, "HTTP/1.1 200 OK\r\n", status)
	// The record is far larger than what the sockets hold: its write cannot end, nor the
	// handler give its reservation back, until this client reads it, which it never does.
	held := s.budget.used.Load()
	conn.Close()
	assert.Greater(t, held, int64(len(body)), "the record's buffer is held while it is written")
	assert.Less(t, held, int64(2*len(body)+perRequest+(1<<20)), "%.1fx the body held while writing", float64(held)/float64(len(body)))
	waitUntil(t, func() bool { return s.budget.used.Load() == 0 }, "the handler to give its reservation back once the client is gone")
}

// heldBurst is clients sending the same body at once, each holding back all but its first
// head bytes until finish (sendHeld), and what they got.
type heldBurst struct {
	t       *testing.T
	release chan struct{}
	answers chan heldAnswer
	wg      sync.WaitGroup
	got     map[int]int // answers by status
	ok      [][]byte    // the bodies of the answers other than 429
	refusal string      // the body of a 429
}

func startHeldBurst(t *testing.T, addr string, body []byte, head, clients int) *heldBurst {
	b := &heldBurst{t: t, release: make(chan struct{}), answers: make(chan heldAnswer, clients), got: map[int]int{}}
	for range clients {
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			b.answers <- sendHeld(addr, body, head, b.release)
		}()
	}
	return b
}

// take waits for n answers; every 429 must carry Retry-After and the TooManyRequests class.
func (b *heldBurst) take(n int) {
	for range n {
		select {
		case a := <-b.answers:
			require.NoError(b.t, a.err)
			b.got[a.status]++
			if a.status == 429 {
				assert.Equal(b.t, "1", a.retryAfter)
				assert.Equal(b.t, "TooManyRequests", errorClassOf(a.body))
				b.refusal = string(a.body)
			} else {
				b.ok = append(b.ok, a.body)
			}
		case <-time.After(hung):
			b.t.Fatalf("hung: no answer after %s; so far %v", hung, b.got)
		}
	}
}

// finish sends the held bodies and waits for the last n answers.
func (b *heldBurst) finish(n int) {
	close(b.release)
	b.take(n)
	b.wg.Wait()
}

// heldAnswer is what a client of sendHeld got.
type heldAnswer struct {
	status     int
	retryAfter string
	body       []byte
	err        error
}

// sendHeld posts body to addr over a connection of its own, holding back all but its first
// head bytes until release is closed, and returns the answer (a 429'd connection is closed by
// the server, so the rest is never needed).
func sendHeld(addr string, body []byte, head int, release <-chan struct{}) heldAnswer {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return heldAnswer{err: err}
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/normalize HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n", addr, len(body))
	if _, err := conn.Write(body[:head]); err != nil {
		return heldAnswer{err: err}
	}
	go func() {
		<-release
		_, _ = conn.Write(body[head:])
	}()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return heldAnswer{err: err}
	}
	b, err := io.ReadAll(res.Body)
	return heldAnswer{status: res.StatusCode, retryAfter: res.Header.Get("Retry-After"), body: b, err: err}
}

// holdClaim starts a request to h that claims a body of length bytes and sends none, and
// returns once its handler waits for the body: it holds its first buffer's share of the
// budget. release ends it and returns once it is done.
func holdClaim(h http.Handler, length int64) (release func()) {
	stop, done := make(chan struct{}), make(chan struct{})
	body, waiting := newHeldBody(nil, 0, stop)
	go func() {
		defer close(done)
		req := httptest.NewRequest("POST", "/v1/normalize", body)
		req.ContentLength = length
		h.ServeHTTP(httptest.NewRecorder(), req)
	}()
	<-waiting
	return func() {
		close(stop)
		<-done
	}
}

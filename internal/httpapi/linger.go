package httpapi

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

// Lingering close. A request answered before its body was read to the end (413 from its
// Content-Length or found while reading, 429, 408, a framing 400) is answered with
// Connection: close, and net/http would then close the connection with part of the body still
// coming: the kernel answers the rest with a reset, which can wipe the answer from the client's
// receive buffer before the client reads it, and a client that sends its whole body before it
// reads (Python's requests, httpx, urllib) gets a broken pipe or a reset instead of its answer.
// So, as nginx's lingering close does, the server takes the connection over once the answer is
// sent (Hijack), shuts down its side for writing, and reads and discards what the client still
// sends, until the client closes, no byte came for LingerTimeout, LingerTime has passed, or
// LingerBytes were discarded; then it closes.
//
// The lingering runs in its own goroutine after the request's handler has returned: the
// in-flight slot, the memory budget's reservation and the request's buffers are all given back
// before it starts, the access line and the metrics are written, and what it reads is not the
// body (it keeps nothing, so neither the body limit nor the budget counts it). It only holds a
// socket and a goroutine, for a bounded time.

// lingerConfig bounds one lingering close; the zero value (a Handler served outside Serve)
// turns lingering off.
type lingerConfig struct {
	time    time.Duration // in all
	timeout time.Duration // waiting for the next bytes
	bytes   int64         // discarded, including what net/http had already buffered
}

// lingerState is the server's lingering connections, each with the read deadline it waits to,
// and the time by which shutdown wants every one closed.
type lingerState struct {
	wg    sync.WaitGroup // what Serve waits for before it returns
	mu    sync.Mutex
	conns map[net.Conn]time.Time
	until time.Time // the end of the shutdown grace period; zero before shutdown
	done  bool      // Serve is returning: no new lingering close starts
}

// start counts a lingering close about to start (in wg, Done when it has ended), and says
// whether it may: not once Serve is returning (a handler cut off at the end of the shutdown
// grace period can still be running).
func (l *lingerState) start() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return false
	}
	l.wg.Add(1) // under mu, so that it comes before waitAll's Wait or not at all
	return true
}

// add records conn as lingering (start counted it).
func (l *lingerState) add(conn net.Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conns == nil {
		l.conns = map[net.Conn]time.Time{}
	}
	l.conns[conn] = time.Time{}
}

// remove takes conn off the lingering connections.
func (l *lingerState) remove(conn net.Conn) {
	l.mu.Lock()
	delete(l.conns, conn)
	l.mu.Unlock()
}

// waitAll waits for every lingering close to end, and lets no new one start.
func (l *lingerState) waitAll() {
	l.mu.Lock()
	l.done = true
	l.mu.Unlock()
	l.wg.Wait()
}

func (l *lingerState) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

// wait sets conn's read deadline for its next read: wait, or limit if sooner, or the end of
// the shutdown grace period if sooner still; it returns how the read ends if it times out.
func (l *lingerState) wait(conn net.Conn, wait, limit time.Time, limitEnd string) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	end := lingerTimeout
	if limit.Before(wait) {
		wait, end = limit, limitEnd
	}
	if !l.until.IsZero() && l.until.Before(wait) {
		wait, end = l.until, lingerShutdown
	}
	l.conns[conn] = wait
	return end, conn.SetReadDeadline(wait)
}

// timedOut says how a lingering read that timed out ends: as the deadline set for it said
// (end), or at the end of the shutdown grace period if shutdown moved its deadline there.
func (l *lingerState) timedOut(conn net.Conn, end string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.until.IsZero() && l.conns[conn].Equal(l.until) {
		return lingerShutdown
	}
	return end
}

// end makes every lingering close end by until: the process exits then.
func (l *lingerState) end(until time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.until = until
	for conn, wait := range l.conns {
		if until.Before(wait) {
			l.conns[conn] = until
			_ = conn.SetReadDeadline(until)
		}
	}
}

// The ends of a lingering close, as normalizer_lingering_closes_total labels them.
const (
	lingerClientClosed = "client_closed" // the client closed: it has read its answer, or given up
	lingerTimeout      = "timeout"       // nothing came for LingerTimeout
	lingerTimeLimit    = "time_limit"    // LingerTime passed with bytes still coming
	lingerByteLimit    = "byte_limit"    // LingerBytes discarded with bytes still coming
	lingerShutdown     = "shutdown"      // the shutdown grace period ended
	lingerError        = "error"         // the connection failed (a reset, for one)
)

// markLinger makes the answer close the connection, and the connection linger once the
// answer is sent: the request's body was not read to its end.
func markLinger(x *exchange) {
	x.Header()["Connection"] = connectionClose
	x.linger = true
}

// bodyUnread says whether r has a body that the handler did not read to its end (net/http
// gives a request without one http.NoBody).
func bodyUnread(x *exchange, r *http.Request) bool {
	return !x.bodyRead && r.Body != nil && r.Body != http.NoBody
}

// linger takes the connection of w over once its answer is sent, and reads and discards what
// the client still sends in a goroutine of its own (lingering is off, or the connection cannot
// be taken over, as with HTTP/2: then net/http closes it as it would).
func (s *Server) linger(w http.ResponseWriter, id string) {
	if s.lingerCfg.time <= 0 {
		return
	}
	if !s.lingering.start() {
		return
	}
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		s.lingering.wg.Done() // it never began
		return
	}
	// What net/http read past the request's headers and the handler did not take is the start
	// of what is discarded.
	buffered, _ := rw.Reader.Discard(rw.Reader.Buffered())
	if tc, ok := conn.(*trackedConn); ok {
		tc.stopTracking() // what it reads now is no request
	}
	s.lingering.add(conn)
	go s.discard(conn, int64(buffered), id)
}

// closeWriter is a connection whose writing side can be shut down alone (a *net.TCPConn).
type closeWriter interface{ CloseWrite() error }

var discardBuffers = sync.Pool{New: func() any { return new([32 << 10]byte) }}

// discard reads and drops what conn's client sends, within the lingering bounds, then closes
// conn. n is what was discarded already.
func (s *Server) discard(conn net.Conn, n int64, id string) {
	defer s.lingering.wg.Done() // last: Serve waits for the metrics and the line too
	if cw, ok := conn.(closeWriter); ok {
		_ = cw.CloseWrite() // the answer is all there is: the client's read ends with it
	}
	buf := discardBuffers.Get().(*[32 << 10]byte)
	defer discardBuffers.Put(buf)
	cfg := s.lingerCfg
	limit := time.Now().Add(cfg.time)
	end := ""
	for end == "" {
		if n >= cfg.bytes {
			end = lingerByteLimit
			break
		}
		timeoutEnd, err := s.lingering.wait(conn, time.Now().Add(cfg.timeout), limit, lingerTimeLimit)
		if err != nil {
			end = lingerError
			break
		}
		k, err := conn.Read(buf[:min(int64(len(buf)), cfg.bytes-n)])
		n += int64(k)
		switch {
		case err == nil:
		case errors.Is(err, io.EOF):
			end = lingerClientClosed
		case errors.Is(err, os.ErrDeadlineExceeded):
			end = s.lingering.timedOut(conn, timeoutEnd)
		default:
			end = lingerError
		}
	}
	_ = conn.Close()
	s.lingering.remove(conn) // before the metrics: a lingering close counted as ended is no longer lingering
	s.metrics.lingered(end, n)
	s.log.Debug().Str("request_id", id).Str("end", end).Int64("discarded_bytes", n).Msg("lingering close ended")
}

package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// exchange is one request as the access log and the metrics see it: what handlers tell them
// that echo does not know (never any text of the result), and the ResponseWriter echo writes
// through, which notes the status and counts the bytes out. ServeHTTP takes one from a pool
// and hands it back when the request is logged: the layer around the handlers allocates
// nothing per request but a generated request id.
type exchange struct {
	http.ResponseWriter
	id        string
	route     string        // route pattern; set by the route's handler or the error handler
	status    int           // 0 until the header is written
	start     time.Duration // by monotonic()
	bytesOut  int64
	bytesIn   int64 // decoded
	bytesWire int64 // as sent, when the body was gzip
	warnings  int
	class     string       // error class, "" on success
	writeErr  string       // why the answer did not reach the client, when it did not
	bodyRead  bool         // the handler read the body to its end
	linger    bool         // answered before the body was read: the connection lingers (linger.go)
	framing   framingFlag  // the request's framing is ambiguous (framing.go): it is answered 400
	conn      *trackedConn // the request's connection, when Serve accepted it; nil otherwise
	connIndex int64        // the request's index among its connection's
	rate      bodyRate     // the minimum body data rate's watch on its body (bodyrate.go)
	holdsSlot bool         // the request holds an in-flight slot (limit.go)
}

// clockBase is the origin of monotonic.
var clockBase = time.Now()

// monotonic reads the monotonic clock alone: time.Now reads the wall clock too, and a request
// needs only durations (52 ns against 92 for time.Now on this machine's virtual clock).
func monotonic() time.Duration { return time.Since(clockBase) }

// noteWrite records a failed write of the answer: its status was committed, so the client
// cannot be told, but the log line and the metrics can.
func (x *exchange) noteWrite(err error) {
	switch {
	case err == nil:
	case errors.Is(err, os.ErrDeadlineExceeded):
		x.writeErr = "write timeout"
	default:
		x.writeErr = "connection lost"
	}
}

func (x *exchange) WriteHeader(code int) {
	if x.status == 0 {
		x.status = code
	}
	x.ResponseWriter.WriteHeader(code)
}

func (x *exchange) Write(p []byte) (int, error) {
	if x.status == 0 {
		x.status = http.StatusOK
	}
	n, err := x.ResponseWriter.Write(p)
	x.bytesOut += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController (echo's Flush and Hijack use it) reach net/http's writer.
func (x *exchange) Unwrap() http.ResponseWriter { return x.ResponseWriter }

var exchangePool = sync.Pool{New: func() any { return new(exchange) }}

// exchangeOf finds the request's exchange from inside echo. Every request comes through
// ServeHTTP, so the writer is always one; the fallback only keeps a misuse from crashing.
func exchangeOf(c echo.Context) *exchange {
	if x, ok := c.Response().Writer.(*exchange); ok {
		return x
	}
	return &exchange{}
}

func requestIDOf(c echo.Context) string { return exchangeOf(c).id }

// ServeHTTP is the service: request id, requests-in-flight gauge, panic recovery, the echo
// router with its handlers and error handler, then one log line and the request's metrics.
// It wraps echo rather than being echo middleware because echo builds a middleware's closure
// on every request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handling.Add(1)
	defer s.handling.Add(-1)
	start := monotonic()
	x := exchangePool.Get().(*exchange)
	*x = exchange{ResponseWriter: w, start: start}
	setRequestID(x, r, w.Header())
	s.closeWhileDraining(w.Header())
	if tc := trackedConnOf(r); tc != nil {
		x.conn = tc
		x.connIndex, x.framing = tc.next()
	}
	s.dispatch(x, r)
	s.logRequest(x, r, monotonic()-start)
	if x.linger && x.writeErr == "" {
		s.linger(w, x.id)
	}
	*x = exchange{} // drop the references to this request's writer and strings
	exchangePool.Put(x)
}

// dispatch runs echo and turns a panic into a 500 (http.ErrAbortHandler goes on up: it is how
// a handler asks net/http to drop the connection).
func (s *Server) dispatch(x *exchange, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.recovered(x, v)
		}
	}()
	s.echo.ServeHTTP(x, routedRequest(r))
}

// recovered logs a panic with its stack and answers 500 unless the response was under way.
func (s *Server) recovered(x *exchange, v any) {
	err, ok := v.(error)
	if !ok {
		err = fmt.Errorf("%v", v)
	}
	stack := make([]byte, 4<<10)
	stack = stack[:runtime.Stack(stack, false)]
	s.log.Error().Err(err).Bytes("stack", stack).Str("request_id", x.id).Msg("panic in handler")
	x.class = ClassInternal
	if x.status != 0 {
		return
	}
	h := x.Header()
	h.Del(echo.HeaderContentLength)
	h[echo.HeaderContentType] = jsonContentType
	x.WriteHeader(http.StatusInternalServerError)
	_, _ = x.Write(appendAPIError(nil, ClassInternal, internalMessage))
}

// idPrefix makes generated ids unique across processes; the counter, within one.
var (
	idPrefix  = newIDPrefix()
	idCounter atomic.Uint64
)

func newIDPrefix() string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:]) + "-"
}

func newRequestID() string {
	var b [48]byte
	return string(strconv.AppendUint(append(b[:0], idPrefix...), idCounter.Add(1), 10))
}

// setRequestID takes the client's X-Request-ID or makes one, and echoes it in the response.
// The client's value slice is shared (net/http only reads header slices); a generated id
// needs its own, since net/http may write the headers after ServeHTTP returns.
func setRequestID(x *exchange, r *http.Request, h http.Header) {
	if v := r.Header[echo.HeaderXRequestID]; len(v) > 0 && validRequestID(v[0]) {
		x.id = v[0]
		h[echo.HeaderXRequestID] = v[:1:1]
		return
	}
	x.id = newRequestID()
	h[echo.HeaderXRequestID] = []string{x.id}
}

// validRequestID accepts a client's X-Request-ID when it is short, printable ASCII: anything
// else would let a client put arbitrary bytes into every log line.
func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// logRequest writes the request's line and records its metrics. Errors went through the
// HTTPErrorHandler first, so the status logged is the one sent. remote_addr is the request's
// RemoteAddr, as net/http sets it from the connection (no header a client sends).
func (s *Server) logRequest(x *exchange, r *http.Request, d time.Duration) {
	method := r.Method
	route := x.route
	if !knownRoute(route) {
		route = routeUnmatched
	}
	status := x.status
	if status == 0 {
		status = http.StatusOK // nothing written: net/http sends 200
	}
	// Nearly every request is POST /v1/normalize answered 200: its metric series are looked up
	// once, and its log line's first three fields come rendered once, in normalizeOKLog.
	normalizeOK := route == routeNormalize && status == http.StatusOK && method == http.MethodPost
	if normalizeOK {
		s.metrics.observeNormalizeOK(d)
	} else {
		s.metrics.observeRequest(route, method, status, d, x.class)
	}
	if x.writeErr != "" {
		s.metrics.writeFailures.Inc()
	}
	ev := s.accessEvent(normalizeOK, route, status, x.writeErr != "")
	if ev == nil { // level disabled: skip building the line
		return
	}
	bytesOut := x.bytesOut
	if !normalizeOK {
		ev = ev.Str("method", loggedMethod(method)).Str("route", route).Int("status", status)
		if method == http.MethodHead {
			bytesOut = 0 // net/http takes the body's writes and sends nothing
		}
	}
	var ms [24]byte
	ev = ev.RawJSON("duration_ms", appendMillis(ms[:0], d)).
		Int64("bytes_in", x.bytesIn).
		Int64("bytes_out", bytesOut).
		Int("warnings", x.warnings).
		Str("request_id", x.id).
		Str("remote_addr", r.RemoteAddr)
	// The path itself, when the route does not say it: a schema's name, or what a 404 asked
	// for. Cut, so that a long made-up path cannot make a long line.
	if r.URL.Path != route {
		ev = ev.Str("path", loggedPath(r.URL.EscapedPath()))
	}
	if x.bytesWire != 0 {
		ev = ev.Int64("bytes_wire", x.bytesWire)
	}
	if x.class != "" {
		ev = ev.Str("error_class", x.class)
	}
	if x.writeErr != "" {
		ev = ev.Str("write_error", x.writeErr)
	}
	ev.Msg("request")
}

// accessEvent starts the request's line at its level: error for a 5xx answer, but for a
// readiness probe's 503 (the probe working: at start-up, or while draining); warn for an
// answer that did not reach the client (the client went away, or the write timed out), which
// an operator running at --log-level warn must still see; info for the rest. It is nil when
// the level is disabled.
func (s *Server) accessEvent(normalizeOK bool, route string, status int, writeFailed bool) *zerolog.Event {
	switch {
	case normalizeOK && !writeFailed:
		return s.normalizeOKLog.Info()
	case status >= 500 && !(route == routeReadyz && status == http.StatusServiceUnavailable):
		return s.reqLog.Error()
	case writeFailed && normalizeOK:
		return s.normalizeOKLog.Warn()
	case writeFailed:
		return s.reqLog.Warn()
	}
	return s.reqLog.Info()
}

// loggedMethod is the method as the log line shows it: net/http lets any token through as a
// method, of any length up to the header limit, and a log line should not grow with it.
func loggedMethod(m string) string {
	const most = 32
	if len(m) > most {
		return m[:most] + "..."
	}
	return m
}

// loggedPath is a path as the log line shows it: as sent (escaped), cut at 256 bytes.
func loggedPath(p string) string {
	const most = 256
	if len(p) > most {
		return p[:most] + "..."
	}
	return p
}

// appendMillis appends d in milliseconds with three decimals (microseconds), as a JSON number:
// integer formatting instead of strconv's float formatting, a visible share of a log line.
func appendMillis(dst []byte, d time.Duration) []byte {
	us := max(d.Microseconds(), 0)
	dst = strconv.AppendInt(dst, us/1000, 10)
	frac := us % 1000
	return append(dst, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
}

func knownRoute(route string) bool {
	switch route {
	case routeNormalize, routeFix, routeHealthz, routeReadyz, routeMetrics, routeSchemaIndex, routeSchema, routeOpenAPI,
		routePage, routePageFile:
		return true
	}
	return false
}

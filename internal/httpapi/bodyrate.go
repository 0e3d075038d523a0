package httpapi

import (
	"errors"
	"io"
	"os"
	"strconv"
	"time"
)

// The minimum body data rate, as Kestrel's MinRequestBodyDataRate: once a body has been
// arriving for the grace period, it must keep coming at the minimum rate on average since its
// first byte was asked for, or the request is answered 408 RequestTimeout (and the connection
// lingers). Without it, 64 clients trickling a few bytes a second hold every in-flight slot for
// the whole read timeout. The rate counts the bytes as sent (compressed, for gzip).
//
// It is watched with the connection's read deadline, moved along as bytes come: at n bytes the
// body must go on before start + max(grace, n/rate), so the deadline of each read is that, or
// the read timeout's if sooner. A body net/http has already read from the connection to its end
// (nearly every small one: it came with its headers) cannot be slow and is not watched, so
// that it costs no deadline change; nor is one whose read timeout comes before the grace ends.

// bodyRate watches one request's body; it lives in the request's exchange.
type bodyRate struct {
	s     *Server
	body  io.Reader
	conn  *trackedConn
	start time.Duration // by s.now, when the body was first asked for
	n     int64         // bytes read
	armed bool          // the connection's read deadline is the rate's, not net/http's
	// wallStart is start by the wall clock, which deadlines are set by: due times, measured
	// from start by s.now, are added to it.
	wallStart time.Time
}

// tooSlowError is a body cut off for arriving slower than the minimum rate; its message
// follows what the body is called ("request body: arrived at ...").
type tooSlowError struct {
	n       int64
	elapsed time.Duration
	rate    float64
	grace   time.Duration
}

func (e *tooSlowError) Error() string {
	avg := float64(e.n) / max(e.elapsed.Seconds(), 1e-9)
	decimals := 1
	if avg < 1 {
		decimals = 3
	}
	return "arrived at " + strconv.FormatFloat(avg, 'f', decimals, 64) + " bytes/s on average (" +
		strconv.FormatInt(e.n, 10) + " bytes in " + strconv.FormatFloat(e.elapsed.Seconds(), 'f', 1, 64) +
		" s), under the minimum of " + strconv.FormatFloat(e.rate, 'f', -1, 64) + " bytes/s that applies after its first " +
		e.grace.String() + "; send the body as fast as it is made (the operator sets the minimum with normalizer serve " +
		"--min-body-rate and --min-body-rate-grace, or NORMALIZER_MIN_BODY_RATE and NORMALIZER_MIN_BODY_RATE_GRACE; 0 turns it off)"
}

// bodyReader is what req's body is read through: the body itself, or, when the minimum rate
// applies to it, x's bodyRate around it.
func (s *Server) bodyReader(x *exchange, body io.Reader) io.Reader {
	tc := x.conn
	if s.minRate <= 0 || tc == nil || tc.bodyBuffered(x.connIndex) {
		return body
	}
	wall := time.Now()
	if d := tc.readDeadline; !d.IsZero() && d.Sub(wall) <= s.rateGrace {
		return body // the read timeout ends it before the rate could
	}
	x.rate = bodyRate{s: s, body: body, conn: tc, start: s.now(), wallStart: wall}
	return &x.rate
}

// due is when, by s.now, the body must have gone on past its n bytes so far.
func (r *bodyRate) due() time.Duration {
	return r.start + max(r.s.rateGrace, time.Duration(float64(r.n)/r.s.minRate*float64(time.Second)))
}

func (r *bodyRate) Read(p []byte) (int, error) {
	now := r.s.now()
	due := r.due()
	if now-r.start > r.s.rateGrace && now > due {
		return 0, r.cut(now)
	}
	// The read waits until the rate's deadline (the body's due time for what it has sent so
	// far: an earlier one could cut a fast body that pauses), or net/http's if sooner.
	deadline := r.wallStart.Add(due - r.start)
	if nd := r.conn.readDeadline; !nd.IsZero() && !deadline.Before(nd) {
		r.disarm()
	} else {
		r.armed = true
		_ = r.conn.Conn.SetReadDeadline(deadline)
	}
	k, err := r.body.Read(p)
	r.n += int64(k)
	if r.s.rateRead != nil {
		r.s.rateRead(r.n)
	}
	if err != nil && r.armed && errors.Is(err, os.ErrDeadlineExceeded) {
		return k, r.cut(r.s.now())
	}
	return k, err
}

// cut records the body cut off for its rate, and returns its error.
func (r *bodyRate) cut(now time.Duration) error {
	r.s.metrics.rateCuts.Inc()
	return &tooSlowError{n: r.n, elapsed: now - r.start, rate: r.s.minRate, grace: r.s.rateGrace}
}

// disarm gives the connection net/http's read deadline back.
func (r *bodyRate) disarm() {
	if r.armed {
		r.armed = false
		_ = r.conn.Conn.SetReadDeadline(r.conn.readDeadline)
	}
}

package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// limitInFlight answers 429 with Retry-After, before reading any of the body, once MaxInFlight
// normalize requests are being served: a burst is turned away instead of each request holding
// a body and a record in memory until the process runs out.
func (s *Server) limitInFlight(next echo.HandlerFunc) echo.HandlerFunc {
	limit := int64(s.cfg.MaxInFlight)
	return func(c echo.Context) error {
		if s.inFlight.Add(1) > limit {
			s.inFlight.Add(-1)
			s.refuse(c)
			return &apiError{class: ClassTooManyRequests,
				msg: "over " + strconv.FormatInt(limit, 10) + " requests in flight; retry after " + s.retryAfter[0] + "s"}
		}
		x := exchangeOf(c)
		x.holdsSlot = true
		defer s.releaseSlot(x) // also when next panics: the panic is recovered further out
		return next(c)
	}
}

// releaseSlot gives back the in-flight slot x holds, once. The handler gives it back before
// the client can have the whole answer (see writeRecord): a client that sends its next
// request as soon as it has read this one's answer must find the slot free, or one at
// --max-in-flight 1 would be refused for its own finished request.
func (s *Server) releaseSlot(x *exchange) {
	if x.holdsSlot {
		x.holdsSlot = false
		s.inFlight.Add(-1)
	}
}

// refuse prepares the 429 of a request turned away before its body was read (or all of it):
// Retry-After, and Connection: close, without which net/http would wait for up to 256 KiB of
// the unread body before sending the answer, and a client pausing after its headers would get
// nothing until its body came or the read timeout passed. Once the answer is sent, the rest
// of the body is discarded by the lingering close (linger.go).
func (s *Server) refuse(c echo.Context) {
	h := c.Response().Header()
	h["Retry-After"] = s.retryAfter
	h["Connection"] = connectionClose
	// Without lingering (off, or the Handler served outside Serve), net/http reads up to
	// 256 KiB of the unread body once the answer is sent, until the read deadline: a second is
	// enough for a client that sends it, and one that holds it back does not keep the
	// connection for the whole read timeout. A lingering close sets deadlines of its own.
	_ = http.NewResponseController(exchangeOf(c).ResponseWriter).SetReadDeadline(time.Now().Add(time.Second))
}

var connectionClose = []string{"close"}

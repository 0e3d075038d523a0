package httpapi

import (
	"strconv"

	"github.com/labstack/echo/v4"
)

// limitInFlight answers 429 with Retry-After, before reading any of the body, once MaxInFlight
// normalize requests are being served: a burst is turned away instead of each request holding
// a body and a record in memory until the process runs out.
func (s *Server) limitInFlight(next echo.HandlerFunc) echo.HandlerFunc {
	retryAfter := s.retryAfter
	limit := int64(s.cfg.MaxInFlight)
	return func(c echo.Context) error {
		if s.inFlight.Add(1) > limit {
			s.inFlight.Add(-1)
			c.Response().Header()["Retry-After"] = retryAfter
			return &apiError{class: ClassTooManyRequests,
				msg: "over " + strconv.FormatInt(limit, 10) + " requests in flight; retry after " + retryAfter[0] + "s"}
		}
		defer s.inFlight.Add(-1) // also when next panics: the panic is recovered further out
		return next(c)
	}
}

package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync/atomic"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/rs/zerolog"
)

// requestInfo is what handlers tell the request logger that echo does not know: never any
// text of the result.
type requestInfo struct {
	id       string
	idHeader [1]string // the X-Request-ID header's value slice, allocated with the info
	bytesIn  int64
	warnings int
	class    string // error class, "" on success
}

const infoKey = "httpapi.info"

func infoOf(c echo.Context) *requestInfo {
	if info, ok := c.Get(infoKey).(*requestInfo); ok {
		return info
	}
	info := &requestInfo{}
	c.Set(infoKey, info)
	return info
}

func requestIDOf(c echo.Context) string { return infoOf(c).id }

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

// requestID is the outermost middleware: it takes the X-Request-ID or makes one, echoes it in
// the response, and counts the request in flight.
func (s *Server) requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if !validRequestID(id) {
			id = newRequestID()
		}
		info := &requestInfo{id: id}
		info.idHeader[0] = id
		c.Set(infoKey, info)
		c.Response().Header()[echo.HeaderXRequestID] = info.idHeader[:]
		s.metrics.inFlight.Inc()
		defer s.metrics.inFlight.Dec()
		return next(c)
	}
}

// requestLogger writes one line per request and records the request's metrics. Errors go
// through the HTTPErrorHandler first (HandleError), so the status logged is the one sent.
func (s *Server) requestLogger() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		HandleError:     true,
		LogLatency:      true,
		LogMethod:       true,
		LogRoutePath:    true,
		LogStatus:       true,
		LogResponseSize: true,
		LogValuesFunc:   s.logRequest,
	})
}

func (s *Server) logRequest(c echo.Context, v middleware.RequestLoggerValues) error {
	info := infoOf(c)
	route := v.RoutePath
	if !knownRoute(route) {
		route = routeUnmatched
	}
	s.metrics.observeRequest(route, v.Method, v.Status, v.Latency, info.class)
	var ev *zerolog.Event
	if v.Status >= 500 {
		ev = s.reqLog.Error()
	} else {
		ev = s.reqLog.Info()
	}
	if ev == nil { // level disabled: skip building the line
		return nil
	}
	ev = ev.Str("method", v.Method).
		Str("route", route).
		Int("status", v.Status).
		Float64("duration_ms", float64(v.Latency)/1e6).
		Int64("bytes_in", info.bytesIn).
		Int64("bytes_out", v.ResponseSize).
		Int("warnings", info.warnings).
		Str("request_id", info.id)
	if info.class != "" {
		ev = ev.Str("error_class", info.class)
	}
	ev.Msg("request")
	return nil
}

func knownRoute(route string) bool {
	switch route {
	case routeNormalize, routeHealthz, routeReadyz, routeMetrics, routeSchemaIndex, routeSchema, routeOpenAPI:
		return true
	}
	return false
}

// Package httpapi serves the normalizer over HTTP: POST /v1/normalize turns a raw handler result
// into the platform's record, next to health and readiness probes, Prometheus metrics, the
// contract's JSON Schemas, an OpenAPI document of the API, and at GET / the porter's page
// (package webui).
//
// # Errors
//
// Every error, unknown paths and methods included, is rendered by one HTTPErrorHandler as
// {"error":{"class":CLASS,"message":TEXT}}; one table (classStatus) maps each class to its
// status code. Rejections of the normalizer keep the classes of the contract.
//
// # Hot path
//
// POST /v1/normalize reads the body into a pooled buffer with the limit enforced while
// reading, normalizes it, and writes the record's bytes from a second pooled buffer: no JSON
// encoder of echo's sits between the record and the wire. Server.ServeHTTP wraps the echo
// router (request id, panic recovery, log line, metrics) instead of registering echo
// middleware, which echo rebuilds as closures on every request; a pooled exchange carries
// what the handlers tell the log, and metric children are cached by label values.
package httpapi

import (
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/dystopic/normalizer/internal/viewer"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

// Defaults of the limits a user can change.
const (
	DefaultBodyLimit   = normalize.DefaultMaxBytes // 20 MiB
	DefaultMaxDepth    = normalize.DefaultMaxDepth
	DefaultMaxInFlight = 64
	DefaultRetryAfter  = time.Second
	// MaxBodyLimit is the largest body limit: the normalizer keeps offsets in 32 bits.
	MaxBodyLimit = math.MaxInt32
)

// Config is what a Server needs. The zero value of a limit means its default.
type Config struct {
	// BodyLimit is the largest body accepted, in bytes, counted after gzip decoding.
	BodyLimit int64
	// MaxDepth is the deepest nesting of arrays and objects accepted.
	MaxDepth int
	// MaxInFlight caps the normalize requests served at once; past it the answer is 429.
	MaxInFlight int
	// MemoryBudget caps the memory the normalize requests in flight may hold together, in
	// bytes: each reserves the most it can cost (the core's PeakHeapRatio times its body),
	// and one the budget has no room for is answered 429. Zero means no budget, only
	// MaxInFlight.
	MemoryBudget int64
	// RetryAfter is what a 429 tells the client to wait; it is sent in whole seconds.
	RetryAfter time.Duration
	// Schemas holds the JSON Schema files (*.schema.json) served under /v1/schemas/.
	Schemas fs.FS
	// Logger receives one line per request and the server's own events.
	Logger zerolog.Logger
	// Registry receives the metrics; nil means a new registry with the Go runtime and process
	// collectors.
	Registry *prometheus.Registry
	// Version is the build's version, in normalizer_build_info and the "listening" line (serve
	// gives what `normalizer version` prints); empty when not given.
	Version string
	// Corpus, when set, is served at GET /v1/corpus and /v1/corpus/items/N (corpus.go):
	// what `normalizer view` browses.
	Corpus *viewer.Index
}

func (c *Config) setDefaults() {
	if c.BodyLimit <= 0 {
		c.BodyLimit = DefaultBodyLimit
	}
	if c.MaxDepth <= 0 {
		c.MaxDepth = DefaultMaxDepth
	}
	if c.MaxInFlight <= 0 {
		c.MaxInFlight = DefaultMaxInFlight
	}
	if c.RetryAfter <= 0 {
		c.RetryAfter = DefaultRetryAfter
	}
}

// Server is the HTTP API. Build it with New, serve it with Serve or use Handler.
type Server struct {
	cfg    Config
	echo   *echo.Echo
	log    zerolog.Logger // component=http: the server's own events
	reqLog zerolog.Logger // component=access: one line per request
	// normalizeOKLog is reqLog with the fields of POST /v1/normalize answered 200 (method,
	// route, status) rendered once, in the order every access line has them.
	normalizeOKLog zerolog.Logger
	metrics        *metrics
	// metricsHandler is the Prometheus handler of metrics' registry, made once.
	metricsHandler http.Handler
	plain          *normalize.Normalizer
	explain        *normalize.Normalizer
	schemas        *schemaSet
	ready          atomic.Bool
	stopping       atomic.Bool // shutdown has begun: a body cut off now is not the client's fault
	inFlight       atomic.Int64
	budget         *memoryBudget // nil without Config.MemoryBudget
	retryAfter     []string      // the Retry-After of every 429, in whole seconds
	// handling counts requests inside ServeHTTP, log line included (http_requests_in_flight
	// reads it): what shutdown waits for
	// after closing the connections, so that a cut-off request's line is not lost.
	handling atomic.Int64
	// writeTimeout is the http.Server's, which Serve sets; 0 when the Handler is served
	// some other way.
	writeTimeout time.Duration
	waits        shutdownWaits // the shutdown path's waits, which tests replace
	// afterAnswer, when not nil, runs once a record was written, before its handler returns:
	// a test's window onto what the request still holds while its client has the answer.
	afterAnswer func()
	// lingerCfg bounds the lingering close of a connection whose request was answered before
	// its body was read (linger.go); Serve sets it, and its zero value turns lingering off.
	lingerCfg lingerConfig
	lingering lingerState
	// minRate is the minimum body data rate in bytes a second after rateGrace (bodyrate.go);
	// Serve sets them, and 0 turns the rate off. now is the clock it is measured by
	// (monotonic; tests set their own).
	minRate   float64
	rateGrace time.Duration
	now       func() time.Duration
	rateRead  func(n int64) // tests: told the bytes of a watched body read so far, after each read
}

// New builds the server and its routes. It is not ready (GET /readyz answers 503) until Serve
// runs or SetReady(true) is called.
func New(cfg Config) (*Server, error) {
	cfg.setDefaults()
	if cfg.BodyLimit > MaxBodyLimit {
		return nil, fmt.Errorf("body limit %d is over %d, the largest body the normalizer takes", cfg.BodyLimit, int64(MaxBodyLimit))
	}
	s := &Server{
		cfg:    cfg,
		log:    cfg.Logger.With().Str("component", "http").Logger(),
		reqLog: cfg.Logger.With().Str("component", "access").Logger(),
		now:    monotonic,
	}
	s.retryAfter = []string{strconv.Itoa(max(1, int(cfg.RetryAfter.Seconds()+0.5)))}
	if cfg.MemoryBudget > 0 {
		s.budget = &memoryBudget{limit: cfg.MemoryBudget, retryAfter: s.retryAfter[0]}
	}
	s.normalizeOKLog = s.reqLog.With().Str("method", http.MethodPost).Str("route", routeNormalize).Int("status", http.StatusOK).Logger()
	opts := []normalize.Option{normalize.WithMaxBytes(cfg.BodyLimit), normalize.WithMaxDepth(cfg.MaxDepth)}
	s.plain = porting.New(opts...)
	s.explain = porting.New(append(opts, normalize.WithExplain())...)
	var err error
	if s.schemas, err = loadSchemas(cfg.Schemas); err != nil {
		return nil, err
	}
	if s.metrics, err = newMetrics(cfg.Registry, func() float64 { return float64(s.handling.Load()) }, cfg.Version); err != nil {
		return nil, fmt.Errorf("register metrics: %w", err)
	}
	if err = s.metrics.watchLingering(&s.lingering); err != nil {
		return nil, fmt.Errorf("register metrics: %w", err)
	}
	if err = s.metrics.watchBudget(s.budget); err != nil {
		return nil, fmt.Errorf("register metrics: %w", err)
	}
	s.metricsHandler = s.metrics.handler()
	s.echo = s.routes()
	return s, nil
}

// Handler returns the service (ServeHTTP), for http.Server or httptest.
func (s *Server) Handler() http.Handler { return s }

// SetReady sets what GET /readyz answers.
func (s *Server) SetReady(ready bool) { s.ready.Store(ready) }

// The routes, as echo spells them; the OpenAPI document uses {name} for :name.
const (
	routeNormalize   = "/v1/normalize"
	routeHealthz     = "/healthz"
	routeReadyz      = "/readyz"
	routeMetrics     = "/metrics"
	routeSchemaIndex = "/v1/schemas"
	routeSchema      = "/v1/schemas/:name"
	routeOpenAPI     = "/openapi.json"
	routeUnmatched   = "unmatched" // the route label of requests no route matched
)

// schemaIndexSlash is the schema index's path as earlier versions routed it, with a trailing
// slash: routedRequest answers it as routeSchemaIndex. The document names the index without
// one, as its other paths are named (Redocly's rule no-path-trailing-slash).
const schemaIndexSlash = routeSchemaIndex + "/"

// routedRequest is the request the router sees: r, or for schemaIndexSlash a copy of r whose path is
// routeSchemaIndex (the log keeps the path as sent).
func routedRequest(r *http.Request) *http.Request {
	if r.URL.Path != schemaIndexSlash || r.URL.RawPath != "" {
		return r
	}
	r2, u := new(http.Request), new(url.URL)
	*r2, *u = *r, *r.URL
	u.Path = routeSchemaIndex
	r2.URL = u
	return r2
}

func (s *Server) routes() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	// No echo middleware: ServeHTTP does the request id, the log line, the metrics and panic
	// recovery around the router, and route-level wrappers are composed here, once.
	s.handle(e.POST, routeNormalize, s.limitInFlight(s.handleNormalize))
	s.handle(e.OPTIONS, routeNormalize, handleOptions("OPTIONS, POST"))
	s.handle(e.POST, routeFix, s.limitInFlight(s.handleFix))
	s.handle(e.OPTIONS, routeFix, handleOptions("OPTIONS, POST"))
	for _, r := range []struct {
		route string
		h     echo.HandlerFunc
	}{
		{routeHealthz, s.handleHealthz},
		{routeReadyz, s.handleReadyz},
		{routeMetrics, s.handleMetrics},
		{routeSchemaIndex, s.handleSchemaIndex},
		{routeSchema, s.handleSchema},
		{routeOpenAPI, s.handleOpenAPI},
		{routePage, s.handlePage},
		{routePageFile, s.handlePage},
	} {
		// HEAD is answered wherever GET is (RFC 9110 9.3.2), by the same handler: net/http
		// drops the body. Registered as itself, it is named in Allow and in errors as sent.
		s.handle(e.GET, r.route, r.h)
		s.handle(e.HEAD, r.route, r.h)
		options := handleOptions("OPTIONS, GET, HEAD")
		if r.route == routeSchema {
			options = s.schemaOptions(options)
		}
		s.handle(e.OPTIONS, r.route, options)
	}
	if s.cfg.Corpus != nil {
		s.corpusRoutes(e)
	}
	return e
}

// handleOptions answers OPTIONS on a known path as echo's router would (204 and Allow, in
// its order of methods), but as a route of ours, so that the log and metrics name the route.
func handleOptions(allow string) echo.HandlerFunc {
	allowed := []string{allow}
	return func(c echo.Context) error {
		c.Response().Header()[echo.HeaderAllow] = allowed
		return c.NoContent(http.StatusNoContent)
	}
}

// handle registers h on route, telling the access log and metrics the route's pattern.
func (s *Server) handle(add func(string, echo.HandlerFunc, ...echo.MiddlewareFunc) *echo.Route, route string, h echo.HandlerFunc) {
	add(route, func(c echo.Context) error {
		x := exchangeOf(c)
		x.route = route
		if x.framing != framingOK {
			return framingError(x.framing)
		}
		return h(c)
	})
}

func (s *Server) handleHealthz(c echo.Context) error {
	return writeJSON(c, http.StatusOK, []byte(`{"status":"ok"}`))
}

func (s *Server) handleReadyz(c echo.Context) error {
	if !s.ready.Load() {
		return &apiError{class: ClassUnavailable, msg: "not ready: the server is starting or shutting down"}
	}
	return writeJSON(c, http.StatusOK, []byte(`{"status":"ready"}`))
}

// jsonContentType is shared by every JSON response; net/http only reads header slices.
var jsonContentType = []string{echo.MIMEApplicationJSON}

func writeJSON(c echo.Context, status int, body []byte) error {
	w := c.Response()
	h := w.Header()
	h[echo.HeaderContentType] = jsonContentType
	// With its length the answer is not chunked (an error answer is flushed before net/http
	// could count it), and an HTTP/1.0 client needs no closed connection to see where it ends.
	h[echo.HeaderContentLength] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

package httpapi

import (
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// metrics are the service's Prometheus metrics, in their own registry so that tests and
// embedders never collide on the global one.
type metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec   // route, method, status
	duration    *prometheus.HistogramVec // route, status
	bytesIn     prometheus.Counter
	warnings    *prometheus.CounterVec // code
	rejections  *prometheus.CounterVec // class
	truncations prometheus.Counter
	inFlight    prometheus.GaugeFunc
	// unlisted counts warnings past a record's cap on listed ones, whose codes are not known.
	unlisted      prometheus.Counter
	writeFailures prometheus.Counter

	lingerCloses    *prometheus.CounterVec // end
	lingerDiscarded prometheus.Counter
	rateCuts        prometheus.Counter

	// normalizeOK is the series of POST /v1/normalize answered 200, made on first use (so
	// that /metrics lists only series that happened).
	normalizeOK lazy[requestSeries]

	requestsBy   *children[requestKey, requestSeries]
	warningsBy   *children[string, prometheus.Counter]
	rejectionsBy *children[string, prometheus.Counter]
}

const namespace = "normalizer"

// durationBuckets are the bounds of http_request_duration_seconds: from 100 µs (a small
// normalize request takes a few hundred) to 120 s, past the default read and write timeouts
// (60 s each), so that a request that ran into either still lands in a bucket of its own.
var durationBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}

// newMetrics registers the service's metrics in reg (a new registry with the Go runtime and
// process collectors when nil); inFlight reads the requests being served now, and version is
// the build_info's version label.
func newMetrics(reg *prometheus.Registry, inFlight func() float64, version string) (*metrics, error) {
	if reg == nil {
		reg = prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	m := &metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "http_requests_total",
			Help: "HTTP requests answered, by route, method and status code."}, []string{"route", "method", "status"}),
		// By status too: a 413 or 429 answered in microseconds and a 408 that waited out the
		// read timeout must not share a series with the 200s a latency objective is about.
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "http_request_duration_seconds",
			Help:    "Time from the request reaching the router to the response being written, by route and status code.",
			Buckets: durationBuckets}, []string{"route", "status"}),
		bytesIn: prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "request_body_bytes_total",
			Help: "Bytes of request bodies read by POST /v1/normalize, after gzip decoding."}),
		warnings: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "warnings_total",
			Help: "Soft warnings in normalized records, by warning code."}, []string{"code"}),
		rejections: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "rejections_total",
			Help: "Requests answered with an error, by error class."}, []string{"class"}),
		truncations: prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "truncations_total",
			Help: "Records whose final_response was cut at 50,000 characters."}),
		// Read from the server's own count when scraped, rather than kept by an increment and
		// a decrement per request (each a compare-and-swap loop on a float).
		inFlight: prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: namespace, Name: "http_requests_in_flight",
			Help: "HTTP requests being served now."}, inFlight),
		unlisted: prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "warnings_unlisted_total",
			Help: "Soft warnings past a record's cap on listed warnings (one warnings_limited warning stands for them), so not counted by code."}),
		writeFailures: prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "http_write_failures_total",
			Help: "Answers that did not reach the client (write timeout, connection lost) after their status was committed."}),
		rateCuts: prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "body_rate_cuts_total",
			Help: "Normalize requests answered 408 because their body arrived slower than --min-body-rate once --min-body-rate-grace had passed (rejections_total counts them too, as RequestTimeout)."}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.bytesIn, m.warnings, m.rejections, m.truncations, m.inFlight,
		m.unlisted, m.writeFailures, m.rateCuts, buildInfo(version)} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	m.requestsBy = newChildren(func(k requestKey) requestSeries {
		status := strconv.Itoa(k.status)
		return requestSeries{m.requests.WithLabelValues(k.route, k.method, status), m.duration.WithLabelValues(k.route, status)}
	})
	m.normalizeOK.get = func() requestSeries {
		return m.requestsBy.get(requestKey{routeNormalize, http.MethodPost, http.StatusOK})
	}
	m.warningsBy = newChildren(func(code string) prometheus.Counter { return m.warnings.WithLabelValues(code) })
	m.rejectionsBy = newChildren(func(class string) prometheus.Counter { return m.rejections.WithLabelValues(class) })
	return m, nil
}

// watchLingering adds the lingering close's metrics (linger.go): the connections lingering
// now, those that lingered by how it ended, and the bytes discarded.
func (m *metrics) watchLingering(l *lingerState) error {
	m.lingerCloses = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "lingering_closes_total",
		Help: "Connections whose request was answered before its body was read (413, 429, 408, a framing 400) that were read and discarded from before closing, by how that ended: client_closed, timeout (--linger-timeout), time_limit (--linger-time), byte_limit (--linger-bytes), shutdown, error."},
		[]string{"end"})
	m.lingerDiscarded = prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "lingering_discarded_bytes_total",
		Help: "Bytes read and discarded by lingering closes: what clients sent after their answer (the rest of a refused body)."})
	now := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: namespace, Name: "lingering_connections",
		Help: "Connections in a lingering close now: answered, their request's slot given back, the rest of the body being discarded."},
		func() float64 { return float64(l.count()) })
	for _, c := range []prometheus.Collector{m.lingerCloses, m.lingerDiscarded, now} {
		if err := m.reg.Register(c); err != nil {
			return err
		}
	}
	return nil
}

// lingered records a lingering close that ended so, having discarded n bytes.
func (m *metrics) lingered(end string, n int64) {
	m.lingerCloses.WithLabelValues(end).Inc()
	m.lingerDiscarded.Add(float64(n))
}

// watchBudget adds the memory budget's gauges: its size, and what the requests in flight hold
// of it now (with no budget, neither is registered).
func (m *metrics) watchBudget(b *memoryBudget) error {
	if b == nil {
		return nil
	}
	size := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "memory_budget_bytes",
		Help: "The memory the normalize requests in flight may reserve together (--memory-budget)."})
	size.Set(float64(b.limit))
	reserved := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: namespace, Name: "memory_reserved_bytes",
		Help: "The memory the normalize requests in flight have reserved of the budget: their worst case, not what they use."},
		func() float64 { return float64(b.used.Load()) })
	refused := prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: namespace, Name: "memory_budget_rejections_total",
		Help: "Normalize requests answered 429 because the memory budget had no room for them (rejections_total counts them too, with those over --max-in-flight)."},
		func() float64 { return float64(b.refusals.Load()) })
	for _, c := range []prometheus.Collector{size, reserved, refused} {
		if err := m.reg.Register(c); err != nil {
			return err
		}
	}
	return nil
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// handleMetrics is GET /metrics. The Prometheus handler answers a failed gathering with a
// plain-text 500 of its own; it is caught here and handed to the one error handler, so that
// every error of the service is JSON, logged with its class and counted.
func (s *Server) handleMetrics(c echo.Context) error {
	w := &failureCatcher{ResponseWriter: c.Response()}
	s.metricsHandler.ServeHTTP(w, c.Request())
	if w.failed {
		s.log.Error().Str("request_id", requestIDOf(c)).Bytes("detail", w.detail).Msg("metrics could not be gathered")
		return &apiError{class: ClassInternal, msg: internalMessage}
	}
	return nil
}

// failureCatcher passes a response through unless its status is 500 or more, which it keeps
// back, body included, for the error handler to answer instead.
type failureCatcher struct {
	http.ResponseWriter
	failed bool
	detail []byte // the start of the failure's own text, for the log
}

func (f *failureCatcher) WriteHeader(code int) {
	if code >= http.StatusInternalServerError {
		f.failed = true
		return
	}
	f.ResponseWriter.WriteHeader(code)
}

func (f *failureCatcher) Write(p []byte) (int, error) {
	if f.failed {
		f.detail = append(f.detail, p[:min(len(p), 1024-len(f.detail))]...)
		return len(p), nil
	}
	return f.ResponseWriter.Write(p)
}

func (f *failureCatcher) Unwrap() http.ResponseWriter { return f.ResponseWriter }

// buildInfo is normalizer_build_info: 1, with what the binary is as labels. version is
// Config.Version (serve gives what `normalizer version` prints); revision is the VCS revision
// the Go toolchain recorded, empty when it recorded none (a build outside a repository, with
// -buildvcs=false, or a test binary), so that every build has the same labels.
func buildInfo(version string) prometheus.Collector {
	revision := ""
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				revision = s.Value
			}
		}
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "build_info",
		Help:        "Always 1: the build serving, as labels (version as `normalizer version` prints it, the Go version, the VCS revision or empty).",
		ConstLabels: prometheus.Labels{"version": version, "goversion": runtime.Version(), "revision": revision}})
	g.Set(1)
	return g
}

// requestKey is the label values of one requests_total series.
type requestKey struct {
	route, method string
	status        int
}

// requestSeries is what a request is recorded in: its requests_total series, and its
// request_duration_seconds series (by route and status: the methods of a route share it),
// found by one lookup.
type requestSeries struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

// observeNormalizeOK records a POST /v1/normalize answered 200, nearly every request: its
// series are looked up once, not hashed by label each time.
func (m *metrics) observeNormalizeOK(d time.Duration) {
	r := m.normalizeOK.value()
	r.count.Inc()
	r.duration.Observe(d.Seconds())
}

func (m *metrics) observeRequest(route, method string, status int, d time.Duration, class string) {
	r := m.requestsBy.get(requestKey{route, methodLabel(method), status})
	r.count.Inc()
	r.duration.Observe(d.Seconds())
	if class != "" {
		m.rejectionsBy.get(class).Inc()
	}
}

func (m *metrics) observeResult(res *normalize.Result) {
	for _, w := range res.Warnings() {
		m.warningsBy.get(string(w.Code)).Inc()
	}
	if n := res.WarningsNotListed(); n > 0 {
		m.unlisted.Add(float64(n))
	}
	if res.Truncated() {
		m.truncations.Inc()
	}
}

// lazy is one series of a vector, looked up by get on its first use and kept.
type lazy[T any] struct {
	once sync.Once
	v    T
	get  func() T
}

func (l *lazy[T]) value() T {
	l.once.Do(func() { l.v = l.get() })
	return l.v
}

// children caches the children of a metric vector by their label values: WithLabelValues
// checks and hashes the values and takes a lock on every call, a visible share of a small
// request. Reads are a map lookup in an immutable map; a new key copies the map under a lock.
// Keys are bounded (known routes, standard methods, the service's statuses, error classes,
// warning codes), so the map stays small; a child is made on first use, so /metrics lists
// only the series that happened.
type children[K comparable, T any] struct {
	mu     sync.Mutex
	m      atomic.Pointer[map[K]T]
	create func(K) T
}

func newChildren[K comparable, T any](create func(K) T) *children[K, T] {
	return &children[K, T]{create: create}
}

func (c *children[K, T]) get(k K) T {
	if m := c.m.Load(); m != nil {
		if v, ok := (*m)[k]; ok {
			return v
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.m.Load()
	if old != nil {
		if v, ok := (*old)[k]; ok {
			return v
		}
	}
	next := make(map[K]T, 1+len(ptrMap(old)))
	for k, v := range ptrMap(old) {
		next[k] = v
	}
	v := c.create(k)
	next[k] = v
	c.m.Store(&next)
	return v
}

func ptrMap[K comparable, T any](m *map[K]T) map[K]T {
	if m == nil {
		return nil
	}
	return *m
}

// methodLabel keeps the method label to the standard methods: a client must not be able to
// make new time series by sending made-up methods.
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "OTHER"
}

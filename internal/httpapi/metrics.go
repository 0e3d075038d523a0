package httpapi

import (
	"net/http"
	"strconv"
	"time"

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
	duration    *prometheus.HistogramVec // route
	bytesIn     prometheus.Counter
	warnings    *prometheus.CounterVec // code
	rejections  *prometheus.CounterVec // class
	truncations prometheus.Counter
	inFlight    prometheus.Gauge
}

const namespace = "normalizer"

func newMetrics(reg *prometheus.Registry) (*metrics, error) {
	if reg == nil {
		reg = prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	m := &metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "http_requests_total",
			Help: "HTTP requests answered, by route, method and status code."}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "http_request_duration_seconds",
			Help:    "Time from the request reaching the router to the response being written, by route.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}}, []string{"route"}),
		bytesIn: prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "request_body_bytes_total",
			Help: "Bytes of request bodies read by POST /v1/normalize, after gzip decoding."}),
		warnings: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "warnings_total",
			Help: "Soft warnings in normalized records, by warning code."}, []string{"code"}),
		rejections: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "rejections_total",
			Help: "Requests answered with an error, by error class."}, []string{"class"}),
		truncations: prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "truncations_total",
			Help: "Records whose final_response was cut at 50,000 characters."}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "http_requests_in_flight",
			Help: "HTTP requests being served now."}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.bytesIn, m.warnings, m.rejections, m.truncations, m.inFlight} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// statusText avoids formatting the common status codes on every request.
var statusText = map[int]string{200: "200", 400: "400", 404: "404", 405: "405", 413: "413", 415: "415", 422: "422", 429: "429", 500: "500", 503: "503"}

func (m *metrics) observeRequest(route, method string, status int, d time.Duration, class string) {
	code, ok := statusText[status]
	if !ok {
		code = strconv.Itoa(status)
	}
	m.requests.WithLabelValues(route, methodLabel(method), code).Inc()
	m.duration.WithLabelValues(route).Observe(d.Seconds())
	if class != "" {
		m.rejections.WithLabelValues(class).Inc()
	}
}

func (m *metrics) observeResult(res *normalize.Result) {
	for _, w := range res.Warnings() {
		m.warnings.WithLabelValues(string(w.Code)).Inc()
	}
	if res.Truncated() {
		m.truncations.Inc()
	}
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

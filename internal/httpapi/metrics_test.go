package httpapi

import (
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The metrics beyond TestMetricsContent (httpapi_test.go): request durations by status, the
// histogram's range, and the build's info.

// A fast rejection and a success of one route are separate duration series, so a latency
// objective can be about the answers it means; the buckets reach past the 60 s timeouts.
func TestDurationByStatus(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: 64})
	for range 3 {
		do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`{"final_response":"ok"}`)})
	}
	do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`"` + strings.Repeat("a", 100) + `"`)})
	do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`{"final_response":"ok"}`),
		header: map[string]string{"Content-Encoding": "br"}})
	do(t, s, call{method: "GET", target: "/healthz"})
	m := do(t, s, call{method: "GET", target: "/metrics"}).Body.String()
	for _, want := range []string{
		`normalizer_http_request_duration_seconds_count{route="/v1/normalize",status="200"} 3`,
		`normalizer_http_request_duration_seconds_count{route="/v1/normalize",status="413"} 1`,
		`normalizer_http_request_duration_seconds_count{route="/v1/normalize",status="415"} 1`,
		`normalizer_http_request_duration_seconds_count{route="/healthz",status="200"} 1`,
		`normalizer_http_request_duration_seconds_bucket{route="/v1/normalize",status="200",le="60"} 3`,
		`normalizer_http_request_duration_seconds_bucket{route="/v1/normalize",status="200",le="120"} 3`,
	} {
		assert.Contains(t, m, want)
	}
	assert.NotContains(t, m, `normalizer_http_request_duration_seconds_count{route="/v1/normalize"}`, "no series without a status")
	assert.Equal(t, 120.0, durationBuckets[len(durationBuckets)-1])
	// POST /v1/normalize answered 200 is observed through its cached children, which are the
	// status="200" series.
	assert.Same(t, s.metrics.duration.WithLabelValues(routeNormalize, "200"), s.metrics.normalizeOK.value().duration)
	assert.Same(t, s.metrics.requests.WithLabelValues(routeNormalize, "POST", "200"), s.metrics.normalizeOK.value().count)
}

// normalizer_build_info is 1, labelled with Config.Version, the Go version and the VCS
// revision (empty when the binary has none, as a test binary).
func TestBuildInfo(t *testing.T) {
	s, _ := newTestServer(t, Config{Version: "v1.2.3 (0123456789ab, 2026-11-30T12:00:00Z)"})
	m := do(t, s, call{method: "GET", target: "/metrics"}).Body.String()
	want := regexp.MustCompile(`(?m)^normalizer_build_info\{goversion="` + regexp.QuoteMeta(runtime.Version()) +
		`",revision="[0-9a-f]*",version="v1\.2\.3 \(0123456789ab, 2026-11-30T12:00:00Z\)"\} 1$`)
	require.Regexp(t, want, m)
	assert.Contains(t, m, "# TYPE normalizer_build_info gauge")
}

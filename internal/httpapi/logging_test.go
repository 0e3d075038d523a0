package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// The access line beyond TestAccessLog (httpapi_test.go): the method as logged, the level of a
// readiness probe's 503, and the warning count.

func TestLoggedMethodIsBounded(t *testing.T) {
	assert.Equal(t, "POST", loggedMethod("POST"))
	long := strings.Repeat("A", 30000)
	assert.Equal(t, strings.Repeat("A", 32)+"...", loggedMethod(long))
}

// A readiness probe answered 503 (starting, or draining before shutdown) is logged at info:
// every pod would log errors on every rollout otherwise. A 500 stays an error.
func TestNotReadyIsNotAnErrorLine(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	w := do(t, s, call{method: "GET", target: "/readyz"})
	require.Equal(t, http.StatusServiceUnavailable, w.Code)
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 1)
	assert.Equal(t, "info", lines[0].Level)
	assert.Equal(t, ClassUnavailable, lines[0].ErrorClass, "still counted and logged as what it is")

	reg := prometheus.NewRegistry()
	reg.MustRegister(failingCollector{})
	s, logs = newTestServer(t, Config{Registry: reg})
	w = do(t, s, call{method: "GET", target: "/metrics"})
	require.Equal(t, http.StatusInternalServerError, w.Code)
	lines = accessLines(t, logs.String())
	require.Len(t, lines, 1)
	assert.Equal(t, "error", lines[0].Level)
}

func TestWarningCountIncludesUnlisted(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	n := 1500
	doc := `{"final_response":"x","messages":[` + strings.TrimSuffix(strings.Repeat("1,", n), ",") + `]}`
	w := do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(doc)})
	require.Equal(t, http.StatusOK, w.Code)
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 1)
	require.NotNil(t, lines[0].Warnings)
	assert.Equal(t, n, *lines[0].Warnings, "every problem counted, listed or not")
	var rec struct {
		SoftWarnings []string `json:"soft_warnings"`
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &rec))
	listed := len(rec.SoftWarnings) - 1 // the last says how many more there were
	assert.Equal(t, normalize.DefaultMaxWarnings, listed)
	assert.Equal(t, float64(n-listed), metricValue(t, s, "normalizer_warnings_unlisted_total"))
}

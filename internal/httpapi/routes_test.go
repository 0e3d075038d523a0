package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The routes' answers beyond TestRoutes (httpapi_test.go): HEAD and OPTIONS, Allow, the path a
// 404 names, the query string, Content-Length on every JSON answer, and a /metrics that fails.

// HEAD is answered wherever GET is (RFC 9110 9.3.2), with the headers and no body.
func TestHeadAnswersLikeGet(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	s.SetReady(true)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, path := range []string{"/healthz", "/readyz", "/metrics", "/openapi.json", "/v1/schemas/"} {
		resp, err := http.Head(srv.URL + path)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Empty(t, body, path)
	}
	resp, err := http.Head(srv.URL + "/v1/normalize")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, "HEAD stands for GET, which /v1/normalize does not have")
}

func TestAllowNamesHeadAndOptionsAreRoutes(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	w := do(t, s, call{method: "DELETE", target: "/healthz"})
	require.Equal(t, http.StatusMethodNotAllowed, w.Code)
	assert.Equal(t, "OPTIONS, GET, HEAD", w.Header().Get("Allow"))
	w = do(t, s, call{method: "OPTIONS", target: "/v1/schemas/record"})
	require.Equal(t, http.StatusNoContent, w.Code)
	assert.Equal(t, "OPTIONS, GET, HEAD", w.Header().Get("Allow"))
	w = do(t, s, call{method: "OPTIONS", target: "/v1/normalize"})
	require.Equal(t, http.StatusNoContent, w.Code)
	assert.Equal(t, "OPTIONS, POST", w.Header().Get("Allow"))
	w = do(t, s, call{method: "HEAD", target: "/v1/normalize"})
	require.Equal(t, http.StatusMethodNotAllowed, w.Code)
	assert.Contains(t, w.Body.String(), "method HEAD is not allowed on /v1/normalize")
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 4)
	assert.Equal(t, "/v1/schemas/:name", lines[1].Route, "OPTIONS is logged under its route")
	assert.Equal(t, "/v1/normalize", lines[2].Route)
}

// OPTIONS on /v1/schemas/<name> answers as GET does for a name no schema has: 404 NotFound,
// through the one error handler (JSON, logged and counted), and no Allow for a path that names
// nothing; a schema that exists, by either name, is 204 with Allow.
func TestOptionsOfUnknownSchemaIsNotFound(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	get := do(t, s, call{method: "GET", target: "/v1/schemas/nope"})
	require.Equal(t, http.StatusNotFound, get.Code)
	w := do(t, s, call{method: "OPTIONS", target: "/v1/schemas/nope"})
	require.Equal(t, http.StatusNotFound, w.Code)
	assert.Empty(t, w.Header().Get("Allow"))
	assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
	assert.Equal(t, get.Body.String(), w.Body.String(), "the same error as GET's")
	for _, target := range []string{"/v1/schemas/record", "/v1/schemas/record.schema.json"} {
		w = do(t, s, call{method: "OPTIONS", target: target})
		require.Equal(t, http.StatusNoContent, w.Code, target)
		assert.Equal(t, "OPTIONS, GET, HEAD", w.Header().Get("Allow"), target)
	}
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 4)
	assert.Equal(t, "OPTIONS", lines[1].Method)
	assert.Equal(t, routeSchema, lines[1].Route)
	assert.Equal(t, ClassNotFound, lines[1].ErrorClass)
	m := do(t, s, call{method: "GET", target: "/metrics"}).Body.String()
	assert.Contains(t, m, `normalizer_http_requests_total{method="OPTIONS",route="/v1/schemas/:name",status="404"} 1`)
	assert.Contains(t, m, `normalizer_rejections_total{class="NotFound"} 2`)
}

// A 404 names the path as it was sent: echo routes on that, so the decoded path would name a
// route that exists.
func TestNotFoundNamesThePathAsSent(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, tt := range []struct{ target, path string }{
		{"/v1/normaliz%65", "/v1/normaliz%65"},
		{"/no/such/path", "/no/such/path"},
		{"/a%2Fb", "/a%2Fb"},
	} {
		w := do(t, s, call{method: "POST", target: tt.target, body: strings.NewReader(okResult)})
		require.Equal(t, http.StatusNotFound, w.Code, tt.target)
		_, message := errorOf(t, w.Body.Bytes())
		assert.Contains(t, message, "no route for POST "+tt.path+" (paths are matched as sent", tt.target)
	}
}

func TestMalformedQueryIsBadRequest(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, target := range []string{"/v1/normalize?explain=%zz", "/v1/normalize?explain=true&x=%"} {
		w := do(t, s, call{method: "POST", target: target, body: strings.NewReader(okResult)})
		assert.Equal(t, http.StatusBadRequest, w.Code, target)
		assert.Equal(t, ClassBadRequest, errorClass(t, w.Body.Bytes()))
	}
	w := do(t, s, call{method: "POST", target: "/v1/normalize?explain=true", body: strings.NewReader(okResult)})
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Contains(t, w.Body.String(), `"diagnostics"`)
}

// explain takes one boolean: no value, or two values, is ambiguous and an error says so.
func TestExplainTakesOneBoolean(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	tests := []struct {
		query   string
		status  int
		diag    bool
		message string
	}{
		{query: "explain=true", status: 200, diag: true},
		{query: "explain=1", status: 200, diag: true},
		{query: "explain=TRUE", status: 200, diag: true},
		{query: "explain=false", status: 200},
		{query: "explain=0", status: 200},
		{query: "other=1", status: 200},
		{query: "Explain=1", status: 400, message: `query parameter "Explain": did you mean explain?`},
		{query: "explain", status: 400, message: `query parameter explain is ""; expected true or false (or 1, 0)`},
		{query: "explain=", status: 400, message: `query parameter explain is ""`},
		{query: "explain=maybe", status: 400, message: `query parameter explain is "maybe"`},
		{query: "explain=true&explain=false", status: 400, message: "query parameter explain is given 2 times; expected it once"},
		{query: "explain=true&explain=true", status: 400, message: "given 2 times"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			w := do(t, s, call{method: "POST", target: "/v1/normalize?" + tt.query, body: strings.NewReader(okResult)})
			require.Equal(t, tt.status, w.Code, w.Body.String())
			if tt.status != 200 {
				class, message := errorOf(t, w.Body.Bytes())
				assert.Equal(t, ClassBadRequest, class)
				assert.Contains(t, message, tt.message)
				return
			}
			assert.Equal(t, tt.diag, strings.Contains(w.Body.String(), `"diagnostics"`))
		})
	}
}

// Every JSON answer carries its Content-Length: errors (flushed by the error handler) and the
// documents were sent chunked before.
func TestJSONAnswersHaveContentLength(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: 16})
	s.SetReady(true)
	for _, c := range []call{
		{method: "GET", target: "/nope"},
		{method: "DELETE", target: "/healthz"},
		{method: "POST", target: "/v1/normalize", body: strings.NewReader("{")},
		{method: "POST", target: "/v1/normalize", body: strings.NewReader(`"` + strings.Repeat("x", 32) + `"`)},
		{method: "POST", target: "/v1/normalize?explain=maybe", body: strings.NewReader(okResult)},
		{method: "GET", target: "/openapi.json"},
		{method: "GET", target: "/v1/schemas/"},
		{method: "GET", target: "/healthz"},
		{method: "GET", target: "/readyz"},
	} {
		w := do(t, s, c)
		assert.Equal(t, strconv.Itoa(w.Body.Len()), w.Header().Get("Content-Length"), "%s %s: %d", c.method, c.target, w.Code)
	}
}

func TestMetricsFailureIsTheJSONError(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(failingCollector{}) // openapi_test.go's
	s, logs := newTestServer(t, Config{Registry: reg})
	w := do(t, s, call{method: "GET", target: "/metrics"})
	require.Equal(t, http.StatusInternalServerError, w.Code)
	assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
	assert.Equal(t, ClassInternal, errorClass(t, w.Body.Bytes()))
	assert.Contains(t, logs.String(), "collect failed", "the cause is logged")
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 1)
	assert.Equal(t, ClassInternal, lines[0].ErrorClass)
}

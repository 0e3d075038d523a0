package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

// A body of unknown length that passes the limit is reported as more than the limit: the
// service stopped reading and does not know its size.
func TestTooLargeWithoutLengthSaysMoreThan(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: 1024})
	req := httptest.NewRequest("POST", "/v1/normalize", strings.NewReader(`"`+strings.Repeat("a", 2020)+`"`))
	req.ContentLength = -1
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	require.Equal(t, http.StatusRequestEntityTooLarge, w.Code)
	assert.Contains(t, w.Body.String(), "request body of more than 1024 bytes (reading stopped there) is over the body limit of 1024 bytes (1KiB)")
}

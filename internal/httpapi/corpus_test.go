package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/viewer"
	"github.com/dystopic/normalizer/internal/webui"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// corpusLines: a good result, one with warnings, an empty line, one that is not JSON, one
// without final_response.
var corpusLines = []string{
	`{"final_response":"ok"}`,
	`{"final_response":"ok","messages":[{"role":"developer","content":"x"}],"metadata":{"a":1,"a":2}}`,
	``,
	`{nope`,
	`{"answer":"x"}`,
}

// corpusIndex is corpusLines indexed, as normalizer view indexes its FILE.
func corpusIndex(t *testing.T) *viewer.Index {
	t.Helper()
	path := filepath.Join(t.TempDir(), "corpus.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(corpusLines, "\n")+"\n"), 0o644))
	ix, err := viewer.Open(context.Background(), path, viewer.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { ix.Close() })
	return ix
}

// corpusServer is a server with corpusLines as its corpus, as normalizer view makes it.
func corpusServer(t *testing.T) *Server {
	t.Helper()
	s, _ := newTestServer(t, Config{Corpus: corpusIndex(t)})
	return s
}

// assertPageHeaders: every answer of the corpus's routes carries the page's headers.
func assertPageHeaders(t *testing.T, h http.Header, what string) {
	t.Helper()
	assert.Equal(t, webui.ContentSecurityPolicy, h.Get("Content-Security-Policy"), what)
	assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"), what)
}

func TestCorpusPage(t *testing.T) {
	s := corpusServer(t)
	w := do(t, s, call{method: "GET", target: "/v1/corpus?limit=2&offset=1"})
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
	assertPageHeaders(t, w.Header(), "page")
	var p viewer.Page
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &p))
	assert.Equal(t, 5, p.Total)
	assert.Equal(t, 5, p.Matching)
	require.Len(t, p.Items, 2)
	assert.Equal(t, 1, p.Items[0].Item)
	assert.Equal(t, int64(2), p.Items[0].Line)
	assert.Equal(t, viewer.Accepted, p.Items[0].Verdict)
	assert.Contains(t, p.Items[0].Codes, softwarn.DuplicateKey)
	assert.Equal(t, viewer.Rejected, p.Items[1].Verdict)
	assert.Equal(t, "InvalidJSON", string(p.Items[1].Class))
	assert.Equal(t, map[string]int{viewer.Accepted: 2, viewer.Rejected: 3}, p.ByVerdict)
	assert.Equal(t, 2, p.ByClass["InvalidJSON"])
	assert.Equal(t, 1, p.ByClass["ResponseShapeError"])
	assert.Equal(t, 1, p.ByCode["duplicate_key"])

	w = do(t, s, call{method: "GET", target: "/v1/corpus?class=InvalidJSON"})
	require.Equal(t, http.StatusOK, w.Code)
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &p))
	assert.Equal(t, 2, p.Matching)
	assert.Equal(t, []int{2, 3}, []int{p.Items[0].Item, p.Items[1].Item})
}

// Bad parameters are answered 400 in the service's error shape, with the page's headers.
func TestCorpusBadQuery(t *testing.T) {
	s := corpusServer(t)
	for _, target := range []string{"/v1/corpus?limit=0", "/v1/corpus?offset=x", "/v1/corpus?code=nope",
		"/v1/corpus?class=x", "/v1/corpus?verdict=maybe", "/v1/corpus?limit=1&limit=2", "/v1/corpus?lmit=5",
		"/v1/corpus?%zz", "/v1/corpus/items/x", "/v1/corpus/items/-1", "/v1/corpus/items/01", "/v1/corpus/items/99999999999999999999"} {
		w := do(t, s, call{method: "GET", target: target})
		assert.Equal(t, http.StatusBadRequest, w.Code, target)
		assert.Equal(t, ClassBadRequest, errorClass(t, w.Body.Bytes()), target)
		assertPageHeaders(t, w.Header(), target)
	}
}

// GET /v1/corpus/items/N is the Nth line's bytes as they are in the file; out of range, 404.
func TestCorpusItem(t *testing.T) {
	s := corpusServer(t)
	for i, line := range corpusLines {
		w := do(t, s, call{method: "GET", target: "/v1/corpus/items/" + itoa(i)})
		require.Equal(t, http.StatusOK, w.Code, "item %d: %s", i, w.Body.String())
		assert.Equal(t, line, w.Body.String(), "item %d", i)
		assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
		assert.Equal(t, itoa(len(line)), w.Header().Get("Content-Length"))
		assertPageHeaders(t, w.Header(), "item")
	}
	w := do(t, s, call{method: "HEAD", target: "/v1/corpus/items/1"})
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Empty(t, w.Body.String())
	w = do(t, s, call{method: "GET", target: "/v1/corpus/items/5"})
	assert.Equal(t, http.StatusNotFound, w.Code)
	class, msg := errorOf(t, w.Body.Bytes())
	assert.Equal(t, ClassNotFound, class)
	assert.Contains(t, msg, "the corpus has 5, from 0 to 4")
	assertPageHeaders(t, w.Header(), "404")
	w = do(t, s, call{method: "POST", target: "/v1/corpus"})
	assert.Equal(t, http.StatusMethodNotAllowed, w.Code)
	w = do(t, s, call{method: "OPTIONS", target: "/v1/corpus/items/0"})
	assert.Equal(t, http.StatusNoContent, w.Code)
	assert.Equal(t, "OPTIONS, GET, HEAD", w.Header().Get("Allow"))
}

// Without a corpus the routes are not there: serve does not answer them.
func TestCorpusRoutesOnlyWithCorpus(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	w := do(t, s, call{method: "GET", target: "/v1/corpus"})
	assert.Equal(t, http.StatusNotFound, w.Code)
}

// The real server on a listener handed to it answers the corpus's routes.
func TestCorpusServe(t *testing.T) {
	s := corpusServer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, Timeouts{}) }()
	defer func() { cancel(); require.NoError(t, <-done) }()
	res, err := http.Get("http://" + ln.Addr().String() + "/v1/corpus/items/1")
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	assert.Equal(t, corpusLines[1], string(b))
}

// GET /corpus is the table page, its script and style sheet beside it under /corpus/, each
// with the page's headers; no other file is there.
func TestCorpusPageFiles(t *testing.T) {
	s := corpusServer(t)
	for _, f := range []struct{ target, contentType, has string }{
		{"/corpus", "text/html; charset=utf-8", `<table id="results">`},
		{"/corpus/corpus.js", "text/javascript; charset=utf-8", "textContent"},
		{"/corpus/corpus.css", "text/css; charset=utf-8", "table"},
	} {
		w := do(t, s, call{method: "GET", target: f.target})
		require.Equal(t, http.StatusOK, w.Code, f.target)
		assert.Equal(t, f.contentType, w.Header().Get("Content-Type"), f.target)
		assert.Contains(t, w.Body.String(), f.has, f.target)
		assertPageHeaders(t, w.Header(), f.target)
	}
	for _, target := range []string{"/corpus/nope.js", "/corpus/corpus.html", "/corpus/..%2fcorpus.html"} {
		w := do(t, s, call{method: "GET", target: target})
		assert.Equal(t, http.StatusNotFound, w.Code, target)
		assert.Equal(t, ClassNotFound, errorClass(t, w.Body.Bytes()), target)
		assertPageHeaders(t, w.Header(), target)
	}
	w := do(t, s, call{method: "HEAD", target: "/corpus"})
	assert.Equal(t, http.StatusOK, w.Code)
}

package httpapi

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/webui"
)

// The page is at / and its files under /ui/, each with the page's security headers; every
// file the page holds is served, with its type.
func TestPageRoutes(t *testing.T) {
	s, logs := newTestServer(t, Config{})
	names, err := fs.Glob(webui.Assets(), "*")
	require.NoError(t, err)
	require.Contains(t, names, "index.html")
	targets := []string{"/", "/?item=12"}
	for _, name := range names {
		if name != "index.html" {
			targets = append(targets, webui.FilePrefix+name)
		}
	}
	require.Greater(t, len(targets), 3, "the page has its script and style sheet")
	for _, target := range targets {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			w := do(t, s, call{method: method, target: target})
			require.Equal(t, http.StatusOK, w.Code, "%s %s", method, target)
			h := w.Header()
			assert.Equal(t, webui.ContentSecurityPolicy, h.Get("Content-Security-Policy"), target)
			assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"), target)
			assert.Equal(t, "DENY", h.Get("X-Frame-Options"), target)
			assert.Equal(t, "no-referrer", h.Get("Referrer-Policy"), target)
			assert.NotEmpty(t, h.Get("X-Request-ID"), target)
			assert.NotEmpty(t, h.Get("Content-Type"), target)
			assert.NotEmpty(t, h.Get("Content-Length"), target)
			if method == http.MethodGet {
				assert.Equal(t, h.Get("Content-Length"), strconv.Itoa(w.Body.Len()), target)
			}
		}
	}
	w := do(t, s, call{method: http.MethodGet, target: "/"})
	assert.Equal(t, "text/html; charset=utf-8", w.Header().Get("Content-Type"))
	assert.Contains(t, w.Body.String(), `<textarea id="result" name="result"`)
	w = do(t, s, call{method: http.MethodGet, target: "/ui/app.js"})
	assert.Equal(t, "text/javascript; charset=utf-8", w.Header().Get("Content-Type"))
	lines := accessLines(t, logs.String())
	require.NotEmpty(t, lines)
	assert.Equal(t, routePage, lines[0].Route)
	assert.Equal(t, routePageFile, lines[4].Route, "after GET and HEAD of / and /?item=12")
}

// What the page does not have is the JSON 404 of the API, and other methods its JSON 405; the
// API's own answers carry none of the page's headers.
func TestPageErrorsAreTheAPIs(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, target := range []string{"/ui/nope.js", "/ui/", "/ui/index", "/ui/.hidden.js", "/ui/app.js.map", "/ui/a/app.js", "/index.html", "/app.js", "/ui/app%2Ejs"} {
		w := do(t, s, call{method: http.MethodGet, target: target})
		require.Equal(t, http.StatusNotFound, w.Code, target)
		assert.Equal(t, "application/json", w.Header().Get("Content-Type"), target)
		assert.Equal(t, ClassNotFound, errorClass(t, w.Body.Bytes()), target)
	}
	w := do(t, s, call{method: http.MethodPost, target: "/", body: strings.NewReader(okResult)})
	require.Equal(t, http.StatusMethodNotAllowed, w.Code)
	assert.Equal(t, "OPTIONS, GET, HEAD", w.Header().Get("Allow"))
	assert.Equal(t, ClassMethodNotAllowed, errorClass(t, w.Body.Bytes()))
	w = do(t, s, call{method: http.MethodPost, target: "/v1/normalize?explain=true", body: strings.NewReader(okResult)})
	require.Equal(t, http.StatusOK, w.Code)
	assert.Empty(t, w.Header().Get("Content-Security-Policy"), "the JSON API is unchanged")
	w = do(t, s, call{method: http.MethodGet, target: "/no/such/path"})
	require.Equal(t, http.StatusNotFound, w.Code)
	assert.Equal(t, ClassNotFound, errorClass(t, w.Body.Bytes()))
}

// The document's header values are the ones the page sends.
func TestOpenAPIPageHeaders(t *testing.T) {
	var doc struct {
		Components struct {
			Headers map[string]struct {
				Schema struct {
					Const string `json:"const"`
				} `json:"schema"`
			} `json:"headers"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	h := http.Header{}
	webui.SetHeaders(h)
	for name, header := range map[string]string{
		"ContentSecurityPolicy": "Content-Security-Policy",
		"ContentTypeOptions":    "X-Content-Type-Options",
		"FrameOptions":          "X-Frame-Options",
		"ReferrerPolicy":        "Referrer-Policy",
	} {
		assert.Equal(t, h.Get(header), doc.Components.Headers[name].Schema.Const, name)
	}
}

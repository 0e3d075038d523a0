package webui_test

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/webui"
)

func TestPageHeaders(t *testing.T) {
	rec := httptest.NewRecorder()
	webui.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	require.True(t, strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html"))
	require.Equal(t, webui.ContentSecurityPolicy, rec.Header().Get("Content-Security-Policy"))
	require.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
	require.Contains(t, rec.Body.String(), `<textarea id="result" name="result"`)
}

func TestPageRefusesOtherMethods(t *testing.T) {
	rec := httptest.NewRecorder()
	webui.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	require.Equal(t, http.StatusMethodNotAllowed, rec.Code)
	require.Equal(t, "GET, HEAD", rec.Header().Get("Allow"))
}

func TestPageFiles(t *testing.T) {
	for _, tt := range []struct {
		path, name, contentType string
	}{
		{"/", "index.html", "text/html; charset=utf-8"},
		{"/ui/app.js", "app.js", "text/javascript; charset=utf-8"},
		{"/ui/style.css", "style.css", "text/css; charset=utf-8"},
		{"/ui/icon.svg", "icon.svg", "image/svg+xml"},
	} {
		f, ok := webui.Lookup(tt.path)
		require.True(t, ok, tt.path)
		require.Equal(t, tt.name, f.Name)
		require.Equal(t, tt.contentType, f.ContentType)
		require.NotEmpty(t, f.Body)
		rec := httptest.NewRecorder()
		webui.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
		require.Equal(t, http.StatusOK, rec.Code, tt.path)
		require.Equal(t, tt.contentType, rec.Header().Get("Content-Type"))
		require.Equal(t, webui.ContentSecurityPolicy, rec.Header().Get("Content-Security-Policy"))
		require.Equal(t, f.Body, rec.Body.Bytes())
	}
	for _, p := range []string{"/index.html", "/app.js", "/ui/", "/ui/nope.js", "/ui/.x.js", "/ui/a/b.js", "/ui/app.js.map", "/ui/..%2fwebui.go", "/ui/../webui.go"} {
		_, ok := webui.Lookup(p)
		require.False(t, ok, p)
		if strings.Contains(p, "..") {
			continue // not a request path a client sends
		}
		rec := httptest.NewRecorder()
		webui.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		require.Equal(t, http.StatusNotFound, rec.Code, p)
	}
	rec := httptest.NewRecorder()
	webui.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/ui/nope.js", nil))
	require.Equal(t, http.StatusNotFound, rec.Code)
}

// Every file of the page is served: none has a type Lookup does not know.
func TestEveryAssetIsServed(t *testing.T) {
	names, err := fs.Glob(webui.Assets(), "*")
	require.NoError(t, err)
	for _, name := range names {
		p := webui.FilePrefix + name
		if name == "index.html" {
			p = "/"
		}
		_, ok := webui.Lookup(p)
		require.True(t, ok, name)
	}
}

// The page keeps the DOM contract the browser tests and the corpus viewer rely on, loads
// nothing inline (the policy would refuse it) and nothing from elsewhere, and no script of it
// turns a string into markup.
func TestPageContract(t *testing.T) {
	index, ok := webui.Lookup("/")
	require.True(t, ok)
	html := string(index.Body)
	for _, want := range []string{`<form id="check"`, `name="result"`, `<button type="submit"`, `id="verdict"`, `id="final"`,
		`id="trace"`, `id="diagnostics"`, `id="apply-safe"`, `id="apply-all"`, `<script type="module" src="/ui/app.js"></script>`} {
		require.Contains(t, html, want)
	}
	require.NotRegexp(t, `<script(?:\s[^>]*)?>[^<]`, html, "no inline script")
	require.NotContains(t, html, "<style", "no inline style")
	require.NotRegexp(t, `\sstyle=`, html, "no style attribute")
	require.NotRegexp(t, `\son[a-z]+=`, html, "no event handler attribute")
	require.NotRegexp(t, `(?:src|href)="(?:https?:)?//`, html, "nothing from another origin")
	names, err := fs.Glob(webui.Assets(), "*.js")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		b, err := fs.ReadFile(webui.Assets(), name)
		require.NoError(t, err)
		for _, sink := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "createContextualFragment", "DOMParser"} {
			require.NotContains(t, string(b), sink, "%s uses %s", name, sink)
		}
		require.NotRegexp(t, `fetch\(\s*['"`+"`"+`](?:https?:)?//`, string(b), "%s fetches from another origin", name)
	}
}

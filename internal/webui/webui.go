// Package webui is the porter's page: a result pasted or dropped into it is normalized by the
// service it is served from, and the page shows the verdict, final_response as the judge sees
// it, the kept messages as a trace, every warning and note beside the input, and the fixes.
//
// The page is static files embedded in the binary (no Node.js at build or run time): index.html
// at "/", every other file at FilePrefix plus its name ("/ui/app.js"). It talks only to its own
// origin, under a Content-Security-Policy that allows no inline script and no outside source,
// and shows the result's text as text, never as HTML.
package webui

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
)

//go:embed assets
var files embed.FS

// FilePrefix is where the page's files other than index.html are served: FilePrefix + name.
const FilePrefix = "/ui/"

// Assets is the page's files: index.html at the root, the rest beside it.
func Assets() fs.FS {
	sub, err := fs.Sub(files, "assets")
	if err != nil {
		panic(err) // the embed directive names the folder: it exists in every build
	}
	return sub
}

// ContentSecurityPolicy lets the page load only its own scripts, styles and images, and talk
// only to its own origin; no page may frame it.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// SetHeaders sets the security headers every response of the page carries.
func SetHeaders(h http.Header) {
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	// The files are in the binary: a new build has new ones, and they are small.
	h.Set("Cache-Control", "no-cache")
}

// File is one of the page's files.
type File struct {
	Name        string // its name in Assets
	ContentType string
	Body        []byte
}

// contentTypes are the media types of the page's files, by extension: a table of their own,
// so that the answer does not depend on the machine's MIME tables.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
}

// Lookup returns the file a request path names: index.html for "/", the file name for
// FilePrefix + name; false for any other path, a name that is not a file of the page, or one
// whose type the page does not serve.
func Lookup(urlPath string) (File, bool) {
	name := "index.html"
	if urlPath != "/" {
		rest, ok := strings.CutPrefix(urlPath, FilePrefix)
		if !ok {
			return File{}, false
		}
		name = rest
	}
	if name == "" || strings.ContainsAny(name, `/\`) || name[0] == '.' {
		return File{}, false
	}
	ct, ok := contentTypes[path.Ext(name)]
	if !ok {
		return File{}, false
	}
	body, err := fs.ReadFile(Assets(), name)
	if err != nil {
		return File{}, false
	}
	return File{Name: name, ContentType: ct, Body: body}, true
}

// Write answers with f: SetHeaders' headers, its type and length, and its body (none for HEAD,
// which net/http drops).
func (f File) Write(w http.ResponseWriter) {
	h := w.Header()
	SetHeaders(h)
	h.Set("Content-Type", f.ContentType)
	h.Set("Content-Length", strconv.Itoa(len(f.Body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(f.Body)
}

// Handler serves the page at "/" and its files at FilePrefix + name, with SetHeaders' headers,
// for a server of its own (normalizer view); any other path is 404 and any other method 405,
// in plain text. normalizer serve routes the same files through its own router, whose errors
// are JSON.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SetHeaders(w.Header())
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		f, ok := Lookup(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		f.Write(w)
	})
}

// Package webui is the porter's page: a result pasted or dropped into it is normalized by the
// service it is served from, and the page shows the verdict, final_response as the judge sees
// it, the kept messages as a trace, every warning and note beside the input, and the fixes.
//
// The page is static files embedded in the binary (no Node.js at build or run time). It talks
// only to its own origin, under a Content-Security-Policy that allows no inline script and no
// outside source, and shows the result's text as text, never as HTML.
package webui

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed assets
var files embed.FS

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
}

// Handler serves the page at "/" and its files by name ("/app.js"), with SetHeaders' headers.
func Handler() http.Handler {
	fsrv := http.FileServer(http.FS(Assets()))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SetHeaders(w.Header())
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		fsrv.ServeHTTP(w, r)
	})
}

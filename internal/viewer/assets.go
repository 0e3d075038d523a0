package viewer

import (
	"embed"
	"io/fs"
)

//go:embed assets
var files embed.FS

// Assets is the table page's files: corpus.html, corpus.js and corpus.css. The page is plain
// HTML, CSS and an ES module, with no inline script or style, so it passes the porter's
// page's Content-Security-Policy (webui.ContentSecurityPolicy).
func Assets() fs.FS {
	sub, err := fs.Sub(files, "assets")
	if err != nil {
		panic(err) // the embed directive names the folder: it exists in every build
	}
	return sub
}

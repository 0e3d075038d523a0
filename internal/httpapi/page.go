package httpapi

import (
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/dystopic/normalizer/internal/webui"
)

// The porter's page (package webui): index.html at "/", its other files under /ui/.
const (
	routePage     = "/"
	routePageFile = webui.FilePrefix + ":file"
)

// handlePage is GET / and GET /ui/{file}: the page's files, with the page's security headers
// (webui.SetHeaders). A name that is not one of its files is the JSON 404 of every route.
func (s *Server) handlePage(c echo.Context) error {
	path := routePage
	if c.Path() == routePageFile {
		path = webui.FilePrefix + c.Param("file")
	}
	f, ok := webui.Lookup(path)
	if !ok {
		return &apiError{class: ClassNotFound, msg: "the page has no file " + strconv.Quote(c.Param("file")) + "; it is served at GET " + routePage}
	}
	f.Write(c.Response())
	return nil
}

package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/dystopic/normalizer/internal/viewer"
	"github.com/dystopic/normalizer/internal/webui"
)

// The routes of a corpus (Config.Corpus), which `normalizer view` serves beside the API.
const (
	routeCorpus     = "/v1/corpus"
	routeCorpusItem = "/v1/corpus/items/:n"
	routeCorpusPage = "/corpus"       // the table page
	routeCorpusFile = "/corpus/:file" // its script and style sheet
)

// corpusRoutes registers the corpus's routes on e: GET (and HEAD, OPTIONS) of each.
func (s *Server) corpusRoutes(e *echo.Echo) {
	for _, r := range []struct {
		route string
		h     echo.HandlerFunc
	}{
		{routeCorpus, s.handleCorpus},
		{routeCorpusItem, s.handleCorpusItem},
		{routeCorpusPage, handleCorpusFile("corpus.html")},
		{routeCorpusFile, handleCorpusFile("")},
	} {
		h := withPageHeaders(r.h)
		s.handle(e.GET, r.route, h)
		s.handle(e.HEAD, r.route, h)
		s.handle(e.OPTIONS, r.route, withPageHeaders(handleOptions("OPTIONS, GET, HEAD")))
	}
}

// withPageHeaders gives every answer of h, errors included, the page's security headers.
func withPageHeaders(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		webui.SetHeaders(c.Response().Header())
		return h(c)
	}
}

// handleCorpus is GET /v1/corpus?offset=&limit=&code=&class=&verdict=: a page of the corpus's
// summaries, the number that match, and the counts of each filter's choices.
func (s *Server) handleCorpus(c echo.Context) error {
	v, err := url.ParseQuery(c.Request().URL.RawQuery)
	if err != nil {
		return &apiError{class: ClassBadRequest, msg: "query string: " + err.Error()}
	}
	q, err := viewer.ParseQuery(v)
	if err != nil {
		return &apiError{class: ClassBadRequest, msg: err.Error()}
	}
	body, err := json.Marshal(s.cfg.Corpus.Find(q))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, body)
}

// handleCorpusItem is GET /v1/corpus/items/N: the raw bytes of the corpus's Nth result, from
// 0, read from the file where the index found them.
func (s *Server) handleCorpusItem(c echo.Context) error {
	p := c.Param("n")
	n, err := strconv.Atoi(p)
	if err != nil || n < 0 || strconv.Itoa(n) != p {
		return &apiError{class: ClassBadRequest, msg: "item " + strconv.Quote(p) + ": expected a whole number, 0 or more, with no sign or leading zero"}
	}
	r, size, err := s.cfg.Corpus.Raw(n)
	switch {
	case errors.Is(err, viewer.ErrNoItem), errors.Is(err, viewer.ErrChanged):
		return &apiError{class: ClassNotFound, msg: err.Error()}
	case err != nil:
		return err
	}
	defer r.Close()
	w := c.Response()
	h := w.Header()
	h[echo.HeaderContentType] = jsonContentType
	h[echo.HeaderContentLength] = []string{strconv.FormatInt(size, 10)}
	w.WriteHeader(http.StatusOK)
	if c.Request().Method == http.MethodHead {
		return nil
	}
	_, err = io.Copy(w, r)
	exchangeOf(c).noteWrite(err)
	return nil
}

// handleCorpusFile serves one of viewer.Assets: name, or for "" the one the path names.
func handleCorpusFile(name string) echo.HandlerFunc {
	assets := viewer.Assets()
	return func(c echo.Context) error {
		file := name
		if file == "" {
			file = c.Param("file")
		}
		if st, err := fs.Stat(assets, file); err != nil || st.IsDir() || file == "corpus.html" && name == "" {
			return &apiError{class: ClassNotFound, msg: "no file " + strconv.Quote(file) + " in the corpus page; it is served at GET /corpus"}
		}
		http.ServeFileFS(c.Response(), c.Request(), assets, file)
		return nil
	}
}

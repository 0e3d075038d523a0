package httpapi

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/dystopic/normalizer/internal/fixer"
	"github.com/dystopic/normalizer/internal/unidiff"
)

// routeFix is POST /v1/fix.
const routeFix = "/v1/fix"

// fixQueryParams are the query parameters POST /v1/fix takes, each true or false.
var fixQueryParams = []string{"unsafe", "diff"}

// fixHeapMargin is what a fix request holds beyond one explaining normalization, as a multiple
// of its body: the result of each round and the one before it.
const fixHeapMargin = 2

// handleFix is POST /v1/fix: the raw result in, the result with its diagnostics' fixes applied
// out (the safe ones, or with ?unsafe=true all of them), or with ?diff=true a unified diff from
// the one to the other. A result still rejected after the fixes is answered as POST
// /v1/normalize answers it: its status and error object. It shares /v1/normalize's body limit,
// in-flight cap and memory budget.
func (s *Server) handleFix(c echo.Context) error {
	req := c.Request()
	opts, err := fixOptions(req)
	if err != nil {
		return err
	}
	x := exchangeOf(c)
	resv := reservation{budget: s.budget, ratio: s.explain.PeakHeapRatio() + fixHeapMargin, explain: true}
	defer resv.release()
	in, err := s.readBody(req, x, &resv)
	if in != nil {
		defer putBuffer(in)
	}
	s.rearmWriteDeadline(x)
	if err != nil {
		if classify(err) == ClassTooManyRequests {
			s.refuse(c)
		}
		return err
	}
	res := fixer.Run(s.explain, in.b, opts["unsafe"])
	if res.Err != nil {
		return rejection(res.Err, req, res.Output)
	}
	body, contentType := res.Output, jsonContentType
	if opts["diff"] {
		body, contentType = []byte(unidiff.Diff("a/result.json", "b/result.json", in.b, res.Output)), diffContentType
	}
	w := c.Response()
	h := w.Header()
	h[echo.HeaderContentType] = contentType
	h[echo.HeaderContentLength] = []string{strconv.Itoa(len(body))}
	h["Normalizer-Fixes-Applied"] = []string{strconv.Itoa(res.Applied)}
	w.WriteHeader(http.StatusOK)
	x.noteWrite(s.writeRecord(x, w, body))
	return nil
}

var diffContentType = []string{"text/x-diff; charset=utf-8"}

// fixOptions reads ?unsafe= and ?diff=: each at most once, true or false (or 1, 0). Other
// parameters are ignored, as /v1/normalize ignores them.
func fixOptions(req *http.Request) (map[string]bool, error) {
	opts := map[string]bool{}
	if req.URL.RawQuery == "" {
		return opts, nil
	}
	q, err := url.ParseQuery(req.URL.RawQuery)
	if err != nil {
		return nil, &apiError{class: ClassBadRequest, msg: "query string " + strconv.Quote(req.URL.RawQuery) + ": " + err.Error() + "; expected unsafe=true or diff=true"}
	}
	for _, name := range fixQueryParams {
		vs, given := q[name]
		if !given {
			continue
		}
		if len(vs) > 1 {
			return nil, &apiError{class: ClassBadRequest, msg: "query parameter " + name + " is given " + strconv.Itoa(len(vs)) + " times; expected it once, " + name + "=true or " + name + "=false"}
		}
		v, err := strconv.ParseBool(vs[0])
		if err != nil {
			return nil, &apiError{class: ClassBadRequest, msg: "query parameter " + name + " is " + strconv.Quote(vs[0]) + "; expected true or false (or 1, 0)"}
		}
		opts[name] = v
	}
	return opts, nil
}

package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// Classes of errors that are not rejections of a result. The normalizer's own classes
// (InvalidJSON, PayloadTooLarge, ResponseShapeError) come from package normalize.
const (
	ClassBadRequest           = "BadRequest"                    // a bad query parameter, or a body that cannot be read or decoded
	ClassNotFound             = "NotFound"                      // no such route, or no such schema
	ClassMethodNotAllowed     = "MethodNotAllowed"              // the route exists, not with this method
	ClassRequestTimeout       = "RequestTimeout"                // the body did not arrive within the read timeout
	ClassUnsupportedMediaType = "UnsupportedMediaType"          // a Content-Encoding other than gzip or identity
	ClassTooManyRequests      = "TooManyRequests"               // over the cap on requests in flight, or their memory budget
	ClassInternal             = string(normalize.ClassInternal) // a bug: the request id finds it in the logs
	ClassUnavailable          = "Unavailable"                   // not ready: starting or shutting down
)

// classStatus is the one table from error class to HTTP status.
var classStatus = map[string]int{
	string(normalize.ClassInvalidJSON):     http.StatusBadRequest,
	string(normalize.ClassPayloadTooLarge): http.StatusRequestEntityTooLarge,
	string(normalize.ClassResponseShape):   http.StatusUnprocessableEntity,
	ClassBadRequest:                        http.StatusBadRequest,
	ClassNotFound:                          http.StatusNotFound,
	ClassMethodNotAllowed:                  http.StatusMethodNotAllowed,
	ClassRequestTimeout:                    http.StatusRequestTimeout,
	ClassUnsupportedMediaType:              http.StatusUnsupportedMediaType,
	ClassTooManyRequests:                   http.StatusTooManyRequests,
	ClassInternal:                          http.StatusInternalServerError,
	ClassUnavailable:                       http.StatusServiceUnavailable,
}

// apiError is an error of the HTTP layer with its class.
type apiError struct {
	class string
	msg   string
}

func (e *apiError) Error() string { return e.msg }

// classify returns the class of any error a handler or echo returns.
func classify(err error) string {
	if class, ok := normalize.ClassOf(err); ok {
		return string(class)
	}
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.class
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		if class, ok := echoClass[he.Code]; ok {
			return class
		}
	}
	return ClassInternal
}

// echoClass names the errors echo itself returns (its router's 404 and 405 above all).
var echoClass = map[int]string{
	http.StatusBadRequest:            ClassBadRequest,
	http.StatusNotFound:              ClassNotFound,
	http.StatusMethodNotAllowed:      ClassMethodNotAllowed,
	http.StatusRequestTimeout:        ClassRequestTimeout,
	http.StatusRequestEntityTooLarge: string(normalize.ClassPayloadTooLarge),
	http.StatusUnsupportedMediaType:  ClassUnsupportedMediaType,
	http.StatusTooManyRequests:       ClassTooManyRequests,
	http.StatusServiceUnavailable:    ClassUnavailable,
}

// handleError is the one HTTPErrorHandler: it renders err as {"error":{"class","message"}}.
func (s *Server) handleError(err error, c echo.Context) {
	x := exchangeOf(c)
	if x.framing != framingOK { // no route matched, or the route's method: the framing comes first
		err = framingError(x.framing)
	}
	class := classify(err)
	x.class = class
	if x.route == "" {
		x.route = c.Path() // a 405 on a known path is counted under its route, as echo matched it
	}
	if c.Response().Committed {
		return
	}
	status := classStatus[class]
	if x.framing != framingOK || (x.route == routeNormalize || x.route == routeFix) && class != ClassUnavailable && bodyUnread(x, c.Request()) {
		markLinger(x) // the rest of the body is read and discarded once the answer is sent
	}
	var body []byte
	if _, ok := normalize.ClassOf(err); ok {
		body = normalize.AppendError(make([]byte, 0, 256), err)
	} else {
		body = appendAPIError(make([]byte, 0, 128), class, messageOf(err, c))
	}
	if class == ClassInternal {
		s.log.Error().Err(err).Str("request_id", requestIDOf(c)).Msg("internal error")
	}
	err = writeJSON(c, status, body)
	if err == nil {
		err = flush(x.ResponseWriter) // as for a record: a failed write is seen, logged and counted
	}
	x.noteWrite(err)
}

const internalMessage = "internal error; the request id is in the X-Request-ID header"

// messageOf says what went wrong in words a client can act on; echo's own errors only know
// their status text.
func messageOf(err error, c echo.Context) string {
	var he *echo.HTTPError
	if !errors.As(err, &he) {
		if classify(err) == ClassInternal {
			return internalMessage
		}
		return err.Error()
	}
	req := c.Request()
	// The path as sent: echo routes on it, percent-encoding and all, so the decoded path could
	// name a route that exists ("/v1/normaliz%65" is not routed to /v1/normalize).
	path := req.URL.EscapedPath()
	switch he.Code {
	case http.StatusNotFound:
		return "no route for " + req.Method + " " + path + " (paths are matched as sent, percent-encoding included); the API is described at GET /openapi.json"
	case http.StatusMethodNotAllowed:
		allow := c.Response().Header().Get(echo.HeaderAllow)
		return "method " + req.Method + " is not allowed on " + path + "; allowed: " + allow
	}
	return http.StatusText(he.Code)
}

func appendAPIError(dst []byte, class, msg string) []byte {
	type detail struct {
		Class   string `json:"class"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		Error detail `json:"error"`
	}{detail{class, msg}})
	if err != nil { // cannot happen: two strings
		return append(dst, `{"error":{"class":"Internal","message":"cannot render the error"}}`...)
	}
	return append(dst, b...)
}

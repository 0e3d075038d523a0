package httpapi

import (
	"bytes"
	"errors"
	"net/http"
	"strings"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// rejection is the normalizer's error for a body, as the client is told it: the core's
// message for a result the core cannot take, with what the HTTP request adds to it. The
// class, the status and the error object's other keys stay the core's (the errors returned
// unwrap to the core's error, which normalize.AppendError renders).
func rejection(err error, req *http.Request, body []byte) error {
	var ptl *normalize.PayloadTooLargeError
	if errors.As(err, &ptl) {
		return tooLargeCore(ptl)
	}
	if errors.Is(err, normalize.ErrInvalidJSON) {
		if hint := formHint(req.Header.Get("Content-Type"), body); hint != "" {
			return &hintedError{err: err, hint: hint}
		}
	}
	var syn *normalize.InvalidJSONError
	if errors.As(err, &syn) && syn.JSONLines {
		return &hintedError{err: err, hint: jsonLinesHint}
	}
	return err
}

// hintedError is a rejection with a hint after its message.
type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() + "; " + e.hint }
func (e *hintedError) Unwrap() error { return e.err }

// RejectionMessage keeps the hint in the error object (normalize.WordedRejection).
func (e *hintedError) RejectionMessage() string { return e.Error() }

const (
	multipartHint = "the request is multipart/form-data (curl -F): send the JSON itself as the body, " +
		"e.g. curl --data-binary @result.json -H 'Content-Type: application/json'"
	formEncodedHint = "the body is form-encoded (curl -d key=value): send the result as JSON, " +
		"e.g. curl --data-binary @result.json -H 'Content-Type: application/json'"
	// jsonLinesHint follows the core's message for a body of several results, one per line,
	// which already says to send one result per input.
	jsonLinesHint = "POST each result in a request of its own"
)

// formHint says what to send instead when a body that is not JSON came as an HTML form, as
// curl -F and curl -d key=value send one. The Content-Type alone decides nothing: curl -d
// @result.json calls a JSON body application/x-www-form-urlencoded, and that body is
// normalized like any other; this is called only for a body that failed to parse.
func formHint(contentType string, body []byte) string {
	media, _, _ := strings.Cut(contentType, ";")
	media = strings.TrimSpace(media)
	switch {
	case strings.EqualFold(media, "multipart/form-data") && bytes.HasPrefix(body, []byte("--")):
		return multipartHint // the body is the form itself, its first boundary first
	case strings.EqualFold(media, "application/x-www-form-urlencoded") && looksFormEncoded(body):
		return formEncodedHint
	}
	return ""
}

// looksFormEncoded says whether body starts as key=value pairs do: a name of the characters
// a form's field names are sent in (letters, digits, and - _ . ~ % + *, and [ ] after the
// first), then '='. A JSON text starts with none of them but digits and '-', and a number
// followed by '=' is no JSON.
func looksFormEncoded(body []byte) bool {
	for i, c := range body {
		switch {
		case c == '=':
			return i > 0
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-_.~%+*", c) >= 0:
		case (c == '[' || c == ']') && i > 0:
		default:
			return false
		}
	}
	return false
}

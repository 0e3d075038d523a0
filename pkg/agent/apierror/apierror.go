// Package apierror is the error hierarchy of the platform's REST API (registration, review
// creation, run export): the Go side of the SDK's dystopic.errors module.
//
// It is a different hierarchy from the proxy's errors (package proxy): those belong to the
// tool-call wire, these to the platform REST API wire.
//
//	ErrDystopic (base: errors.Is; or errors.As with the Error interface)
//	├── *TimeoutError       a polling helper gave up waiting
//	├── *ConnectionError    the API could not be reached
//	└── *APIError           a non-2xx response: StatusCode, Message, Body
//	    ├── *AuthenticationError 401
//	    ├── *ForbiddenError      403
//	    ├── *NotFoundError       404
//	    ├── *ConflictError       409
//	    ├── *ValidationError     422
//	    ├── *RateLimitError      429, with the response's Retry-After
//	    └── *ServerError         500–599
//
// Each specific API error embeds APIError and unwraps to it, so errors.As(err, &apiErr) with
// apiErr of type *APIError matches a *NotFoundError too, exactly as `except DystopicAPIError`
// catches a NotFoundError in Python. Everything unwraps, in the end, to ErrDystopic.
package apierror

import (
	"errors"
	"fmt"
	"time"
)

// ErrDystopic is the base of the hierarchy: errors.Is(err, ErrDystopic) holds for every error of
// this package, like `except DystopicError` in Python.
var ErrDystopic = errors.New("dystopic error")

// Error is implemented by every error of this package and by nothing else, so that
// errors.As(err, &e) with e of type Error finds the innermost error of the hierarchy.
type Error interface {
	error
	dystopic()
}

// TimeoutError reports that a polling helper gave up before the awaited state was reached.
type TimeoutError struct {
	Op    string        // what was awaited, e.g. "wait for review 42"
	After time.Duration // how long it waited
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("dystopic: %s: timed out after %s", e.Op, e.After)
}

// Unwrap returns ErrDystopic.
func (e *TimeoutError) Unwrap() error { return ErrDystopic }
func (e *TimeoutError) dystopic()     {}

// ConnectionError reports that the API could not be reached: no HTTP response came back.
type ConnectionError struct {
	URL string // the URL that was called
	Err error  // the transport's error
}

func (e *ConnectionError) Error() string {
	return fmt.Sprintf("dystopic: cannot connect to %s: %v", e.URL, e.Err)
}

// Unwrap returns ErrDystopic and the transport's error, so errors.Is also finds, for example,
// context.DeadlineExceeded.
func (e *ConnectionError) Unwrap() []error { return []error{ErrDystopic, e.Err} }
func (e *ConnectionError) dystopic()       {}

// APIError is a non-2xx response from the API. The specific errors below embed it.
type APIError struct {
	StatusCode int    // the HTTP status
	Message    string // the reason, from the body where it carries one
	Body       []byte // the response body as received, possibly empty
}

// Error returns "Dystopic API error {status}: {message}", the SDK's string form.
func (e *APIError) Error() string {
	return fmt.Sprintf("Dystopic API error %d: %s", e.StatusCode, e.Message)
}

// Unwrap returns ErrDystopic.
func (e *APIError) Unwrap() error { return ErrDystopic }
func (e *APIError) dystopic()     {}

// AuthenticationError is a 401: credentials missing or invalid.
type AuthenticationError struct{ APIError }

// Unwrap returns the embedded *APIError.
func (e *AuthenticationError) Unwrap() error { return &e.APIError }

// ForbiddenError is a 403.
type ForbiddenError struct{ APIError }

// Unwrap returns the embedded *APIError.
func (e *ForbiddenError) Unwrap() error { return &e.APIError }

// NotFoundError is a 404.
type NotFoundError struct{ APIError }

// Unwrap returns the embedded *APIError.
func (e *NotFoundError) Unwrap() error { return &e.APIError }

// ConflictError is a 409, typically an idempotency key reused with a different payload.
type ConflictError struct{ APIError }

// Unwrap returns the embedded *APIError.
func (e *ConflictError) Unwrap() error { return &e.APIError }

// ValidationError is a 422.
type ValidationError struct{ APIError }

// Unwrap returns the embedded *APIError.
func (e *ValidationError) Unwrap() error { return &e.APIError }

// RateLimitError is a 429. RetryAfter is what the response's Retry-After header asked for,
// valid only when HasRetryAfter is true (Python's retry_after: float | None).
type RateLimitError struct {
	APIError
	RetryAfter    time.Duration
	HasRetryAfter bool
}

// Unwrap returns the embedded *APIError.
func (e *RateLimitError) Unwrap() error { return &e.APIError }

// RetryAfterOr returns RetryAfter when the response gave one and def otherwise, the Go form of
// Python's `exc.retry_after or 30.0`.
func (e *RateLimitError) RetryAfterOr(def time.Duration) time.Duration {
	if e.HasRetryAfter {
		return e.RetryAfter
	}
	return def
}

// ServerError is a 5xx: a server error the SDK does not retry.
type ServerError struct{ APIError }

// Unwrap returns the embedded *APIError.
func (e *ServerError) Unwrap() error { return &e.APIError }

// ErrorForStatus returns the most specific error for a non-2xx status: the exact type for 401,
// 403, 404, 409, 422 and 429, *ServerError for 500–599, and *APIError for any other status.
// A *RateLimitError made here has no Retry-After; FromResponse reads it from the response.
func ErrorForStatus(status int, message string, body []byte) error {
	base := APIError{StatusCode: status, Message: message, Body: body}
	switch {
	case status == 401:
		return &AuthenticationError{base}
	case status == 403:
		return &ForbiddenError{base}
	case status == 404:
		return &NotFoundError{base}
	case status == 409:
		return &ConflictError{base}
	case status == 422:
		return &ValidationError{base}
	case status == 429:
		return &RateLimitError{APIError: base}
	case status >= 500 && status <= 599:
		return &ServerError{base}
	}
	return &base
}

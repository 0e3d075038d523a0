package proxy

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// The error_class values the contract gives a meaning to.
const (
	ClassRunTokenExpired         = "run_token_expired"
	ClassRunTokenInvalid         = "run_token_invalid"
	ClassRunTokenRejected        = "run_token_rejected"
	ClassLockContention          = "lock_contention"
	ClassContextStoreUnavailable = "context_store_unavailable"
	ClassTraceSequenceContended  = "trace_sequence_contended"
)

// ProxyCallError is a failed proxy call: an HTTP 4xx or 5xx reply (Status, with the platform's
// ErrorClass and Message from {"detail": {"error_class", "message"}}), a failure to get a
// reply at all (Status 0, Err set), or a 2xx reply that is not JSON.
type ProxyCallError struct {
	Tool       string // the tool that was called
	Status     int    // the HTTP status; 0 when no reply came back
	ErrorClass string // detail.error_class, or "" when the body has none
	Message    string // detail.message, a string detail, or what went wrong
	Body       []byte // the reply body as received
	Attempts   int    // how many requests were sent
	TimedOut   bool   // the per-attempt timeout expired
	Err        error  // the transport's error when Status is 0
}

func (e *ProxyCallError) Error() string {
	var b strings.Builder
	b.WriteString("proxy call " + e.Tool + ": ")
	if e.Status != 0 {
		b.WriteString("HTTP " + strconv.Itoa(e.Status))
		if e.ErrorClass != "" {
			b.WriteString(" " + e.ErrorClass)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap returns the transport's error, if any, so errors.Is finds context.DeadlineExceeded
// or context.Canceled.
func (e *ProxyCallError) Unwrap() error { return e.Err }

// StaleRunTokenError is a 401 whose error_class says the run has closed (run_token_expired,
// run_token_invalid or run_token_rejected): no later call with this token can succeed.
type StaleRunTokenError struct{ ProxyCallError }

// Unwrap returns the embedded *ProxyCallError.
func (e *StaleRunTokenError) Unwrap() error { return &e.ProxyCallError }

// IsStaleRunToken reports whether err is, or wraps, a *StaleRunTokenError.
func IsStaleRunToken(err error) bool {
	var stale *StaleRunTokenError
	return errors.As(err, &stale)
}

// Retryable reports whether err is a transient condition the client retries: HTTP 429, or
// HTTP 503 with error_class lock_contention, context_store_unavailable or
// trace_sequence_contended. Everything else is terminal.
func Retryable(err error) bool {
	var pe *ProxyCallError
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Status {
	case http.StatusTooManyRequests:
		return true
	case http.StatusServiceUnavailable:
		switch pe.ErrorClass {
		case ClassLockContention, ClassContextStoreUnavailable, ClassTraceSequenceContended:
			return true
		}
	}
	return false
}

// statusError makes the error for a 4xx or 5xx reply.
func statusError(tool string, status int, body []byte) error {
	class, msg := parseDetail(body)
	if msg == "" {
		msg = http.StatusText(status)
	}
	if msg == "" {
		msg = "unexpected status"
	}
	pe := ProxyCallError{Tool: tool, Status: status, ErrorClass: class, Message: msg, Body: body}
	if status == http.StatusUnauthorized {
		switch class {
		case ClassRunTokenExpired, ClassRunTokenInvalid, ClassRunTokenRejected:
			return &StaleRunTokenError{pe}
		}
	}
	return &pe
}

// parseDetail reads {"detail": {"error_class": …, "message": …}}, or {"detail": "text"}.
func parseDetail(body []byte) (class, msg string) {
	var doc struct {
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &doc) != nil || len(doc.Detail) == 0 {
		return "", ""
	}
	var text string
	if json.Unmarshal(doc.Detail, &text) == nil {
		return "", text
	}
	var d struct {
		ErrorClass any `json:"error_class"`
		Message    any `json:"message"`
	}
	if json.Unmarshal(doc.Detail, &d) != nil {
		return "", ""
	}
	class, _ = d.ErrorClass.(string)
	msg, _ = d.Message.(string)
	return class, msg
}

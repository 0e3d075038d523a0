package apierror

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// FromResponse returns the error for a non-2xx response whose body has already been read, or
// nil for a 2xx. The message comes from the body (MessageFromBody); a 429 also gets the
// Retry-After header, read against now (ParseRetryAfter).
func FromResponse(resp *http.Response, body []byte, now time.Time) error {
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		return nil
	}
	err := ErrorForStatus(resp.StatusCode, MessageFromBody(resp.StatusCode, body), body)
	if rl, ok := err.(*RateLimitError); ok {
		rl.RetryAfter, rl.HasRetryAfter = ParseRetryAfter(resp.Header.Get("Retry-After"), now)
	}
	return err
}

// MessageFromBody finds the reason in an error body. It tries, in order: "detail" as a string
// (FastAPI's form), "detail.message", "message", and "error.message"; then a short non-JSON body
// as text; and falls back to the status text, so the message is never empty.
func MessageFromBody(status int, body []byte) string {
	var doc struct {
		Detail  json.RawMessage `json:"detail"`
		Message *string         `json:"message"`
		Error   *struct {
			Message *string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &doc) == nil {
		var s string
		var nested struct {
			Message *string `json:"message"`
		}
		switch {
		case json.Unmarshal(doc.Detail, &s) == nil && s != "":
			return s
		case json.Unmarshal(doc.Detail, &nested) == nil && nested.Message != nil && *nested.Message != "":
			return *nested.Message
		case doc.Message != nil && *doc.Message != "":
			return *doc.Message
		case doc.Error != nil && doc.Error.Message != nil && *doc.Error.Message != "":
			return *doc.Error.Message
		}
	} else if text := strings.TrimSpace(string(body)); text != "" && len(text) <= 200 && !json.Valid(body) {
		return text
	}
	if text := http.StatusText(status); text != "" {
		return text
	}
	return "HTTP " + strconv.Itoa(status)
}

// ParseRetryAfter reads a Retry-After value (RFC 9110 §10.2.3): a number of seconds (a
// fraction is accepted, as the SDK reads it as a float) or an HTTP date, taken relative to now
// and never negative. It reports false for an absent or unreadable value.
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(value, 64); err == nil {
		if math.IsNaN(secs) || math.IsInf(secs, 0) || secs < 0 || secs > math.MaxInt64/float64(time.Second) {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	if at, err := http.ParseTime(value); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}

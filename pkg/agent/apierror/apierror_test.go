package apierror_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/agent/apierror"
)

func TestErrorForStatus(t *testing.T) {
	tests := []struct {
		name   string
		status int
		want   any // a nil pointer of the expected type
	}{
		{"400 is the base APIError", 400, (*apierror.APIError)(nil)},
		{"401 authentication", 401, (*apierror.AuthenticationError)(nil)},
		{"402 is the base APIError", 402, (*apierror.APIError)(nil)},
		{"403 forbidden", 403, (*apierror.ForbiddenError)(nil)},
		{"404 not found", 404, (*apierror.NotFoundError)(nil)},
		{"409 conflict", 409, (*apierror.ConflictError)(nil)},
		{"410 is the base APIError", 410, (*apierror.APIError)(nil)},
		{"422 validation", 422, (*apierror.ValidationError)(nil)},
		{"429 rate limit", 429, (*apierror.RateLimitError)(nil)},
		{"499 is the base APIError", 499, (*apierror.APIError)(nil)},
		{"500 server", 500, (*apierror.ServerError)(nil)},
		{"503 server", 503, (*apierror.ServerError)(nil)},
		{"599 server", 599, (*apierror.ServerError)(nil)},
		{"600 is the base APIError", 600, (*apierror.APIError)(nil)},
		{"302 is the base APIError", 302, (*apierror.APIError)(nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := apierror.ErrorForStatus(tt.status, "why", []byte(`{"x":1}`))
			assert.Equal(t, reflect.TypeOf(tt.want), reflect.TypeOf(err))
			assert.Equal(t, fmt.Sprintf("Dystopic API error %d: why", tt.status), err.Error())

			var api *apierror.APIError
			require.True(t, errors.As(err, &api), "every API error is an *APIError")
			assert.Equal(t, tt.status, api.StatusCode)
			assert.Equal(t, "why", api.Message)
			assert.Equal(t, `{"x":1}`, string(api.Body))

			assert.ErrorIs(t, err, apierror.ErrDystopic)
			var base apierror.Error
			assert.True(t, errors.As(err, &base))
		})
	}
}

func TestSpecificTypesDoNotMatchEachOther(t *testing.T) {
	err := apierror.ErrorForStatus(404, "no such run", nil)
	var nf *apierror.NotFoundError
	var auth *apierror.AuthenticationError
	var rl *apierror.RateLimitError
	var srv *apierror.ServerError
	assert.True(t, errors.As(err, &nf))
	assert.False(t, errors.As(err, &auth))
	assert.False(t, errors.As(err, &rl))
	assert.False(t, errors.As(err, &srv))

	wrapped := fmt.Errorf("create review: %w", err)
	require.True(t, errors.As(wrapped, &nf))
	assert.Equal(t, 404, nf.StatusCode, "the embedded APIError's fields are promoted")
}

func TestTimeoutAndConnectionErrors(t *testing.T) {
	timeout := &apierror.TimeoutError{Op: "wait for review 42", After: 30 * time.Second}
	assert.Equal(t, "dystopic: wait for review 42: timed out after 30s", timeout.Error())
	assert.ErrorIs(t, timeout, apierror.ErrDystopic)
	var api *apierror.APIError
	assert.False(t, errors.As(timeout, &api), "a timeout is not an API error")

	conn := &apierror.ConnectionError{URL: "https://api.example/v1/runs", Err: context.DeadlineExceeded}
	assert.Equal(t, "dystopic: cannot connect to https://api.example/v1/runs: context deadline exceeded", conn.Error())
	assert.ErrorIs(t, conn, apierror.ErrDystopic)
	assert.ErrorIs(t, conn, context.DeadlineExceeded)
	assert.False(t, errors.As(conn, &api))
	var base apierror.Error
	require.True(t, errors.As(fmt.Errorf("export: %w", conn), &base))
	assert.Same(t, conn, base)
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		value string
		want  time.Duration
		ok    bool
	}{
		{"absent", "", 0, false},
		{"whole seconds", "30", 30 * time.Second, true},
		{"fractional seconds", "1.5", 1500 * time.Millisecond, true},
		{"zero", "0", 0, true},
		{"spaces around", "  7 ", 7 * time.Second, true},
		{"negative", "-3", 0, false},
		{"NaN", "NaN", 0, false},
		{"infinite", "Inf", 0, false},
		{"huge", "1e300", 0, false},
		{"HTTP date in the future", "Wed, 01 Apr 2026 12:00:45 GMT", 45 * time.Second, true},
		{"HTTP date in the past", "Wed, 01 Apr 2026 11:00:00 GMT", 0, true},
		{"garbage", "soon", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := apierror.ParseRetryAfter(tt.value, now)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestMessageFromBody(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"detail string", 404, `{"detail":"Run not found"}`, "Run not found"},
		{"detail object", 401, `{"detail":{"error_class":"bad_key","message":"API key revoked"}}`, "API key revoked"},
		{"message", 409, `{"message":"idempotency key reused"}`, "idempotency key reused"},
		{"error.message", 422, `{"error":{"message":"name is required"}}`, "name is required"},
		{"detail list falls back to status text", 422, `{"detail":[{"loc":["body"],"msg":"x"}]}`, "Unprocessable Entity"},
		{"empty body", 500, ``, "Internal Server Error"},
		{"plain text body", 502, "upstream went away\n", "upstream went away"},
		{"JSON that is not an object", 500, `[1,2]`, "Internal Server Error"},
		{"unknown status, empty body", 599, ``, "HTTP 599"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, apierror.MessageFromBody(tt.status, []byte(tt.body)))
		})
	}
}

func TestFromResponse(t *testing.T) {
	now := time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)
	resp := func(status int, retryAfter string) *http.Response {
		r := &http.Response{StatusCode: status, Header: http.Header{}}
		if retryAfter != "" {
			r.Header.Set("Retry-After", retryAfter)
		}
		return r
	}
	assert.NoError(t, apierror.FromResponse(resp(204, ""), nil, now))

	err := apierror.FromResponse(resp(429, "12"), []byte(`{"detail":"slow down"}`), now)
	var rl *apierror.RateLimitError
	require.True(t, errors.As(err, &rl))
	assert.Equal(t, "Dystopic API error 429: slow down", err.Error())
	assert.True(t, rl.HasRetryAfter)
	assert.Equal(t, 12*time.Second, rl.RetryAfterOr(30*time.Second))

	err = apierror.FromResponse(resp(429, ""), nil, now)
	require.True(t, errors.As(err, &rl))
	assert.False(t, rl.HasRetryAfter)
	assert.Equal(t, 30*time.Second, rl.RetryAfterOr(30*time.Second))

	err = apierror.FromResponse(resp(503, "12"), nil, now)
	var srv *apierror.ServerError
	assert.True(t, errors.As(err, &srv), "Retry-After on other statuses changes nothing")
}

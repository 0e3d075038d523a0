package proxy_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/refused"
	"github.com/dystopic/normalizer/pkg/agent/proxy"
	"github.com/dystopic/normalizer/pkg/agent/proxy/proxytest"
)

func TestCallReturnsTheResponse(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("get_order", proxytest.Reply(map[string]any{"status": "shipped", "shipped_at": "2026-04-01"}))

	got, err := fake.Client().Call(context.Background(), "get_order", map[string]string{"order_id": "4521"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"status":"shipped","shipped_at":"2026-04-01"}`, string(got))

	reqs := fake.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "get_order", reqs[0].Tool)
	assert.Equal(t, `{"order_id":"4521"}`, string(reqs[0].Body))
	assert.Equal(t, "Bearer "+proxytest.DefaultToken, reqs[0].Header.Get("Authorization"))
	assert.Equal(t, "application/json", reqs[0].Header.Get("Content-Type"))
	assert.False(t, reqs[0].HasActor)
	assert.Empty(t, fake.Waits())
}

func TestCallReplyDecodesTheEnvelope(t *testing.T) {
	rule := 2
	tests := []struct {
		name       string
		step       proxytest.Step
		source     proxy.Source
		rule       *int
		validation string
	}{
		{"odyssey", proxytest.Envelope(map[string]int{"n": 1}, proxy.SourceOdyssey, nil, json.RawMessage(`{"valid":true}`)), proxy.SourceOdyssey, nil, `{"valid":true}`},
		{"odyssey without validation", proxytest.Reply(map[string]int{"n": 1}), proxy.SourceOdyssey, nil, ""},
		{"injected", proxytest.Injected(map[string]int{"n": 1}, 2), proxy.SourceInjected, &rule, ""},
		{"passthrough", proxytest.Envelope(map[string]int{"n": 1}, proxy.SourcePassthrough, nil, nil), proxy.SourcePassthrough, nil, ""},
		{"transport_error", proxytest.Envelope(map[string]int{"n": 1}, proxy.SourceTransportError, nil, nil), proxy.SourceTransportError, nil, ""},
		{"unknown source kept", proxytest.Envelope(map[string]int{"n": 1}, "cache", nil, nil), "cache", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := proxytest.New(t)
			fake.Respond("t", tt.step)
			r, err := fake.Client().CallReply(context.Background(), "t", nil)
			require.NoError(t, err)
			assert.False(t, r.Legacy)
			assert.Equal(t, "t", r.ToolName)
			assert.Equal(t, `{"n":1}`, string(r.Response))
			assert.Equal(t, tt.source, r.Source)
			assert.Equal(t, tt.source != "cache", r.Source.Known())
			assert.Equal(t, tt.rule, r.MatchedRuleIndex)
			assert.Equal(t, tt.validation, string(r.Validation))
			assert.GreaterOrEqual(t, r.LatencyMS, 0.0)
		})
	}
}

func TestLegacyReplyIsThePayload(t *testing.T) {
	tests := []struct {
		name string
		step proxytest.Step
		want string
	}{
		{"object payload", proxytest.Legacy(map[string]string{"status": "shipped"}), `{"status":"shipped"}`},
		{"array payload", proxytest.Legacy([]int{1, 2}), `[1,2]`},
		{"string payload", proxytest.Legacy("done"), `"done"`},
		{"null payload", proxytest.Raw(200, "application/json", " null\n"), `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := proxytest.New(t)
			fake.Respond("t", tt.step)
			r, err := fake.Client().CallReply(context.Background(), "t", nil)
			require.NoError(t, err)
			assert.True(t, r.Legacy)
			assert.Equal(t, "t", r.ToolName)
			assert.Equal(t, tt.want, string(r.Response))
			assert.Empty(t, r.Source)
		})
	}
}

// An object with a "response" key is the envelope, as the SDK's proxy_call reads it, whatever
// else it carries: response is what the tool body gets.
func TestResponseKeyMakesTheEnvelope(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"response and tool_name only", `{"response":"ok","tool_name":"t"}`, `"ok"`},
		{"response alone", `{"response":{"x":1}}`, `{"x":1}`},
		{"source null", `{"tool_name":"t","response":1,"source":null}`, `1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := proxytest.New(t)
			fake.Respond("t", proxytest.Raw(200, "application/json", tt.body))
			got, err := fake.Client().Call(context.Background(), "t", nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestEnvelopeResponseNullIsKept(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("t", proxytest.Raw(200, "application/json", `{"tool_name":"t","response":null,"source":"odyssey","latency_ms":3.5,"matched_rule_index":null,"validation":null}`))
	r, err := fake.Client().CallReply(context.Background(), "t", nil)
	require.NoError(t, err)
	assert.False(t, r.Legacy)
	assert.Equal(t, "null", string(r.Response))
	assert.Nil(t, r.Validation)
	assert.Equal(t, 3500*time.Microsecond, r.Latency())
}

func TestBadSuccessBodies(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"not JSON", "<html>oops</html>", "the reply is not JSON"},
		{"empty", "", "the reply is not JSON"},
		{"malformed envelope", `{"tool_name":"t","response":1,"source":"odyssey","latency_ms":"fast"}`, "the reply envelope is malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := proxytest.New(t)
			fake.Respond("t", proxytest.Raw(200, "text/html", tt.body))
			_, err := fake.Client().Call(context.Background(), "t", nil)
			var pe *proxy.ProxyCallError
			require.True(t, errors.As(err, &pe), "got %v", err)
			assert.Equal(t, 200, pe.Status)
			assert.Contains(t, pe.Message, tt.want)
			assert.Len(t, fake.Requests(), 1, "not retried")
		})
	}
}

func TestReplyOverTheLimit(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("t", proxytest.Legacy(strings.Repeat("x", 100)))
	_, err := fake.Client(proxy.WithMaxReplyBytes(50)).Call(context.Background(), "t", nil)
	var pe *proxy.ProxyCallError
	require.True(t, errors.As(err, &pe))
	assert.Contains(t, pe.Message, "over the limit of 50 bytes")
}

func TestTerminalStatuses(t *testing.T) {
	tests := []struct {
		name    string
		step    proxytest.Step
		status  int
		class   string
		message string
	}{
		{"400 malformed", proxytest.Fail(400, "malformed_arguments", "order_id is required"), 400, "malformed_arguments", "order_id is required"},
		{"401 without a stale class", proxytest.Fail(401, "run_token_missing", "No run token."), 401, "run_token_missing", "No run token."},
		{"404 run not registered", proxytest.Fail(404, "run_not_registered", "Run not registered."), 404, "run_not_registered", "Run not registered."},
		{"422 invalid arguments", proxytest.Raw(422, "application/json", `{"detail":[{"loc":["body","order_id"],"msg":"field required"}]}`), 422, "", "Unprocessable Entity"},
		{"500 server error", proxytest.Fail(500, "dispatch_failed", "Unhandled exception."), 500, "dispatch_failed", "Unhandled exception."},
		{"500 with a plain body", proxytest.Raw(500, "text/plain", "boom"), 500, "", "Internal Server Error"},
		{"503 with an unrecognised class", proxytest.Fail(503, "maintenance", "Down for maintenance."), 503, "maintenance", "Down for maintenance."},
		{"503 without a class", proxytest.Raw(503, "application/json", `{"detail":"Service Unavailable"}`), 503, "", "Service Unavailable"},
		{"403 with a stale class is not stale", proxytest.Fail(403, "run_token_expired", "Forbidden."), 403, "run_token_expired", "Forbidden."},
		{"502", proxytest.Raw(502, "", ""), 502, "", "Bad Gateway"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := proxytest.New(t)
			fake.Respond("get_order", tt.step)
			_, err := fake.Client().Call(context.Background(), "get_order", map[string]string{"order_id": "1"})
			var pe *proxy.ProxyCallError
			require.True(t, errors.As(err, &pe), "got %v", err)
			assert.Equal(t, tt.status, pe.Status)
			assert.Equal(t, tt.class, pe.ErrorClass)
			assert.Equal(t, tt.message, pe.Message)
			if tt.status == 502 {
				assert.Empty(t, pe.Body)
			} else {
				assert.NotEmpty(t, pe.Body, "the body is kept")
			}
			assert.Equal(t, 1, pe.Attempts)
			assert.False(t, proxy.IsStaleRunToken(err))
			assert.False(t, proxy.Retryable(err))
			assert.Len(t, fake.Requests(), 1, "terminal: no retry")
			assert.Empty(t, fake.Waits())
		})
	}
}

func TestErrorText(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("get_order", proxytest.Fail(404, "run_not_registered", "Run not registered."))
	fake.Respond("busy", proxytest.Fail(429, "rate_limited", "Slow down."))
	c := fake.Client()
	_, err := c.Call(context.Background(), "get_order", nil)
	assert.EqualError(t, err, "proxy call get_order: HTTP 404 run_not_registered: Run not registered.")
	_, err = c.Call(context.Background(), "busy", nil)
	assert.EqualError(t, err, "proxy call busy: HTTP 429 rate_limited: Slow down. (after 4 attempts)")
}

func TestStaleRunToken(t *testing.T) {
	for _, class := range []string{"run_token_expired", "run_token_invalid", "run_token_rejected"} {
		t.Run(class, func(t *testing.T) {
			fake := proxytest.New(t)
			fake.Respond("t", proxytest.Fail(401, class, "The run token has expired."))
			_, err := fake.Client().Call(context.Background(), "t", nil)
			err = fmt.Errorf("tool body: %w", err)

			assert.True(t, proxy.IsStaleRunToken(err))
			var stale *proxy.StaleRunTokenError
			require.True(t, errors.As(err, &stale))
			assert.Equal(t, class, stale.ErrorClass)
			var pe *proxy.ProxyCallError
			require.True(t, errors.As(err, &pe), "a stale-token error is a ProxyCallError too")
			assert.Equal(t, 401, pe.Status)
			assert.Equal(t, 1, pe.Attempts)
			assert.Len(t, fake.Requests(), 1)
		})
	}
	assert.False(t, proxy.IsStaleRunToken(nil))
	assert.False(t, proxy.IsStaleRunToken(errors.New("x")))
}

func TestExpiredTokenMidRun(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("t", proxytest.Reply("ok"))
	c := fake.Client()
	_, err := c.Call(context.Background(), "t", nil)
	require.NoError(t, err)
	fake.ExpireToken("")
	_, err = c.Call(context.Background(), "t", nil)
	assert.True(t, proxy.IsStaleRunToken(err))
	fake.ExpireToken("run_token_rejected")
	_, err = c.Call(context.Background(), "t", nil)
	var stale *proxy.StaleRunTokenError
	require.True(t, errors.As(err, &stale))
	assert.Equal(t, "run_token_rejected", stale.ErrorClass)
}

func TestNetworkFailureIsTerminal(t *testing.T) {
	addr := refused.Addr(t) // bound, never listening: connecting is refused

	var waits []time.Duration
	c, err := proxy.New("http://"+addr, "tok", proxy.WithTimeout(30*time.Second),
		proxy.WithSleep(func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }))
	require.NoError(t, err)
	_, err = c.Call(context.Background(), "t", nil)
	var pe *proxy.ProxyCallError
	require.True(t, errors.As(err, &pe), "got %v", err)
	assert.Equal(t, 0, pe.Status)
	assert.Equal(t, 1, pe.Attempts)
	assert.Error(t, pe.Err)
	assert.False(t, pe.TimedOut)
	assert.Contains(t, pe.Error(), "proxy call t: no reply: ")
	assert.Empty(t, waits)
}

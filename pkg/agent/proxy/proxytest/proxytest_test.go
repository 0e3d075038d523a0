package proxytest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/agent/proxy"
	"github.com/dystopic/normalizer/pkg/agent/proxy/proxytest"
)

// recordingTB collects the failures the fake reports instead of failing the test, so the
// checks themselves can be tested.
type recordingTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (tb *recordingTB) Errorf(format string, args ...any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.errors = append(tb.errors, fmt.Sprintf(format, args...))
}

func (tb *recordingTB) failures() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.errors...)
}

func TestViolations(t *testing.T) {
	good := func(r *http.Request) {
		r.Header.Set("Authorization", "Bearer "+proxytest.DefaultToken)
		r.Header.Set("Content-Type", "application/json")
	}
	tests := []struct {
		name   string
		method string
		path   string
		body   string
		header func(*http.Request)
		status int
		class  string
	}{
		{"GET", http.MethodGet, "/tools/t", `{}`, good, 405, "method_not_allowed"},
		{"path outside /tools", http.MethodPost, "/call/t", `{}`, good, 404, "not_found"},
		{"empty tool name", http.MethodPost, "/tools/", `{}`, good, 404, "not_found"},
		{"nested path", http.MethodPost, "/tools/a/b", `{}`, good, 404, "not_found"},
		{"query string", http.MethodPost, "/tools/t?x=1", `{}`, good, 404, "not_found"},
		{"no token", http.MethodPost, "/tools/t", `{}`, func(r *http.Request) { r.Header.Set("Content-Type", "application/json") }, 401, "run_token_missing"},
		{"wrong token", http.MethodPost, "/tools/t", `{}`, func(r *http.Request) { good(r); r.Header.Set("Authorization", "Bearer other") }, 401, "run_token_invalid"},
		{"lower-case scheme", http.MethodPost, "/tools/t", `{}`, func(r *http.Request) { good(r); r.Header.Set("Authorization", "bearer "+proxytest.DefaultToken) }, 401, "run_token_invalid"},
		{"no content type", http.MethodPost, "/tools/t", `{}`, func(r *http.Request) { good(r); r.Header.Del("Content-Type") }, 400, "malformed_request"},
		{"text content type", http.MethodPost, "/tools/t", `{}`, func(r *http.Request) { good(r); r.Header.Set("Content-Type", "text/plain") }, 400, "malformed_request"},
		{"array body", http.MethodPost, "/tools/t", `[1]`, good, 400, "malformed_arguments"},
		{"invalid body", http.MethodPost, "/tools/t", `{"a":`, good, 400, "malformed_arguments"},
		{"empty body", http.MethodPost, "/tools/t", ``, good, 400, "malformed_arguments"},
		{"empty actor header", http.MethodPost, "/tools/t", `{}`, func(r *http.Request) { good(r); r.Header.Set(proxy.ActorHeader, "") }, 400, "malformed_request"},
		{"two actor headers", http.MethodPost, "/tools/t", `{}`, func(r *http.Request) {
			good(r)
			r.Header.Add(proxy.ActorHeader, "a")
			r.Header.Add(proxy.ActorHeader, "b")
		}, 400, "malformed_request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &recordingTB{TB: t}
			fake := proxytest.New(tb)
			fake.Respond("t", proxytest.Reply("ok"))
			req, err := http.NewRequest(tt.method, fake.URL+tt.path, strings.NewReader(tt.body))
			require.NoError(t, err)
			tt.header(req)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()

			assert.Equal(t, tt.status, resp.StatusCode)
			var doc struct {
				Detail struct {
					ErrorClass string `json:"error_class"`
				} `json:"detail"`
			}
			require.NoError(t, json.Unmarshal(body, &doc))
			assert.Equal(t, tt.class, doc.Detail.ErrorClass)
			assert.Len(t, fake.Violations(), 1)
			require.Len(t, tb.failures(), 1, "the test is failed")
			assert.Contains(t, tb.failures()[0], "proxytest: contract violation")
			assert.Len(t, fake.Requests(), 1, "violating requests are recorded too")
		})
	}
}

func TestConformingRequestsPass(t *testing.T) {
	tb := &recordingTB{TB: t}
	fake := proxytest.New(tb)
	fake.Respond("t", proxytest.Reply("ok"))
	for _, ct := range []string{"application/json", "application/json; charset=utf-8"} {
		req, err := http.NewRequest(http.MethodPost, fake.URL+"/tools/t", strings.NewReader(` {"a":1} `))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+proxytest.DefaultToken)
		req.Header.Set("Content-Type", ct)
		req.Header.Set(proxy.ActorHeader, "planner")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode)
	}
	assert.Empty(t, fake.Violations())
	assert.Empty(t, tb.failures())
}

func TestScriptThenRespond(t *testing.T) {
	fake := proxytest.New(t)
	fake.Script("t", proxytest.Reply(1), proxytest.Legacy(2))
	fake.Respond("t", proxytest.Reply(3))
	c := fake.Client()
	var got []string
	for range 4 {
		r, err := c.Call(context.Background(), "t", nil)
		require.NoError(t, err)
		got = append(got, string(r))
	}
	assert.Equal(t, []string{"1", "2", "3", "3"}, got)
}

func TestUnscriptedTool(t *testing.T) {
	fake := proxytest.New(t)
	_, err := fake.Client().Call(context.Background(), "nope", nil)
	var pe *proxy.ProxyCallError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 400, pe.Status)
	assert.Equal(t, "unknown_tool", pe.ErrorClass)
	assert.Empty(t, fake.Violations(), "an unscripted tool is not a contract violation")
}

func TestWithToken(t *testing.T) {
	fake := proxytest.New(t, proxytest.WithToken("custom"))
	fake.Respond("t", proxytest.Reply("ok"))
	assert.Equal(t, "custom", fake.RunEnv().RunToken)
	_, err := fake.Client().Call(context.Background(), "t", nil)
	require.NoError(t, err)
}

// TestDelayEndsWhenTheTestEnds checks that a delayed answer does not hold the server open.
func TestDelayEndsWhenTheTestEnds(t *testing.T) {
	var fake *proxytest.Server
	t.Run("inner", func(t *testing.T) {
		fake = proxytest.New(t)
		fake.Respond("t", proxytest.Reply("ok").After(time.Hour))
		go func() {
			_, _ = fake.Client().Call(context.Background(), "t", nil, proxy.NoRetry())
		}()
		require.Eventually(t, func() bool { return len(fake.Requests()) == 1 }, 30*time.Second, 5*time.Millisecond)
	}) // Cleanup closes the server; it must not wait an hour.
	assert.Len(t, fake.Requests(), 1)
}

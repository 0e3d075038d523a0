package proxy_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/agent/proxy"
	"github.com/dystopic/normalizer/pkg/agent/proxy/proxytest"
	"github.com/dystopic/normalizer/pkg/agent/runenv"
)

func TestArguments(t *testing.T) {
	type order struct {
		OrderID string `json:"order_id"`
		Note    string `json:"note,omitempty"`
	}
	tests := []struct {
		name string
		args any
		want string
	}{
		{"nil sends an empty object", nil, `{}`},
		{"map", map[string]any{"b": 2, "a": "x"}, `{"a":"x","b":2}`},
		{"struct", order{OrderID: "4521"}, `{"order_id":"4521"}`},
		{"pointer to struct", &order{OrderID: "1", Note: "<fragile> & heavy"}, `{"order_id":"1","note":"<fragile> & heavy"}`},
		{"raw message is compacted, numbers kept", json.RawMessage(" {\n\"n\": 2.50, \"big\": 123456789012345678901234 }"), `{"n":2.50,"big":123456789012345678901234}`},
		{"bytes", []byte(`{"k":[1, 2]}`), `{"k":[1,2]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := proxytest.New(t)
			fake.Respond("t", proxytest.Reply("ok"))
			_, err := fake.Client().Call(context.Background(), "t", tt.args)
			require.NoError(t, err)
			require.Len(t, fake.Requests(), 1)
			assert.Equal(t, tt.want, string(fake.Requests()[0].Body))
		})
	}
}

func TestBadArgumentsAreNotSent(t *testing.T) {
	tests := []struct {
		name string
		args any
		want string
	}{
		{"array", []int{1}, "arguments are an array; expected a JSON object"},
		{"string", "order 4521", "arguments are a string; expected a JSON object"},
		{"number", 42, "arguments are a number; expected a JSON object"},
		{"raw null", json.RawMessage("null"), "arguments are null; expected a JSON object"},
		{"raw invalid", json.RawMessage(`{"a":`), "arguments are not valid JSON"},
		{"raw empty", []byte{}, "arguments are not valid JSON"},
		{"unencodable", map[string]any{"f": func() {}}, "encode arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := proxytest.New(t)
			_, err := fake.Client().Call(context.Background(), "get_order", tt.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "proxy call get_order: "+tt.want)
			var pe *proxy.ProxyCallError
			assert.False(t, errors.As(err, &pe), "nothing was sent: not a ProxyCallError")
			assert.Empty(t, fake.Requests())
		})
	}
}

func TestToolNames(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("get order/v2?x", proxytest.Reply("ok"))
	_, err := fake.Client().Call(context.Background(), "get order/v2?x", nil)
	require.NoError(t, err, "the name is escaped into one path segment")
	assert.Equal(t, "get order/v2?x", fake.Requests()[0].Tool)

	_, err = fake.Client().Call(context.Background(), "", nil)
	assert.EqualError(t, err, "proxy call: the tool name is empty")
}

func TestTrailingSlashInProxyURL(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("t", proxytest.Reply("ok"))
	c, err := proxy.New(fake.URL+"//", fake.Token, proxy.WithTimeout(30*time.Second))
	require.NoError(t, err)
	_, err = c.Call(context.Background(), "t", nil)
	require.NoError(t, err)
}

func TestNew(t *testing.T) {
	noEnv := proxy.WithLookupEnv(func(string) (string, bool) { return "", false })
	env := func(v string) proxy.Option {
		return proxy.WithLookupEnv(func(k string) (string, bool) { return v, k == "DYSTOPIC_PROXY_TIMEOUT_S" })
	}
	tests := []struct {
		name    string
		url     string
		token   string
		opts    []proxy.Option
		timeout time.Duration
		err     string
	}{
		{name: "default timeout", url: "http://127.0.0.1:1", token: "t", opts: []proxy.Option{noEnv}, timeout: 120 * time.Second},
		{name: "timeout from the environment", url: "http://127.0.0.1:1", token: "t", opts: []proxy.Option{env("2.5")}, timeout: 2500 * time.Millisecond},
		{name: "WithTimeout wins over the environment", url: "http://127.0.0.1:1", token: "t", opts: []proxy.Option{env("2.5"), proxy.WithTimeout(time.Second)}, timeout: time.Second},
		{name: "WithTimeout ignores a bad environment", url: "http://127.0.0.1:1", token: "t", opts: []proxy.Option{env("soon"), proxy.WithTimeout(time.Second)}, timeout: time.Second},
		{name: "bad timeout in the environment", url: "http://127.0.0.1:1", token: "t", opts: []proxy.Option{env("30s")}, err: `proxy: run context: environment variable DYSTOPIC_PROXY_TIMEOUT_S="30s" is invalid`},
		{name: "relative URL", url: "/tools", token: "t", err: `proxy: proxy URL "/tools" is not usable`},
		{name: "URL with a query", url: "http://h/?a=b", token: "t", err: `is not usable`},
		{name: "empty token", url: "http://127.0.0.1:1", token: "", err: "proxy: the run token is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := proxy.New(tt.url, tt.token, tt.opts...)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.timeout, c.Timeout())
		})
	}
}

func TestFromEnv(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("t", proxytest.Reply("ok"))
	vars := map[string]string{
		"DYSTOPIC_ODYSSEY_PROXY_URL": fake.URL,
		"DYSTOPIC_RUN_TOKEN":         fake.Token,
		"DYSTOPIC_PROXY_TIMEOUT_S":   "7",
	}
	lookup := proxy.WithLookupEnv(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	c, err := proxy.FromEnv(lookup)
	require.NoError(t, err)
	assert.Equal(t, 7*time.Second, c.Timeout())
	_, err = c.Call(context.Background(), "t", nil)
	require.NoError(t, err)

	delete(vars, "DYSTOPIC_RUN_TOKEN")
	_, err = proxy.FromEnv(lookup)
	var miss *runenv.MissingVarError
	require.True(t, errors.As(err, &miss))
	assert.Equal(t, "DYSTOPIC_RUN_TOKEN", miss.Name)

	c, err = proxy.FromRunEnv(fake.RunEnv(), proxy.WithTimeout(30*time.Second))
	require.NoError(t, err)
	_, err = c.Call(context.Background(), "t", nil)
	require.NoError(t, err)
}

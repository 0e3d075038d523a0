package proxy_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/agent/proxy"
	"github.com/dystopic/normalizer/pkg/agent/proxy/proxytest"
)

func TestActorHeader(t *testing.T) {
	tests := []struct {
		name   string
		client func(*proxy.Client) *proxy.Client
		ctx    func() context.Context
		want   string // "" for no header at all
	}{
		{"unscoped", func(c *proxy.Client) *proxy.Client { return c }, context.Background, ""},
		{"scoped client", func(c *proxy.Client) *proxy.Client { return c.ForActor("researcher") }, context.Background, "researcher"},
		{"context", func(c *proxy.Client) *proxy.Client { return c },
			func() context.Context { return proxy.ContextWithActor(context.Background(), "planner") }, "planner"},
		{"scoped client wins over the context", func(c *proxy.Client) *proxy.Client { return c.ForActor("researcher") },
			func() context.Context { return proxy.ContextWithActor(context.Background(), "planner") }, "researcher"},
		{"empty scope falls back to the context", func(c *proxy.Client) *proxy.Client { return c.ForActor("x").ForActor("") },
			func() context.Context { return proxy.ContextWithActor(context.Background(), "planner") }, "planner"},
		{"empty context actor unbinds an outer one", func(c *proxy.Client) *proxy.Client { return c },
			func() context.Context {
				return proxy.ContextWithActor(proxy.ContextWithActor(context.Background(), "planner"), "")
			}, ""},
		{"non-ASCII label", func(c *proxy.Client) *proxy.Client { return c.ForActor("agent-é") }, context.Background, "agent-é"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := proxytest.New(t)
			fake.Respond("lookup", proxytest.Reply("ok"))
			args := map[string]string{"actor_id": "customer-7"} // a tool's own argument
			_, err := tt.client(fake.Client()).Call(tt.ctx(), "lookup", args)
			require.NoError(t, err)
			reqs := fake.Requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, tt.want != "", reqs[0].HasActor)
			assert.Equal(t, tt.want, reqs[0].Actor)
			assert.Equal(t, `{"actor_id":"customer-7"}`, string(reqs[0].Body), "attribution never touches the body")
		})
	}
}

func TestForActorLeavesTheReceiverAlone(t *testing.T) {
	fake := proxytest.New(t)
	base := fake.Client()
	scoped := base.ForActor("a")
	assert.Equal(t, "", base.Actor())
	assert.Equal(t, "a", scoped.Actor())
	assert.Equal(t, "a", proxy.ActorFromContext(proxy.ContextWithActor(context.Background(), "a")))
	assert.Equal(t, "", proxy.ActorFromContext(context.Background()))
}

func TestBadActorIsNotSent(t *testing.T) {
	for _, actor := range []string{"a\r\nX-Evil: 1", " padded", "padded ", "tab\there", "del\x7f"} {
		t.Run(actor, func(t *testing.T) {
			fake := proxytest.New(t)
			_, err := fake.Client().ForActor(actor).Call(context.Background(), "t", nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "X-Pipelines-Actor-Id")
			assert.Empty(t, fake.Requests())
		})
	}
}

// rawServer answers every request with a fixed envelope and hands over the exact bytes of each
// request it read.
func rawServer(t *testing.T) (string, <-chan []byte) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	got := make(chan []byte, 16)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveRaw(conn, got)
		}
	}()
	return "http://" + ln.Addr().String(), got
}

func serveRaw(conn net.Conn, got chan<- []byte) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	var raw bytes.Buffer
	req, err := http.ReadRequest(bufio.NewReader(io.TeeReader(conn, &raw)))
	if err != nil {
		return
	}
	if _, err := io.ReadAll(req.Body); err != nil {
		return
	}
	got <- raw.Bytes()
	body := `{"tool_name":"get_order","response":{"ok":true},"source":"odyssey","latency_ms":1,"matched_rule_index":null,"validation":null}`
	_, _ = io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "+
		strconv.Itoa(len(body))+"\r\n\r\n"+body)
}

func TestRequestBytes(t *testing.T) {
	url, got := rawServer(t)
	c, err := proxy.New(url, "tok-123", proxy.WithTimeout(30*time.Second))
	require.NoError(t, err)
	call := func(c *proxy.Client, ctx context.Context) []byte {
		t.Helper()
		_, err := c.Call(ctx, "get_order", map[string]string{"order_id": "4521"})
		require.NoError(t, err)
		return <-got
	}
	ctx := context.Background()
	single := call(c, ctx)
	host := strings.TrimPrefix(url, "http://")
	assert.Equal(t, "POST /tools/get_order HTTP/1.1\r\n"+
		"Host: "+host+"\r\n"+
		"User-Agent: Go-http-client/1.1\r\n"+
		"Content-Length: 19\r\n"+
		"Authorization: Bearer tok-123\r\n"+
		"Content-Type: application/json\r\n"+
		"Accept-Encoding: gzip\r\n"+
		"\r\n"+
		`{"order_id":"4521"}`, string(single))

	// Without an actor, every way of calling sends the single-agent bytes.
	assert.Equal(t, single, call(c.ForActor(""), ctx), "empty scope")
	assert.Equal(t, single, call(c.ForActor("x").ForActor(""), ctx), "scope removed")
	assert.Equal(t, single, call(c, proxy.ContextWithActor(ctx, "")), "empty context actor")

	// With one, the only difference is the header line.
	line := "X-Pipelines-Actor-Id: researcher\r\n"
	for name, scoped := range map[string][]byte{
		"scoped":  call(c.ForActor("researcher"), ctx),
		"context": call(c, proxy.ContextWithActor(ctx, "researcher")),
	} {
		assert.Equal(t, 1, strings.Count(string(scoped), line), name)
		assert.Equal(t, string(single), strings.Replace(string(scoped), line, "", 1), name)
	}
}

// Package proxy calls the per-run Odyssey proxy: the Go side of the SDK's proxy_call. Every
// ported tool body becomes one call, POST {proxy_url}/tools/{tool_name} with the run token and
// the tool's arguments as a JSON object, and gets back the tool's response.
//
// # Attribution
//
// In a multi-agent run, the acting sub-agent is named in the X-Pipelines-Actor-Id header, never
// in the body. Bind it with Client.ForActor (a scoped client) or ContextWithActor (per call);
// a scoped client wins over the context, because it is the more deliberate of the two. With no
// actor bound, the request is byte for byte the single-agent one.
//
// # Errors and retries
//
// A 4xx or 5xx reply, or a failure to get one, is a *ProxyCallError; a 401 whose error_class
// says the run has closed is a *StaleRunTokenError, which also matches *ProxyCallError with
// errors.As. Only 429, and 503 with error_class lock_contention, context_store_unavailable or
// trace_sequence_contended, are retried: at most MaxAttempts attempts, waiting Backoff between
// them. Everything else, network failures and timeouts included, is returned at once.
package proxy

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/dystopic/normalizer/pkg/agent/runenv"
)

// ActorHeader carries the acting sub-agent's label.
const ActorHeader = "X-Pipelines-Actor-Id"

// DefaultMaxReplyBytes bounds the reply body a call reads.
const DefaultMaxReplyBytes = 64 << 20

// Client calls one run's proxy. It is safe for concurrent use; ForActor returns a scoped copy
// and leaves the receiver as it was.
type Client struct {
	base     string // the proxy URL without trailing slashes
	token    string
	actor    string
	httpc    *http.Client
	timeout  time.Duration
	sleep    func(context.Context, time.Duration) error
	random   func() float64
	maxReply int64
}

type config struct {
	httpc    *http.Client
	timeout  *time.Duration
	sleep    func(context.Context, time.Duration) error
	random   func() float64
	lookup   runenv.LookupFunc
	maxReply int64
}

// Option configures a Client.
type Option func(*config)

// WithHTTPClient sends requests through hc instead of a client of its own. Leave hc.Timeout at
// zero: the call's timeout is applied per attempt through the request context.
func WithHTTPClient(hc *http.Client) Option { return func(c *config) { c.httpc = hc } }

// WithTimeout sets the default per-attempt timeout, instead of DYSTOPIC_PROXY_TIMEOUT_S.
// Zero or less means no timeout beyond the caller's context.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = &d } }

// WithSleep replaces the wait between attempts. sleep must return ctx.Err() if ctx ends first.
// Tests use it to record the waits instead of sleeping.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *config) { c.sleep = sleep }
}

// WithRand replaces the source of jitter, a function returning a number in [0, 1).
func WithRand(random func() float64) Option { return func(c *config) { c.random = random } }

// WithLookupEnv reads the environment through lookup instead of os.LookupEnv.
func WithLookupEnv(lookup runenv.LookupFunc) Option { return func(c *config) { c.lookup = lookup } }

// WithMaxReplyBytes bounds the reply body; a longer one fails the call. The default is
// DefaultMaxReplyBytes.
func WithMaxReplyBytes(n int64) Option { return func(c *config) { c.maxReply = n } }

// New returns a client for the proxy at proxyURL, authorized by runToken. Unless WithTimeout is
// given, the timeout comes from DYSTOPIC_PROXY_TIMEOUT_S (runenv.ProxyTimeout: 120 s when unset,
// an error when set to something that is not a positive number of seconds).
func New(proxyURL, runToken string, opts ...Option) (*Client, error) {
	cfg := config{lookup: os.LookupEnv, maxReply: DefaultMaxReplyBytes}
	for _, o := range opts {
		o(&cfg)
	}
	return newClient(proxyURL, runToken, cfg)
}

// FromEnv returns a client for the run context in the environment (runenv.FromLookup).
func FromEnv(opts ...Option) (*Client, error) {
	cfg := config{lookup: os.LookupEnv, maxReply: DefaultMaxReplyBytes}
	for _, o := range opts {
		o(&cfg)
	}
	env, err := runenv.FromLookup(cfg.lookup)
	if err != nil {
		return nil, err
	}
	return newClient(env.ProxyURL, env.RunToken, cfg)
}

// FromRunEnv returns a client for the run context env, the Go side of proxy_call_with(envelope).
func FromRunEnv(env runenv.Env, opts ...Option) (*Client, error) {
	return New(env.ProxyURL, env.RunToken, opts...)
}

func newClient(proxyURL, runToken string, cfg config) (*Client, error) {
	u, err := url.Parse(proxyURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("proxy: proxy URL %q is not usable; expected an absolute http(s) URL without query or fragment, such as http://127.0.0.1:8700", proxyURL)
	}
	if runToken == "" {
		return nil, errors.New("proxy: the run token is empty; expected the run's token (DYSTOPIC_RUN_TOKEN)")
	}
	c := &Client{
		base: strings.TrimRight(proxyURL, "/"), token: runToken,
		httpc: cfg.httpc, sleep: cfg.sleep, random: cfg.random, maxReply: cfg.maxReply,
	}
	if cfg.timeout != nil {
		c.timeout = *cfg.timeout
	} else if c.timeout, err = runenv.ProxyTimeout(cfg.lookup); err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	if c.httpc == nil {
		c.httpc = &http.Client{}
	}
	if c.sleep == nil {
		c.sleep = sleepContext
	}
	if c.random == nil {
		c.random = rand.Float64
	}
	if c.maxReply <= 0 {
		c.maxReply = DefaultMaxReplyBytes
	}
	return c, nil
}

// ForActor returns a copy of c whose calls carry actor in the X-Pipelines-Actor-Id header (the
// SDK's ScopedProxy and envelope.for_actor). An empty actor gives an unscoped copy.
func (c *Client) ForActor(actor string) *Client {
	scoped := *c
	scoped.actor = actor
	return &scoped
}

// Actor returns the label c is scoped to, or "".
func (c *Client) Actor() string { return c.actor }

// Timeout returns the default per-attempt timeout of c.
func (c *Client) Timeout() time.Duration { return c.timeout }

type actorKey struct{}

// ContextWithActor returns a context whose proxy calls carry actor, unless made through a
// scoped client (the SDK's set_actor_id). An empty actor unbinds any outer one.
func ContextWithActor(ctx context.Context, actor string) context.Context {
	return context.WithValue(ctx, actorKey{}, actor)
}

// ActorFromContext returns the actor bound to ctx by ContextWithActor, or "".
func ActorFromContext(ctx context.Context) string {
	a, _ := ctx.Value(actorKey{}).(string)
	return a
}

// actorFor picks the actor of one call: the scoped client's, else the context's.
func (c *Client) actorFor(ctx context.Context) string {
	if c.actor != "" {
		return c.actor
	}
	return ActorFromContext(ctx)
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Package proxytest is a fake Odyssey proxy for tests: an httptest server on 127.0.0.1 that
// checks every request against the wire contract and answers from a script.
//
// Every request is checked: method POST, path /tools/{name}, "Authorization: Bearer {token}",
// "Content-Type: application/json", a body that is one JSON object, and at most one
// X-Pipelines-Actor-Id header with a non-empty value. A request that breaks a rule is answered
// as the real proxy would (401, 404, 405 or 400) and recorded as a violation, which fails the
// test through its testing.TB.
//
// Replies are scripted per tool: Script queues replies used once each, in order; Respond sets
// the reply for every later call. A tool with neither gets 400 unknown_tool. ExpireToken makes
// every later call a 401 with a stale-token class, as when the run closes.
package proxytest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dystopic/normalizer/pkg/agent/proxy"
	"github.com/dystopic/normalizer/pkg/agent/runenv"
)

// DefaultToken is the run token a Server accepts unless WithToken says otherwise.
const DefaultToken = "proxytest-run-token"

// Request is one request the server received.
type Request struct {
	Tool     string          // the tool named in the path, unescaped
	Actor    string          // the X-Pipelines-Actor-Id value, "" when absent
	HasActor bool            // whether the header was present at all
	Header   http.Header     // all headers as received
	Body     json.RawMessage // the body as received
}

// Server is a fake proxy. Its methods are safe for concurrent use.
type Server struct {
	URL   string // the proxy URL, http://127.0.0.1:PORT
	Token string // the run token it accepts

	tb   testing.TB
	srv  *httptest.Server
	done chan struct{} // closed when the test ends, to cut delays short

	mu         sync.Mutex
	queued     map[string][]Step
	standing   map[string]Step
	expired    string // the stale-token class once the token expired, else ""
	requests   []Request
	violations []string
	waits      []time.Duration
}

// Option configures a Server.
type Option func(*Server)

// WithToken sets the run token the server accepts.
func WithToken(token string) Option { return func(s *Server) { s.Token = token } }

// New starts a fake proxy on 127.0.0.1 and stops it when the test ends. A request that breaks
// the contract fails tb (through tb.Errorf, so it is safe from the server's goroutines).
func New(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	s := &Server{Token: DefaultToken, tb: tb, done: make(chan struct{}),
		queued: map[string][]Step{}, standing: map[string]Step{}}
	for _, o := range opts {
		o(s)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	tb.Cleanup(func() {
		close(s.done)
		s.srv.Close()
	})
	return s
}

// Script queues steps for tool: each call takes the next one; when they run out, the Respond
// step (if any) answers.
func (s *Server) Script(tool string, steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queued[tool] = append(s.queued[tool], steps...)
}

// Respond sets the step that answers every call to tool once its script has run out.
func (s *Server) Respond(tool string, step Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.standing[tool] = step
}

// ExpireToken makes every later call fail with HTTP 401 and errorClass, as the proxy does once
// the run has closed; "" means run_token_expired.
func (s *Server) ExpireToken(errorClass string) {
	if errorClass == "" {
		errorClass = proxy.ClassRunTokenExpired
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expired = errorClass
}

// Requests returns the requests received so far, violating ones included, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Violations returns the contract violations found so far.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.violations...)
}

// RunEnv returns the run context that points at this server.
func (s *Server) RunEnv() runenv.Env { return runenv.Env{ProxyURL: s.URL, RunToken: s.Token} }

// Client returns a proxy client for this server with a 30 s timeout that records the waits
// between retries (Waits) instead of sleeping. Later options override these.
func (s *Server) Client(opts ...proxy.Option) *proxy.Client {
	s.tb.Helper()
	base := []proxy.Option{proxy.WithTimeout(30 * time.Second), proxy.WithSleep(s.recordWait)}
	c, err := proxy.New(s.URL, s.Token, append(base, opts...)...)
	if err != nil {
		s.tb.Fatalf("proxytest: %v", err)
	}
	return c
}

// Waits returns the backoff waits that clients made by Client asked for, in order.
func (s *Server) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

func (s *Server) recordWait(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		s.violate(w, http.StatusBadRequest, "malformed_request", "cannot read the body: "+err.Error())
		return
	}
	req := Request{Header: r.Header.Clone(), Body: body}
	req.Actor = r.Header.Get(proxy.ActorHeader)
	_, req.HasActor = r.Header[proxy.ActorHeader]
	tool, toolOK := toolOf(r.URL)
	req.Tool = tool

	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	if status, class, msg := s.check(r, toolOK, body); status != 0 {
		s.violate(w, status, class, msg)
		return
	}
	step, ok := s.next(tool)
	if !ok {
		writeStep(w, Fail(http.StatusBadRequest, "unknown_tool", fmt.Sprintf("no reply is scripted for tool %q", tool)), tool, start)
		return
	}
	if step.delay > 0 {
		t := time.NewTimer(step.delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
	writeStep(w, step, tool, start)
}

// check returns the status, error class and message of the first rule r breaks, or 0.
func (s *Server) check(r *http.Request, toolOK bool, body []byte) (int, string, string) {
	switch {
	case r.Method != http.MethodPost:
		return http.StatusMethodNotAllowed, "method_not_allowed", "method " + r.Method + "; expected POST"
	case !toolOK:
		return http.StatusNotFound, "not_found", fmt.Sprintf("path %q; expected /tools/{tool_name}", r.URL.EscapedPath())
	}
	auth, hasAuth := r.Header["Authorization"]
	switch {
	case !hasAuth:
		return http.StatusUnauthorized, "run_token_missing", "no Authorization header; expected Authorization: Bearer {run_token}"
	case len(auth) != 1 || auth[0] != "Bearer "+s.Token:
		return http.StatusUnauthorized, proxy.ClassRunTokenInvalid, fmt.Sprintf("Authorization %q; expected Bearer and the run token", auth)
	}
	if ct := r.Header.Values("Content-Type"); len(ct) != 1 || !isJSONType(ct[0]) {
		return http.StatusBadRequest, "malformed_request", fmt.Sprintf("Content-Type %q; expected application/json", ct)
	}
	if !isObject(body) {
		return http.StatusBadRequest, "malformed_arguments", fmt.Sprintf("body %.60q is not a JSON object; the tool's arguments must be one", body)
	}
	if actors, ok := r.Header[proxy.ActorHeader]; ok && (len(actors) != 1 || actors[0] == "" || strings.TrimSpace(actors[0]) != actors[0]) {
		return http.StatusBadRequest, "malformed_request", fmt.Sprintf("%s %q; expected one non-empty label, or no header at all", proxy.ActorHeader, actors)
	}
	return 0, "", ""
}

// violate answers a request that breaks the contract and fails the test.
func (s *Server) violate(w http.ResponseWriter, status int, class, msg string) {
	s.mu.Lock()
	s.violations = append(s.violations, msg)
	s.mu.Unlock()
	s.tb.Errorf("proxytest: contract violation: %s", msg)
	writeStep(w, Fail(status, class, msg), "", time.Now())
}

// next takes the step that answers a call to tool.
func (s *Server) next(tool string) (Step, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.expired != "" {
		return Fail(http.StatusUnauthorized, s.expired, "The run token is no longer valid: the run has closed."), true
	}
	if q := s.queued[tool]; len(q) > 0 {
		s.queued[tool] = q[1:]
		return q[0], true
	}
	step, ok := s.standing[tool]
	return step, ok
}

func toolOf(u *url.URL) (string, bool) {
	rest, ok := strings.CutPrefix(u.EscapedPath(), "/tools/")
	if !ok || rest == "" || strings.Contains(rest, "/") || u.RawQuery != "" {
		return "", false
	}
	tool, err := url.PathUnescape(rest)
	return tool, err == nil
}

func isJSONType(v string) bool {
	mt, params, err := mime.ParseMediaType(v)
	return err == nil && mt == "application/json" && (len(params) == 0 || strings.EqualFold(params["charset"], "utf-8") && len(params) == 1)
}

func isObject(body []byte) bool {
	body = bytes.TrimSpace(body)
	return json.Valid(body) && len(body) > 0 && body[0] == '{'
}

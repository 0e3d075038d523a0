package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// MaxAttempts is the most requests one call sends: the first and three retries.
const MaxAttempts = 4

// Backoff returns the wait before retry number retry (0 before the second attempt, 1 before
// the third, 2 before the fourth), with jitter r in [0, 1):
//
//	min(0.5 · 2^retry, 4.0) · (0.75 + r · 0.5) seconds
//
// So the waits are 0.5 s, 1 s and 2 s, each ±25%; the 4 s cap would apply from a fifth attempt.
func Backoff(retry int, r float64) time.Duration {
	r = min(max(r, 0), 1)
	base := min(0.5*math.Pow(2, float64(max(retry, 0))), 4.0)
	return time.Duration(base * (0.75 + r*0.5) * float64(time.Second))
}

type callConfig struct {
	retry   bool
	timeout time.Duration
}

// CallOption changes one call.
type CallOption func(*callConfig)

// NoRetry sends one request only, even for a transient failure (the SDK's auto_retry=False).
func NoRetry() CallOption { return func(c *callConfig) { c.retry = false } }

// Timeout sets this call's per-attempt timeout (the SDK's timeout=). Zero or less means no
// timeout beyond the caller's context.
func Timeout(d time.Duration) CallOption { return func(c *callConfig) { c.timeout = d } }

// Call calls tool with args and returns the reply's response: the payload the tool body
// consumes. args is encoded as JSON and must be an object; nil sends {}. A json.RawMessage or
// []byte is sent as it is, compacted, after checking that it is one JSON object.
func (c *Client) Call(ctx context.Context, tool string, args any, opts ...CallOption) (json.RawMessage, error) {
	r, err := c.CallReply(ctx, tool, args, opts...)
	if err != nil {
		return nil, err
	}
	return r.Response, nil
}

// CallReply is Call, returning the whole decoded envelope.
func (c *Client) CallReply(ctx context.Context, tool string, args any, opts ...CallOption) (*Reply, error) {
	cfg := callConfig{retry: true, timeout: c.timeout}
	for _, o := range opts {
		o(&cfg)
	}
	req, err := c.prepare(ctx, tool, args)
	if err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		reply, err := c.attempt(ctx, req, cfg.timeout)
		if err == nil {
			return reply, nil
		}
		var pe *ProxyCallError
		if errors.As(err, &pe) {
			pe.Attempts = attempt
		}
		if !cfg.retry || attempt >= MaxAttempts || !Retryable(err) {
			return nil, err
		}
		if serr := c.sleep(ctx, Backoff(attempt-1, c.random())); serr != nil {
			return nil, fmt.Errorf("proxy call %s: stopped waiting to retry: %w; last failure: %w", tool, serr, err)
		}
	}
}

// request is what every attempt of one call sends.
type request struct {
	tool, url, actor string
	body             []byte
}

func (c *Client) prepare(ctx context.Context, tool string, args any) (*request, error) {
	if tool == "" {
		return nil, errors.New("proxy call: the tool name is empty")
	}
	actor := c.actorFor(ctx)
	if !validHeaderValue(actor) {
		return nil, fmt.Errorf("proxy call %s: actor %q cannot be sent in %s; expected printable text without leading or trailing spaces", tool, actor, ActorHeader)
	}
	body, err := encodeArgs(args)
	if err != nil {
		return nil, fmt.Errorf("proxy call %s: %w", tool, err)
	}
	return &request{tool: tool, url: c.base + "/tools/" + escapeTool(tool), actor: actor, body: body}, nil
}

// encodeArgs returns the JSON object to send for args.
func encodeArgs(args any) ([]byte, error) {
	var raw []byte
	if isNil(args) {
		return []byte("{}"), nil
	}
	switch a := args.(type) {
	case json.RawMessage:
		raw = a
	case []byte:
		raw = a
	default:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(args); err != nil {
			return nil, fmt.Errorf("encode arguments: %w", err)
		}
		raw = buf.Bytes()
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("arguments are not valid JSON: %w", err)
	}
	if buf.Len() == 0 || buf.Bytes()[0] != '{' {
		return nil, fmt.Errorf("arguments are %s; expected a JSON object such as {\"order_id\": \"4521\"}", describe(buf.Bytes()))
	}
	return buf.Bytes(), nil
}

func describe(v []byte) string {
	switch {
	case len(v) == 0:
		return "empty"
	case v[0] == '[':
		return "an array"
	case v[0] == '"':
		return "a string"
	case v[0] == 'n':
		return "null"
	case v[0] == 't' || v[0] == 'f':
		return "a boolean"
	}
	return "a number"
}

// validHeaderValue accepts "" (no header) and text without control characters or surrounding
// spaces, which a server would strip or refuse.
func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b == 0x7f {
			return false
		}
	}
	return s == "" || (s[0] != ' ' && s[len(s)-1] != ' ')
}

// attempt sends one request and reads its reply.
func (c *Client) attempt(ctx context.Context, r *request, timeout time.Duration) (*Reply, error) {
	actx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		actx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, r.url, bytes.NewReader(r.body))
	if err != nil {
		return nil, &ProxyCallError{Tool: r.tool, Message: "cannot build the request: " + err.Error(), Err: err}
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	if r.actor != "" {
		req.Header.Set(ActorHeader, r.actor)
	}
	resp, err := c.httpc.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, actx, r.tool, timeout, "no reply", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxReply+1))
	if err != nil {
		return nil, c.transportError(ctx, actx, r.tool, timeout, "reading the reply of HTTP "+strconv.Itoa(resp.StatusCode)+" failed", err)
	}
	if int64(len(body)) > c.maxReply {
		return nil, &ProxyCallError{Tool: r.tool, Status: resp.StatusCode,
			Message: fmt.Sprintf("the reply is over the limit of %d bytes", c.maxReply)}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, statusError(r.tool, resp.StatusCode, body)
	}
	return decodeReply(r.tool, resp.StatusCode, body)
}

// transportError makes the error for a call that got no (complete) reply.
func (c *Client) transportError(ctx, actx context.Context, tool string, timeout time.Duration, what string, err error) error {
	pe := &ProxyCallError{Tool: tool, Message: what + ": " + err.Error(), Err: err}
	if ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		pe.TimedOut = true
		pe.Message = fmt.Sprintf("%s within the timeout of %s", what, timeout)
	}
	return pe
}

// isNil reports whether args is nil, or a nil map, slice or pointer: Go's usual "no arguments".
func isNil(args any) bool {
	if args == nil {
		return true
	}
	switch v := reflect.ValueOf(args); v.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Interface, reflect.Slice:
		return v.IsNil()
	}
	return false
}

// escapeTool escapes a tool name for the path as Python's urllib.parse.quote(name, safe="")
// does: everything but letters, digits and "_.-~" is percent-encoded.
func escapeTool(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' || c == '~' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

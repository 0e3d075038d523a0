package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// Source is where one proxy reply's payload came from.
type Source string

// The source values of the contract. Simulated tools yield odyssey, injected (a failure rule
// fired) or error; live tools yield passthrough or transport_error.
const (
	SourceOdyssey        Source = "odyssey"
	SourceInjected       Source = "injected"
	SourceError          Source = "error"
	SourcePassthrough    Source = "passthrough"
	SourceTransportError Source = "transport_error"
)

// Known reports whether s is one of the contract's values. An unknown value is kept as it came,
// not rejected, so a newer proxy does not break older agents.
func (s Source) Known() bool {
	switch s {
	case SourceOdyssey, SourceInjected, SourceError, SourcePassthrough, SourceTransportError:
		return true
	}
	return false
}

// Reply is the proxy's success envelope, decoded.
type Reply struct {
	ToolName         string          `json:"tool_name"`
	Response         json.RawMessage `json:"response"`           // the payload the tool body consumes
	Source           Source          `json:"source"`             // where Response came from
	LatencyMS        float64         `json:"latency_ms"`         // the proxy's own measure
	MatchedRuleIndex *int            `json:"matched_rule_index"` // set only when a failure rule fired
	Validation       json.RawMessage `json:"validation"`         // nil unless the proxy sent an object
	// Legacy is true when the reply was the payload itself, without the envelope; then Response
	// is the whole body and the other fields are zero, except ToolName, the tool called.
	Legacy bool `json:"-"`
}

// Latency returns LatencyMS as a duration.
func (r *Reply) Latency() time.Duration {
	return time.Duration(r.LatencyMS * float64(time.Millisecond))
}

// decodeReply reads a 2xx body. It is the envelope when it is a JSON object with a "response"
// key and string "tool_name" and "source" keys, the three keys every envelope carries; any
// other JSON value is a legacy reply, the payload itself. A body that is not JSON is an error.
func decodeReply(tool string, status int, body []byte) (*Reply, error) {
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return nil, &ProxyCallError{Tool: tool, Status: status, Body: body,
			Message: fmt.Sprintf("the reply is not JSON (%d bytes, starting %q); expected the proxy's envelope or a JSON payload", len(body), head(body))}
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(body, &keys) != nil || !isEnvelope(keys) {
		return &Reply{ToolName: tool, Response: body, Legacy: true}, nil
	}
	var r Reply
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, &ProxyCallError{Tool: tool, Status: status, Body: body,
			Message: "the reply envelope is malformed: " + err.Error()}
	}
	if math.IsNaN(r.LatencyMS) || r.LatencyMS < 0 {
		r.LatencyMS = 0
	}
	if bytes.Equal(r.Validation, []byte("null")) {
		r.Validation = nil
	}
	return &r, nil
}

func isEnvelope(keys map[string]json.RawMessage) bool {
	// As the SDK's proxy_call does: an object with a "response" key is the envelope, and
	// response is the payload. The other envelope keys are optional for unwrapping.
	_, hasResponse := keys["response"]
	return hasResponse
}

func head(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

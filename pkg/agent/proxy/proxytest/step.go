package proxytest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/dystopic/normalizer/pkg/agent/proxy"
)

// Step is one scripted answer.
type Step struct {
	status      int
	contentType string
	body        []byte
	envelope    *envelope // filled with the tool name and latency when answered
	delay       time.Duration
}

type envelope struct {
	Response         json.RawMessage `json:"response"`
	Source           proxy.Source    `json:"source"`
	MatchedRuleIndex *int            `json:"matched_rule_index"`
	Validation       json.RawMessage `json:"validation"`
}

// After returns s answered only after d, or never if the client gives up first.
func (s Step) After(d time.Duration) Step {
	s.delay = d
	return s
}

// Reply answers 200 with the envelope around payload, source odyssey. payload is encoded as
// JSON; a json.RawMessage is sent as it is.
func Reply(payload any) Step { return Envelope(payload, proxy.SourceOdyssey, nil, nil) }

// Injected answers 200 with payload as the output of failure rule rule, source injected.
func Injected(payload any, rule int) Step {
	return Envelope(payload, proxy.SourceInjected, &rule, nil)
}

// Envelope answers 200 with an envelope of the given fields.
func Envelope(payload any, source proxy.Source, matchedRule *int, validation json.RawMessage) Step {
	return Step{status: http.StatusOK, contentType: "application/json",
		envelope: &envelope{Response: mustJSON(payload), Source: source, MatchedRuleIndex: matchedRule, Validation: validation}}
}

// Legacy answers 200 with payload itself, without the envelope, as legacy paths do.
func Legacy(payload any) Step {
	return Step{status: http.StatusOK, contentType: "application/json", body: mustJSON(payload)}
}

// Fail answers status with the platform's error body,
// {"detail": {"error_class": errorClass, "message": message}}.
func Fail(status int, errorClass, message string) Step {
	detail := map[string]string{"error_class": errorClass, "message": message}
	return Step{status: status, contentType: "application/json", body: mustJSON(map[string]any{"detail": detail})}
}

// Raw answers status with body and the given Content-Type, exactly.
func Raw(status int, contentType, body string) Step {
	return Step{status: status, contentType: contentType, body: []byte(body)}
}

func writeStep(w http.ResponseWriter, s Step, tool string, start time.Time) {
	body := s.body
	if s.envelope != nil {
		latency := float64(time.Since(start).Microseconds()) / 1000
		body = []byte(`{"tool_name":` + string(mustJSON(tool)) + `,"response":` + string(s.envelope.Response) +
			`,"source":` + string(mustJSON(s.envelope.Source)) + `,"latency_ms":` + strconv.FormatFloat(latency, 'f', -1, 64) +
			`,"matched_rule_index":` + string(mustJSON(s.envelope.MatchedRuleIndex)) +
			`,"validation":` + string(orNull(s.envelope.Validation)) + `}`)
	}
	if s.contentType != "" {
		w.Header().Set("Content-Type", s.contentType)
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(s.status)
	_, _ = w.Write(body)
}

func mustJSON(v any) json.RawMessage {
	if raw, ok := v.(json.RawMessage); ok {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("proxytest: payload cannot be encoded as JSON: %v", err))
	}
	return b
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

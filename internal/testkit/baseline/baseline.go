// Package baseline is the straightforward normalizer that benchmarks measure against: decode
// into map[string]any with encoding/json, apply the rules, encode again. It is kept only as a
// yardstick, never used by the product: it loses duplicate keys, number text and key order,
// which the real one keeps.
package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// Normalize normalizes raw the straightforward way and returns the record.
func Normalize(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	var obj map[string]any
	switch t := v.(type) {
	case string:
		obj = map[string]any{"final_response": t}
	case map[string]any:
		obj = t
	default:
		return nil, fmt.Errorf("bad shape %T", v)
	}
	final, _ := obj["final_response"].(string)
	if final == "" {
		return nil, errors.New(normalizeEmpty)
	}
	var warnings []string
	if n := utf8.RuneCountInString(final); n > 50000 {
		final = string([]rune(final)[:50000]) + "…[truncated]"
		warnings = append(warnings, "final_response: truncated")
	}
	var kept []any
	if list, ok := obj["messages"].([]any); ok {
		for i, m := range list {
			if msg, ok := message(m); ok {
				kept = append(kept, msg)
			} else {
				warnings = append(warnings, fmt.Sprintf("messages[%d]: dropped", i))
			}
		}
	}
	meta, _ := obj["metadata"].(map[string]any)
	for _, k := range []string{"model", "system_prompt_id"} {
		if v, ok := meta[k]; ok {
			if _, ok := v.(string); !ok {
				delete(meta, k)
				warnings = append(warnings, "metadata."+k+": dropped")
			}
		}
	}
	return json.Marshal(struct {
		FinalResponse string         `json:"final_response"`
		Messages      []any          `json:"messages"`
		Metadata      map[string]any `json:"metadata"`
		SoftWarnings  []string       `json:"soft_warnings"`
		RichMode      bool           `json:"rich_mode"`
	}{final, kept, meta, warnings, len(kept) > 0})
}

const normalizeEmpty = "empty final_response"

func message(m any) (map[string]any, bool) {
	msg, ok := m.(map[string]any)
	if !ok {
		return nil, false
	}
	switch msg["role"] {
	case "system", "user", "assistant", "tool":
	default:
		return nil, false
	}
	switch msg["content"].(type) {
	case nil, string, []any:
	default:
		return nil, false
	}
	switch msg["tool_call_id"].(type) {
	case nil, string:
	default:
		return nil, false
	}
	if tc, present := msg["tool_calls"]; present && tc != nil {
		calls, ok := tc.([]any)
		if !ok {
			return nil, false
		}
		flat := make([]any, 0, len(calls))
		for _, c := range calls {
			call, ok := c.(map[string]any)
			if !ok {
				return nil, false
			}
			src := call
			if fn, ok := call["function"].(map[string]any); ok {
				src = fn
			}
			name, ok := src["name"].(string)
			if !ok {
				return nil, false
			}
			f := map[string]any{"name": name}
			if id, ok := call["id"]; ok {
				f["id"] = id
			}
			if args, ok := src["arguments"]; ok {
				f["arguments"] = args
			}
			flat = append(flat, f)
		}
		msg["tool_calls"] = flat
	}
	return msg, true
}

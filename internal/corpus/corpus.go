// Package corpus generates realistic handler results, deterministically, for benchmarks, load
// tests and soak tests: a small result, a medium one with nested OpenAI tool calls, a large one
// whose final_response is over the cap, and a dirty one where a fifth of the messages are invalid.
package corpus

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Small is about 2 KB: a short transcript with one flat tool call.
func Small() []byte { return build(spec{messages: 6, answer: 300, seed: 1}, 2<<10) }

// Medium is about 60 KB: 60 messages with nested OpenAI tool calls and their results.
func Medium() []byte { return build(spec{messages: 60, answer: 2000, nested: true, seed: 2}, 60<<10) }

// Large is about 3 MB: 2,000 messages and a final_response of 120,000 characters, over the cap.
func Large() []byte {
	return build(spec{messages: 2000, answer: 120_000, nested: true, seed: 3}, 3<<20)
}

// Dirty is about 60 KB with one message in five invalid in one of the ways agents get wrong.
func Dirty() []byte {
	return build(spec{messages: 60, answer: 2000, nested: true, dirty: 5, seed: 4}, 60<<10)
}

// Sized returns a result of about n bytes (n at least 1 KB), for sweeps.
func Sized(n int, seed uint64) []byte {
	return build(spec{messages: max(2, n/1000), answer: 400, nested: seed%2 == 0, dirty: int(seed % 7), seed: seed}, n)
}

type spec struct {
	messages int
	answer   int // characters of final_response
	nested   bool
	dirty    int // every dirty-th message is invalid; 0 for none
	seed     uint64
}

var words = strings.Fields(`the order refund was issued shipped customer account balance policy
	tool result status pending approved carrier tracking number invoice amount currency date
	because therefore however agent checked confirmed requested café naïve 東京 ünïcödé`)

func text(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[r.IntN(len(words))])
	}
	return b.String()
}

// build makes a result of the spec, then pads the first user message so that the whole is
// about size bytes.
func build(s spec, size int) []byte {
	r := rand.New(rand.NewPCG(s.seed, 42))
	msgs := make([]any, 0, s.messages)
	msgs = append(msgs, map[string]any{"role": "system", "content": "You are a support agent. " + text(r, 200)})
	for i := 1; len(msgs) < s.messages; i++ {
		id := fmt.Sprintf("call_%04d", i)
		args, _ := json.Marshal(map[string]any{"order_id": fmt.Sprint(4000 + i), "verbose": i%2 == 0})
		var call map[string]any
		if s.nested {
			call = map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "get_order", "arguments": string(args)}}
		} else {
			call = map[string]any{"id": id, "name": "get_order", "arguments": json.RawMessage(args)}
		}
		msgs = append(msgs,
			map[string]any{"role": "user", "content": text(r, 120)},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}, "refusal": nil},
			map[string]any{"role": "tool", "tool_call_id": id, "content": fmt.Sprintf(`{"status":"shipped","amount":%d.50}`, i)},
			map[string]any{"role": "assistant", "content": text(r, 160)},
		)
	}
	msgs = msgs[:s.messages]
	if s.dirty > 0 {
		for i := s.dirty - 1; i < len(msgs); i += s.dirty {
			msgs[i] = dirty(i)
		}
	}
	result := map[string]any{
		"final_response": text(r, s.answer),
		"messages":       msgs,
		"metadata": map[string]any{"model": "claude-sonnet-4-5", "system_prompt_id": "refund-v3",
			"total_input_tokens": 1842, "total_output_tokens": 217, "agent_runtime_ms": 4815.5},
	}
	out, _ := json.Marshal(result)
	if pad := size - len(out); pad > 0 && len(msgs) > 1 {
		if m, ok := msgs[1].(map[string]any); ok && m["role"] == "user" {
			m["content"] = m["content"].(string) + " " + text(r, pad)
			out, _ = json.Marshal(result)
		}
	}
	return out
}

// dirty returns the i-th kind of invalid message.
func dirty(i int) any {
	switch i % 6 {
	case 0:
		return map[string]any{"role": "developer", "content": "be brief"}
	case 1:
		return map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "bare part"}}
	case 2:
		return map[string]any{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}
	case 3:
		return map[string]any{"role": "tool", "tool_call_id": 17, "content": "x"}
	case 4:
		return map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"id": "c", "arguments": "{}"}}}
	default:
		return "just a string"
	}
}

// Package corpus generates realistic handler results, deterministically, for benchmarks, load
// tests and soak tests: a small result, a medium one with nested OpenAI tool calls, a large one
// whose final_response is over the cap, and a dirty one where a fifth of the messages are invalid.
package corpus

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Small is about 2 KB: a short transcript with flat tool calls.
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

// MediumPython is Medium as Python's json.dumps writes it by default, the way an agent's handler
// result often arrives: a space after every ',' and ':', and every non-ASCII character escaped as
// \uXXXX (a surrogate pair past U+FFFF), so about 66 KB.
func MediumPython() []byte { return PythonStyle(Medium()) }

// PythonStyle rewrites the compact JSON doc as Python's json.dumps does by default
// (ensure_ascii, separators ", " and ": "); the value is the same.
func PythonStyle(doc []byte) []byte {
	out := make([]byte, 0, len(doc)+len(doc)/4)
	for i := 0; i < len(doc); {
		c := doc[i]
		switch {
		case c == '"':
			out = append(out, c)
			for i++; doc[i] != '"'; {
				switch r, n := utf8.DecodeRune(doc[i:]); {
				case doc[i] == '\\':
					out = append(out, doc[i:i+2]...)
					i += 2
				case r >= utf8.RuneSelf:
					if hi, lo := utf16.EncodeRune(r); hi != utf8.RuneError {
						out = fmt.Appendf(out, "\\u%04x\\u%04x", hi, lo)
					} else {
						out = fmt.Appendf(out, "\\u%04x", r)
					}
					i += n
				default:
					out = append(out, doc[i])
					i++
				}
			}
			out = append(out, '"')
			i++
		case c == ',' || c == ':':
			out = append(out, c, ' ')
			i++
		default:
			out = append(out, c)
			i++
		}
	}
	return out
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
	because therefore however agent checked confirmed requested café naïve 東京 ünïcödé
	"quoted" it's $4,521.50 #4521 (see: policy) e.g. 1/2`)

// text returns about n bytes of prose: words, some of them non-ASCII or quoted, and a line
// break now and then, as model output has.
func text(r *rand.Rand, n int) string {
	var b strings.Builder
	line := 0
	for b.Len() < n {
		switch {
		case b.Len() == 0:
		case b.Len()-line > 70+r.IntN(40):
			b.WriteByte('\n')
			line = b.Len()
		default:
			b.WriteByte(' ')
		}
		b.WriteString(words[r.IntN(len(words))])
	}
	return b.String()
}

// build makes a result of the spec whose size is about size bytes: the prose of every message
// is scaled together, so that the bytes are spread over the transcript as in a real one.
func build(s spec, size int) []byte {
	one, two := buildScaled(s, 1), buildScaled(s, 2)
	perScale := float64(len(two) - len(one))
	scale := 1 + float64(size-len(one))/perScale
	if scale < 0.05 {
		scale = 0.05
	}
	return buildScaled(s, scale)
}

func buildScaled(s spec, scale float64) []byte {
	r := rand.New(rand.NewPCG(s.seed, 42))
	n := func(base int) int { return max(8, int(float64(base)*scale)) }
	msgs := make([]any, 0, s.messages)
	msgs = append(msgs, map[string]any{"role": "system", "content": "You are a support agent. " + text(r, n(200))})
	for i := 1; len(msgs) < s.messages; i++ {
		id := fmt.Sprintf("call_%04d", i)
		args, _ := json.Marshal(map[string]any{"order_id": fmt.Sprint(4000 + i), "verbose": i%2 == 0, "reason": text(r, n(20))})
		var call map[string]any
		if s.nested {
			call = map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "get_order", "arguments": string(args)}}
		} else {
			call = map[string]any{"id": id, "name": "get_order", "arguments": json.RawMessage(args)}
		}
		result, _ := json.Marshal(map[string]any{"status": "shipped", "amount": json.Number(fmt.Sprintf("%d.50", i)), "notes": text(r, n(60))})
		msgs = append(msgs,
			map[string]any{"role": "user", "content": text(r, n(120))},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}, "refusal": nil},
			map[string]any{"role": "tool", "tool_call_id": id, "content": string(result)},
			map[string]any{"role": "assistant", "content": text(r, n(160))},
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

// Lines returns JSON lines of Small, Medium, Dirty and Large results, at least size bytes: a
// batch of results of every kind, in a repeating run of 32 small ones, 8 medium and 8 dirty
// ones in turn, and a large one (about 4.1 MB a run, three quarters of it the large one).
func Lines(size int) []byte {
	small, medium, dirty, large := Small(), Medium(), Dirty(), Large()
	var b []byte
	for len(b) < size {
		for range 32 {
			b = append(append(b, small...), '\n')
		}
		for range 8 {
			b = append(append(b, medium...), '\n')
			b = append(append(b, dirty...), '\n')
		}
		b = append(append(b, large...), '\n')
	}
	return b
}

package messages

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// TestReadAgreesWithListedReading: reading a message without listing the keys the reader
// tells apart by a bit, and going back to list every member when a duplicate turns up,
// writes exactly what listing every member from the start writes, with the same warnings
// and the same call table: random transcripts of known and unknown keys in any order,
// spelled with escapes, given twice or three times, with whitespace or without, inside tool
// calls too, valid and invalid messages, and messages of more members than the small-object
// scan handles.
func TestReadAgreesWithListedReading(t *testing.T) {
	spellings := map[string][]string{
		"role":         {`"role"`, `"rol\u0065"`},
		"content":      {`"content"`, `"\u0063ontent"`},
		"tool_call_id": {`"tool_call_id"`},
		"tool_calls":   {`"tool_calls"`, `"tool\u005fcalls"`},
		"thinking":     {`"thinking"`},
		"refusal":      {`"refusal"`, `"r\u0065fusal"`},
		"name":         {`"name"`},
		"type":         {`"type"`},
		"data":         {`"data"`},
		"":             {`""`},
	}
	values := map[string][]string{
		"role":         {`"user"`, `"assistant"`, `"tool"`, `"developer"`, `5`, `null`},
		"content":      {`"hi"`, `"a \"quoted\" word\n"`, `[{"type":"text","text":"x"}]`, `[ {"type": "text", "text": "x"} ]`, `null`, `{"type":"text"}`, `{"a":1}`, `7`},
		"tool_call_id": {`"c1"`, `null`, `17`},
		"tool_calls": {`null`, `[]`, `[{"id":"c","name":"f","arguments":{}}]`, `[{"name":"f","id":"c"}]`, `[{"id": "c", "name": "f", "arguments": {"a": [1, 2]}}]`,
			`[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]`,
			`[{"id":"c","name":"f","name":"g"}]`, `[{"id":"c","type":"function","function":{"name":"f","name":"g"}}]`,
			`[{"id":"c","name":"f","x":1,"x":2}]`, `[{"id":"c"}]`, `{}`},
		"thinking": {`null`, `[]`, `[{"type":"thinking","thinking":"t"}]`, `["x"]`, `"x"`},
		"refusal":  {`null`, `"no"`},
		"name":     {`"bob"`},
		"type":     {`"function_call"`, `"human"`, `"message"`},
		"data":     {`{}`, `{ "a" : [ 1 ] }`},
		"":         {`1`},
	}
	names := []string{"role", "content", "tool_call_id", "tool_calls", "thinking", "refusal", "name", "type", "data", ""}
	rng := rand.New(rand.NewPCG(5, 6))
	for iter := range 20000 {
		var b strings.Builder
		b.WriteByte('[')
		for m := range 1 + rng.IntN(4) {
			if m > 0 {
				b.WriteString(pick(rng, ",", ", ", " ,\n "))
			}
			n := rng.IntN(6)
			if rng.IntN(20) == 0 {
				n = 14 + rng.IntN(8) // past the small-object scan
			}
			b.WriteByte('{')
			for k := range n {
				if k > 0 {
					b.WriteString(pick(rng, ",", ", ", ",\n\t"))
				}
				name := pick(rng, names...)
				if n > 6 && rng.IntN(2) == 0 {
					name = "k" + string(rune('a'+rng.IntN(20)))
				}
				key, value := `"`+name+`"`, `1`
				if sp, ok := spellings[name]; ok {
					key, value = pick(rng, sp...), pick(rng, values[name]...)
				}
				b.WriteString(key + pick(rng, ":", ": ", " : ") + value)
			}
			b.WriteByte('}')
		}
		b.WriteByte(']')
		doc := []byte(b.String())
		for _, flat := range []bool{false, true} {
			want := readAll(t, doc, true, flat)
			got := readAll(t, doc, false, flat)
			if !slices.Equal(got, want) {
				t.Fatalf("iteration %d, %s (KeepFlatCalls %v):\nlisted reading: %q\nreading:        %q", iter, doc, flat, want, got)
			}
		}
	}
}

func pick(rng *rand.Rand, from ...string) string { return from[rng.IntN(len(from))] }

// readAll reads the messages array doc, every member listed or not, and returns what the
// reading produced: the record's messages, each warning, and the call table.
func readAll(t *testing.T, doc []byte, listAll, keepFlat bool) []string {
	t.Helper()
	var (
		s    jsonscan.Scanner
		warn softwarn.Collector
		r    Reader
	)
	s.ResetRecordingWS(doc, jsonscan.DefaultMaxDepth)
	warn.SetLimit(softwarn.DefaultLimit)
	r.Reset(&s, &warn)
	r.listAll, r.KeepFlatCalls = listAll, keepFlat
	s.Peek()
	r.ReadArray()
	if s.AtEnd(); s.Err() != nil {
		t.Fatalf("%s: %v", doc, s.Err())
	}
	warn.Close()
	out := []string{string(r.AppendJSON(nil))}
	for _, w := range warn.Warnings() {
		out = append(out, w.String())
	}
	for i := range r.Calls() {
		out = append(out, fmt.Sprint(r.Call(i)))
	}
	return out
}

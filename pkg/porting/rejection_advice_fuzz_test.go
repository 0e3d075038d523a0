package porting_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/dystopic/normalizer/internal/testkit/schemacheck"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

// FuzzRejectionAdvice checks, for any input, that advice only adds beside a rejection: the
// explain view's error object is the plain one with "advice" after its other keys, or the
// plain one itself; it validates against the error schema; advice is given only with the
// contract's own message, and its pointer names a place in the input. Seeds are under
// testdata/fuzz/FuzzRejectionAdvice, with the cases of TestRejectionAdvice's shapes.
func FuzzRejectionAdvice(f *testing.F) {
	for _, raw := range []string{
		`{"final_response": "", "messages": [{"role": "user", "content": "q"}, {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}]}`,
		`{"final_response": null, "messages": [{"role": "assistant", "content": "It shipped."}]}`,
		`{"final_response": "", "messages": [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}]}`,
	} {
		f.Add([]byte(raw))
	}
	plain, explain := porting.New(), porting.New(normalize.WithExplain())
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, perr := plain.Normalize(raw)
		_, err := explain.Normalize(raw)
		if (perr == nil) != (err == nil) {
			t.Fatalf("explain changed the verdict: %v, %v", perr, err)
		}
		if err == nil {
			return
		}
		p, x := normalize.AppendError(nil, perr), normalize.AppendError(nil, err)
		if err := schemacheck.Validate("error.schema.json", x); err != nil {
			t.Fatalf("error object %s: %v", x, err)
		}
		var e *normalize.ResponseShapeError
		if !errors.As(err, &e) || e.Advice == nil {
			if !bytes.Equal(p, x) {
				t.Fatalf("no advice, but the error objects differ:\n%s\n%s", p, x)
			}
			return
		}
		if e.Error() != normalize.EmptyResponseMessage {
			t.Fatalf("advice on a rejection whose message is not the contract's: %q", e.Error())
		}
		if !bytes.HasPrefix(x, p[:len(p)-2]) || !bytes.HasPrefix(x[len(p)-2:], []byte(`,"advice":{`)) {
			t.Fatalf("the advice is not only added after the plain error object:\n%s\n%s", p, x)
		}
		if !resolves(raw, e.Advice.Pointer()) {
			t.Fatalf("advice at %q, which is not in the input", e.Advice.Pointer())
		}
	})
}

// resolves reports whether an RFC 6901 pointer of the form /key/index names a value of raw.
func resolves(raw []byte, pointer string) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return true // the scanner and encoding/json differ on duplicates only: pkg/normalize's fuzzing holds them to each other
	}
	for _, tok := range strings.Split(pointer, "/")[1:] {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		default:
			return false
		}
	}
	return true
}

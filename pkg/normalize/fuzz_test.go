package normalize_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dystopic/normalizer/internal/testkit/schemacheck"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// FuzzNormalize checks, for any input: no panic; a record is valid JSON that validates against
// the record schema, is the same bytes every time, and normalizes again to the same
// final_response, messages and metadata; a rejection has a class and a valid error object. It
// also holds the scanner to encoding/json: what one accepts as JSON, the other does too (for
// UTF-8 input within the depth limit), so nothing is "repaired" and nothing valid is refused.
// The explain view only adds: without it the output is the same up to the diagnostics, a
// rejection is the same rejection, and the warnings are the same (CONTRACT.md rule 21).
func FuzzNormalize(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join(goldenDir, "*.input.json"))
	porting, _ := filepath.Glob(filepath.Join(explainDir, "*.input.json")) // the explain view's notes
	for _, in := range append(inputs, porting...) {
		if raw, err := os.ReadFile(in); err == nil && len(raw) < 4096 {
			f.Add(raw)
		}
	}
	for _, in := range benchInputs[:1] {
		f.Add(in.doc)
	}
	// At the limits of the platform's parser (the golden cases for them are too long to seed).
	digits := strings.Repeat("7", normalize.MaxIntDigits)
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, raw := range []string{
		`{"final_response":"a","metadata":{"total_input_tokens":` + digits + `}}`,
		`{"final_response":"a","metadata":{"n":-` + digits + `1}}`,
		`{"final_response":"a","metadata":{"n":` + digits + `1.5,"e":1e` + digits + `}}`,
		`{"final_response":"a","metadata":{"x":` + deep(normalize.DefaultMaxDepth-2) + `}}`,
		`{"final_response":"a","metadata":{"x":` + deep(normalize.DefaultMaxDepth-1) + `}}`,
	} {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		n := normalize.New(normalize.WithExplain())
		out, err := n.AppendOutput(nil, raw)
		if !json.Valid(out) {
			t.Fatalf("output is not JSON: %q", out)
		}
		again, _ := n.AppendOutput(nil, raw)
		if !bytes.Equal(out, again) {
			t.Fatalf("not deterministic:\n%s\n%s", out, again)
		}
		checkAgainstStdlib(t, raw, err)
		checkExplainOnlyAdds(t, raw, out, err)
		if err != nil {
			if _, ok := normalize.ClassOf(err); !ok {
				t.Fatalf("rejection without a class: %v", err)
			}
			if verr := schemacheck.Validate("error.schema.json", out); verr != nil {
				t.Fatalf("error object fails its schema: %v\n%s", verr, out)
			}
			return
		}
		if verr := schemacheck.Validate("record.schema.json", out); verr != nil {
			t.Fatalf("record fails its schema: %v\n%s", verr, out)
		}
		checkIdempotent(t, out)
		checkPythonReads(t, out)
	})
}

// checkPythonReads holds a record to the limits of the platform's parser, CPython's json
// (python_test.go runs the real one at them): it nests no deeper than DefaultMaxDepth (a record
// adds no level to its result, whose nesting the default limit keeps a margin under Python's)
// and has no integer literal of more than MaxIntDigits digits.
func checkPythonReads(t *testing.T, record []byte) {
	t.Helper()
	if d := nesting(record); d > normalize.DefaultMaxDepth {
		t.Fatalf("the record nests %d levels, past %d", d, normalize.DefaultMaxDepth)
	}
	inString := false
	for i := 0; i < len(record); i++ {
		switch c := record[i]; {
		case inString && c == '\\':
			i++
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '-' || c >= '0' && c <= '9': // a number: its integer part, then the rest
			j := i + 1
			for j < len(record) && record[j] >= '0' && record[j] <= '9' {
				j++
			}
			digits := j - i
			if c == '-' {
				digits--
			}
			float := j < len(record) && (record[j] == '.' || record[j] == 'e' || record[j] == 'E')
			if digits > normalize.MaxIntDigits && !float {
				t.Fatalf("the record has an integer of %d digits", digits)
			}
			for j < len(record) && strings.IndexByte("0123456789.eE+-", record[j]) >= 0 {
				j++
			}
			i = j - 1
		}
	}
}

// checkExplainOnlyAdds compares out, the explain view of raw, with the output without it: the
// record must be the same bytes but for the diagnostics after rich_mode, and a rejection the
// same error object.
func checkExplainOnlyAdds(t *testing.T, raw, out []byte, err error) {
	t.Helper()
	plain, perr := normalize.New().AppendOutput(nil, raw)
	if (err == nil) != (perr == nil) {
		t.Fatalf("explain changes the verdict: %v, without it %v", err, perr)
	}
	if err != nil {
		if !bytes.Equal(out, plain) {
			t.Fatalf("explain changes the rejection:\n%s\n%s", out, plain)
		}
		return
	}
	// plain ends with "}"; the explain view, when it has notes, continues before it with
	// ,"diagnostics":[...].
	diagnostics := append(plain[:len(plain)-1:len(plain)-1], `,"diagnostics":`...)
	if !bytes.Equal(out, plain) && !bytes.HasPrefix(out, diagnostics) {
		t.Fatalf("explain changes the record:\n%s\n%s", out, plain)
	}
}

// checkAgainstStdlib compares the verdict on JSON validity with encoding/json's.
func checkAgainstStdlib(t *testing.T, raw []byte, err error) {
	t.Helper()
	var syn *normalize.InvalidJSONError
	if errors.As(err, &syn) && syn.TooManyDigits {
		return // valid JSON the platform's parser does not read (encoding/json reads any integer)
	}
	invalid := err != nil && strings.HasPrefix(err.Error(), "invalid JSON")
	stdValid := json.Valid(raw)
	if !invalid && !stdValid {
		t.Fatalf("accepted what encoding/json rejects: %q", raw)
	}
	// encoding/json replaces invalid UTF-8 instead of rejecting it, and has its own depth limit.
	comparable := utf8.Valid(raw) && bytes.Count(raw, []byte("["))+bytes.Count(raw, []byte("{")) < normalize.DefaultMaxDepth && !bytes.HasPrefix(raw, []byte("\xef\xbb\xbf"))
	if invalid && stdValid && comparable {
		t.Fatalf("rejected what encoding/json accepts: %q: %v", raw, err)
	}
}

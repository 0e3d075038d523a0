package porting_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/goldenfile"
	"github.com/dystopic/normalizer/internal/testkit/schemacheck"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const goldenDir = "../../testdata/golden"

// goldenCases returns the case names of testdata/golden: NAME.input.json beside NAME.golden.json.
func goldenCases(t testing.TB) []string {
	names := goldenfile.Cases(t, goldenDir)
	require.GreaterOrEqual(t, len(names), 60, "the golden corpus is too small")
	return names
}

// output is what `normalizer normalize` prints for raw.
func output(raw []byte) []byte {
	out, _ := porting.New().AppendOutput(nil, raw)
	return append(out, '\n')
}

// TestGolden pins the exact bytes of every record and error object. Regenerate with
// `go test ./pkg/porting -run Golden -update` and review with `git diff testdata/`.
func TestGolden(t *testing.T) {
	goldenfile.Test(t, goldenDir, ".golden.json", *update, "go test ./pkg/porting -run Golden -update", func(_ string, raw []byte) []byte {
		return output(raw)
	})
}

// TestGoldenProperties checks what every golden output must satisfy: it validates against the
// record or error schema, it is the same bytes every time, and normalizing a record again
// leaves final_response, messages and metadata unchanged.
func TestGoldenProperties(t *testing.T) {
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) { checkProperties(t, filepath.Join(goldenDir, name+".input.json")) })
	}
	for _, name := range goldenfile.Cases(t, explainDir) { // porters' results
		t.Run("explain/"+name, func(t *testing.T) { checkProperties(t, filepath.Join(explainDir, name+".input.json")) })
	}
}

func checkProperties(t *testing.T, path string) {
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	first := output(raw)
	require.Equal(t, first, output(raw), "not deterministic")
	require.True(t, json.Valid(first), "output is not JSON: %s", first)
	res, err := porting.Normalize(raw)
	if err != nil {
		require.NoError(t, schemacheck.Validate("error.schema.json", first))
		return
	}
	require.NoError(t, schemacheck.Validate("record.schema.json", first))
	checkIdempotent(t, first)
	require.LessOrEqual(t, len(res.AppendJSON(nil)), res.SizeHint(), "a record past its SizeHint is copied as it grows")

	explained, err := porting.Normalize(raw, normalize.WithExplain())
	require.NoError(t, err)
	doc := explained.AppendJSON(nil)
	require.NoError(t, schemacheck.Validate("record.schema.json", doc))
	require.True(t, bytes.HasPrefix(doc, first[:len(first)-2]), "explain must only add diagnostics after rich_mode")
	require.Len(t, explained.Warnings(), len(res.Warnings()))
	require.LessOrEqual(t, len(doc), explained.SizeHint(), "a record past its SizeHint is copied as it grows (explain)")
}

// checkIdempotent checks that a record normalizes again to itself.
func checkIdempotent(t testing.TB, record []byte) {
	t.Helper()
	goldenfile.Idempotent(t, record, func(b []byte) ([]byte, error) {
		r, err := porting.Normalize(b)
		if err != nil {
			return nil, err
		}
		return r.AppendJSON(nil), nil
	})
}

// Package goldenfile runs golden-file tests: every NAME.input.json in a directory has beside it
// a file of the exact bytes some output of it must be, and -update rewrites them. It is for
// tests only; the golden corpus check users run is internal/golden.
package goldenfile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Cases returns the names of dir's cases: NAME for each NAME.input.json.
func Cases(t testing.TB, dir string) []string {
	inputs, err := filepath.Glob(filepath.Join(dir, "*.input.json"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs, "no *.input.json under %s", dir)
	names := make([]string, len(inputs))
	for i, in := range inputs {
		names[i] = strings.TrimSuffix(filepath.Base(in), ".input.json")
	}
	return names
}

// Test runs a subtest per case of dir: produce's output for NAME.input.json must be the bytes of
// NAME+suffix, or, with update, becomes them. regenerate is the command that updates them, for
// the message when a golden file is missing.
func Test(t *testing.T, dir, suffix string, update bool, regenerate string, produce func(name string, raw []byte) []byte) {
	for _, name := range Cases(t, dir) {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, name+".input.json"))
			require.NoError(t, err)
			got := produce(name, raw)
			path := filepath.Join(dir, name+suffix)
			if update {
				require.NoError(t, os.WriteFile(path, got, 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "no golden file: run %s", regenerate)
			require.Equal(t, string(want), string(got), "%s%s mismatch (regenerate: %s, then review git diff testdata/)", name, suffix, regenerate)
		})
	}
}

// Idempotent checks that a record normalizes again to itself: renormalize returns the record
// made of the bytes it is given. The members the contract makes are compared; diagnostics are
// not (a record has none of its input's).
func Idempotent(t testing.TB, record []byte, renormalize func([]byte) ([]byte, error)) {
	t.Helper()
	again, err := renormalize(bytes.TrimSpace(record))
	require.NoError(t, err, "a record must normalize again")
	var a, b map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(record, &a))
	require.NoError(t, json.Unmarshal(again, &b))
	for _, key := range []string{"final_response", "messages", "metadata", "rich_mode"} {
		require.Equal(t, string(a[key]), string(b[key]), "normalizing the record again changed %s", key)
	}
}

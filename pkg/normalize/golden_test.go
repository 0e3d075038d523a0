package normalize_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/goldenfile"
	"github.com/dystopic/normalizer/pkg/normalize"
)

const (
	goldenDir  = "../../testdata/golden"
	explainDir = "../../testdata/explain"
)

// The contract without advice gives every golden record byte for byte, and every golden
// rejection's class and details, its message starting with the same problem: the advice of
// package porting (whose golden test pins the whole bytes) only adds to a rejection's message,
// and never changes a record. An InvalidJSON rejection at text of another kind (its Found) has
// the same place; porting words its reason, which says what program writes such text.
func TestGoldenContract(t *testing.T) {
	names := goldenfile.Cases(t, goldenDir)
	require.GreaterOrEqual(t, len(names), 60, "the golden corpus is too small")
	n := normalize.New()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(goldenDir, name+".input.json"))
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join(goldenDir, name+".golden.json"))
			require.NoError(t, err)
			got, err := n.AppendOutput(nil, raw)
			if err == nil {
				assert.Equal(t, string(want), string(got)+"\n")
				return
			}
			var w, g map[string]map[string]any
			require.NoError(t, json.Unmarshal(want, &w))
			require.NoError(t, json.Unmarshal(got, &g))
			wantMsg, gotMsg := w["error"]["message"].(string), g["error"]["message"].(string)
			delete(w["error"], "message")
			delete(g["error"], "message")
			assert.Equal(t, w, g, "class and details")
			var shape *normalize.ResponseShapeError
			if errors.As(err, &shape) {
				assert.True(t, bytes.HasPrefix([]byte(wantMsg), []byte(shape.Problem)), "%q does not start with %q", wantMsg, shape.Problem)
				return
			}
			var syn *normalize.InvalidJSONError
			if errors.As(err, &syn) && syn.Found.Kind != normalize.FoundSyntax { // advice words where such text comes from
				at := strings.TrimSuffix(syn.Error(), syn.Reason)
				assert.True(t, strings.HasPrefix(wantMsg, at), "%q does not start with %q", wantMsg, at)
				return
			}
			assert.Equal(t, wantMsg, gotMsg)
		})
	}
}

// checkIdempotent checks that a record normalizes again to itself.
func checkIdempotent(t testing.TB, record []byte) {
	t.Helper()
	goldenfile.Idempotent(t, record, func(b []byte) ([]byte, error) {
		r, err := normalize.Normalize(b)
		if err != nil {
			return nil, err
		}
		return r.AppendJSON(nil), nil
	})
}

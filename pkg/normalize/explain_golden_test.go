package normalize_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

const explainDir = "../../testdata/explain"

// TestGoldenExplain pins the exact bytes of the explain view (`normalize --explain`,
// ?explain=true) for results a porter sends: testdata/explain/NAME.input.json beside
// NAME.golden.json. Regenerate with `go test ./pkg/normalize -run Golden -update` and review
// with `git diff testdata/`. The text report of the same inputs is pinned by internal/report.
func TestGoldenExplain(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join(explainDir, "*.input.json"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	n := normalize.New(normalize.WithExplain())
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input.json")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(in)
			require.NoError(t, err)
			out, _ := n.AppendOutput(nil, raw)
			got := append(out, '\n')
			goldenPath := filepath.Join(explainDir, name+".golden.json")
			if *update {
				require.NoError(t, os.WriteFile(goldenPath, got, 0o644))
				return
			}
			want, err := os.ReadFile(goldenPath)
			require.NoError(t, err, "no golden file: run go test ./pkg/normalize -run Golden -update")
			require.Equal(t, string(want), string(got), "Normalize(%s) with explain mismatch", name)
		})
	}
}

package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

var update = flag.Bool("update", false, "rewrite the text reports under testdata/explain")

const explainDir = "../../testdata/explain"

// TestGoldenReport pins the text report (`normalize --format text`) of the explain view's
// inputs: testdata/explain/NAME.input.json beside NAME.golden.txt. Regenerate with
// `go test ./internal/report -run Golden -update` and review with `git diff testdata/`.
func TestGoldenReport(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join(explainDir, "*.input.json"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	n := normalize.New(normalize.WithExplain())
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input.json")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(in)
			require.NoError(t, err)
			var got bytes.Buffer
			if res, err := n.Normalize(raw); err != nil {
				Rejection(&got, name+".input.json", err)
			} else {
				Record(&got, name+".input.json", res)
			}
			goldenPath := filepath.Join(explainDir, name+".golden.txt")
			if *update {
				require.NoError(t, os.WriteFile(goldenPath, got.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(goldenPath)
			require.NoError(t, err, "no golden file: run go test ./internal/report -run Golden -update")
			require.Equal(t, string(want), got.String(), "report of %s mismatch", name)
		})
	}
}

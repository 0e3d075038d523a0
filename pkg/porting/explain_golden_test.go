package porting_test

import (
	"testing"

	"github.com/dystopic/normalizer/internal/testkit/goldenfile"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

const explainDir = "../../testdata/explain"

// TestGoldenExplain pins the exact bytes of the explain view (`normalize --explain`,
// ?explain=true) for results a porter sends: testdata/explain/NAME.input.json beside
// NAME.golden.json. Regenerate with `go test ./pkg/porting -run Golden -update` and review
// with `git diff testdata/`. The text report of the same inputs is pinned by internal/report.
func TestGoldenExplain(t *testing.T) {
	n := porting.New(normalize.WithExplain())
	goldenfile.Test(t, explainDir, ".golden.json", *update, "go test ./pkg/porting -run Golden -update", func(_ string, raw []byte) []byte {
		out, _ := n.AppendOutput(nil, raw)
		return append(out, '\n')
	})
}

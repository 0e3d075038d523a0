package report

import (
	"bytes"
	"flag"
	"testing"

	"github.com/dystopic/normalizer/internal/testkit/goldenfile"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

var update = flag.Bool("update", false, "rewrite the text reports under testdata/explain")

const explainDir = "../../testdata/explain"

// TestGoldenReport pins the text report (`normalize --format text`) of the explain view's
// inputs: testdata/explain/NAME.input.json beside NAME.golden.txt. Regenerate with
// `go test ./internal/report -run Golden -update` and review with `git diff testdata/`.
func TestGoldenReport(t *testing.T) {
	n := porting.New(normalize.WithExplain())
	goldenfile.Test(t, explainDir, ".golden.txt", *update, "go test ./internal/report -run Golden -update", func(name string, raw []byte) []byte {
		var out bytes.Buffer
		if res, err := n.Normalize(raw); err != nil {
			Rejection(&out, name+".input.json", err)
		} else {
			Record(&out, name+".input.json", res)
		}
		return out.Bytes()
	})
}

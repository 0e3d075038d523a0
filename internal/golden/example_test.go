package golden_test

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/dystopic/normalizer/internal/golden"
)

// The renderer here upper-cases its input; the command renders with the normalizer.
func ExampleCheck() {
	report, err := golden.Check(context.Background(), []string{"testdata/example"}, golden.Options{
		Render:     func(_ string, input []byte) []byte { return bytes.ToUpper(input) },
		Out:        os.Stdout,
		UpdateHint: func(operand string) string { return "update " + operand },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("failed:", report.Failed, "ignored:", report.Ignored)
	// Output:
	// FAIL testdata/example/changed.input.json: output differs from changed.golden.json; if the new output is right, update testdata/example/changed.input.json
	// --- testdata/example/changed.golden.json
	// +++ normalize testdata/example/changed.input.json
	// @@ -1,4 +1,4 @@
	//  {
	// -  "FINAL_RESPONSE": "OLD",
	// +  "FINAL_RESPONSE": "NEW",
	//    "MESSAGES": []
	//  }
	// 1 passed, 1 failed; 1 file ignored (not NAME.input.json, NAME.golden.json or NAME.golden.txt): testdata/example/README.md
	// failed: 1 ignored: [testdata/example/README.md]
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/dystopic/normalizer/internal/batch"
	"github.com/dystopic/normalizer/internal/golden"
	"github.com/dystopic/normalizer/pkg/normalize"
)

const checkUsage = `Usage: normalizer check [--update] [-v] DIR

The golden-file regression check. Every NAME.input.json under DIR (recursively) must
have beside it NAME.golden.json holding the exact bytes that 'normalizer normalize'
prints for it with the default limits: the record or the error object, then a newline.
Each mismatch is shown as a unified diff (of the indented JSON, so the differing key
stands out); a missing golden file, or a golden file without its input, is a failure.
The last line is "N passed, M failed".

Exit codes: 0 all passed; 1 any failure (or no NAME.input.json under DIR);
2 usage or I/O error.

Flags:
  --update     write NAME.golden.json for every input whose output is new or changed
               (review the result with 'git diff')
  -v           also list the cases that pass
  -h, --help   show this help
`

// runCheck is `normalizer check`.
func runCheck(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	update := fs.Bool("update", false, "")
	verbose := fs.Bool("v", false, "")
	operands, err := parseFlags(fs, args)
	if errors.Is(err, errHelp) {
		fmt.Fprint(stdout, checkUsage)
		return nil
	}
	if err != nil {
		return err
	}
	if len(operands) != 1 {
		return usageErrorf("check: found %d arguments (%s), expected one directory; run 'normalizer check -h'", len(operands), strings.Join(operands, " "))
	}
	dir := operands[0]
	sum, err := golden.Check(dir, golden.Options{
		Render:     renderGolden,
		Update:     *update,
		Verbose:    *verbose,
		Out:        stdout,
		UpdateHint: "run 'normalizer check --update " + dir + "'",
	})
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("check %s: %w", dir, err)}
	}
	fmt.Fprintln(stdout, sum)
	switch {
	case sum.Failed > 0:
		return &exitError{code: exitRejected}
	case sum.Passed == 0:
		return &exitError{code: exitRejected, err: fmt.Errorf("check %s: found no NAME.input.json files; a check that checks nothing does not pass", dir)}
	}
	return nil
}

// goldenNormalizer has the defaults that `normalize` has without flags or environment: the
// golden files must not depend on who runs the check.
var goldenNormalizer = normalize.New()

// renderGolden is exactly what `normalizer normalize FILE` prints for input.
func renderGolden(input []byte) []byte {
	out, _ := batch.AppendLine(nil, goldenNormalizer, input)
	return out
}

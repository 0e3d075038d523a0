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

const checkUsage = `Usage: normalizer check [--update] [-v] DIR|FILE...

The golden-file regression check. Each operand is a directory or one case's input file:
every NAME.input.json under a DIR (recursively), and every FILE named NAME.input.json,
must have beside it NAME.golden.json holding the exact bytes that 'normalizer normalize'
prints for it with the default limits: the record or the error object, then a newline.
Each mismatch is shown as a unified diff (of the indented JSON, so the differing key
stands out); a missing golden file, or a golden file without its input, is a failure.

Under a DIR, a file whose name ends in .input.json or .golden.json in another letter
case (notes.input.JSON) is a failure too: it looks like a case but would never be
checked. Every other file is ignored, and the summary counts and names them.

The last line is "N passed, M failed", followed by "; K files ignored (...): PATH, ..."
when a DIR holds other files.

Exit codes: 0 all passed; 1 any failure (or a DIR with no NAME.input.json under it);
2 usage or I/O error (an operand that is neither a directory nor a NAME.input.json file).

Examples:
  normalizer check testdata/golden
  normalizer check --update testdata/golden/final-response-array.input.json   # one case

Flags:
  --update     write NAME.golden.json for every input whose output is new or changed
               (review the result with 'git diff')
  -v           also list the cases that pass, and every ignored file
  -h, --help   show this help
`

// runCheck is `normalizer check`: internal/golden does the check and writes the report;
// this maps what it found to exit codes.
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
	if len(operands) == 0 {
		return usageErrorf("check: found no arguments, expected one or more directories or NAME.input.json files; run 'normalizer check -h'")
	}
	rep, err := golden.Check(operands, golden.Options{
		Render: renderGolden, Update: *update, Verbose: *verbose, Out: stdout,
		UpdateHint: func(operand string) string { return "run 'normalizer check --update " + operand + "'" },
		ListHint:   "-v lists them all",
	})
	switch {
	case err != nil:
		return usageErrorf("check %w", err)
	case len(rep.Empty) > 0:
		return &exitError{code: exitRejected, err: fmt.Errorf("check %s: found no NAME.input.json files; a check that checks nothing does not pass", strings.Join(rep.Empty, ", "))}
	case rep.Failed > 0:
		return &exitError{code: exitRejected}
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

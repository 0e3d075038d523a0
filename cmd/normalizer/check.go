package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/dystopic/normalizer/internal/batch"
	"github.com/dystopic/normalizer/internal/ctxio"
	"github.com/dystopic/normalizer/internal/golden"
	"github.com/dystopic/normalizer/internal/report"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

const checkUsage = `Usage: normalizer check [--update] [--explain [--format text]] [-v] DIR|FILE...

The golden-file regression check. Each operand is a directory or one case's input file:
every NAME.input.json under a DIR (recursively), and every FILE named NAME.input.json,
must have beside it NAME.golden.json holding the exact bytes that 'normalizer normalize'
prints for it with the default limits: the record or the error object, then a newline.
With --explain, NAME.golden.json holds what 'normalizer normalize --explain' prints (the
record with "diagnostics"); with --format text, NAME.golden.txt holds the text report.
Each mismatch is shown as a unified diff (of the indented JSON, so the differing key
stands out); a missing golden file, or a golden file without its input, is a failure. So is a
case file that cannot be read (a link to nothing or in a loop, a named pipe, an input over
20 MiB), with its reason: the check goes on with the other cases.

The mode is never guessed: a NAME.golden.json of the other kind (an explain view in a
plain check, a plain record with --explain) fails with the flag that checks it, and
--update leaves it alone. testdata holds both kinds, so check it in three runs:
  normalizer check testdata/golden
  normalizer check --explain testdata/explain
  normalizer check --explain --format text testdata/explain

Under a DIR, a file whose name ends in .input.json, .golden.json or .golden.txt in
another letter case (notes.input.JSON) is a failure too: it looks like a case but would
never be checked. Every other file is ignored, and the summary counts and names them.

The last line is "N passed, M failed", followed by what was not checked: a DIR with no
cases, golden files of the other format, and "K files ignored (...): PATH, ...". With
--update, each golden file written is named ("wrote PATH") and the line before the last
says "N golden files written, M unchanged".

Exit codes: 0 all passed; 1 any failure (or a DIR with no NAME.input.json under it);
2 usage or I/O error (an operand that is neither a directory nor a NAME.input.json file,
a golden file or the report could not be written); 130 or 143 interrupted by SIGINT or SIGTERM.

Examples:
  normalizer check testdata/golden
  normalizer check --update testdata/golden/final-response-array.input.json   # one case

Flags:
  --update          write the golden file of every input whose output is new or changed
                    (review the result with 'git diff')
  --explain         compare the explain view: what 'normalize --explain' prints
  --format FORMAT   json (default): NAME.golden.json; text: NAME.golden.txt, the report
                    of 'normalize --format text' (implies --explain)
  -v                also list the cases that pass, and every ignored file
  -h, --help        show this help
`

// checkMode is what a check compares: the plain record, the explain view, or its text report.
type checkMode struct {
	explain, text bool
}

// flags are the mode's flags, as a command line would give them.
func (m checkMode) flags() string {
	switch {
	case m.text:
		return " --explain --format text"
	case m.explain:
		return " --explain"
	}
	return ""
}

// runCheck is `normalizer check`: internal/golden does the check and writes the report;
// this maps what it found to exit codes.
func runCheck(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	update := fs.Bool("update", false, "")
	verbose := fs.Bool("v", false, "")
	explain := fs.Bool("explain", false, "")
	format := fs.String("format", "json", "")
	operands, err := parseFlags(fs, args)
	if errors.Is(err, errHelp) {
		fmt.Fprint(stdout, checkUsage)
		return nil
	}
	if err != nil {
		return err
	}
	if *format != "json" && *format != "text" {
		return usageErrorf("check: --format %q: expected json or text", *format)
	}
	if len(operands) == 0 {
		return usageErrorf("check: found no arguments, expected one or more directories or NAME.input.json files; run 'normalizer check -h'")
	}
	mode := checkMode{explain: *explain || *format == "text", text: *format == "text"}
	opts := golden.Options{
		Render: mode.render, Update: *update, Verbose: *verbose, Out: ctxio.NewWriter(ctx, stdout),
		UpdateHint: func(in string) string { return "run 'normalizer check" + mode.flags() + " --update " + in + "'" },
		OtherHint:  otherHint,
		ListHint:   "-v lists them all",
		Command:    "normalize" + mode.flags(),
		MaxBytes:   normalize.DefaultMaxBytes, // a larger input is rejected unread: no case
	}
	if mode.text {
		opts.Suffix = golden.TextSuffix
	} else {
		opts.WrongMode = mode.wrongMode(*update)
	}
	rep, err := golden.Check(ctx, operands, opts)
	var werr *golden.WriteError
	switch {
	case stoppedBy(ctx, err):
		return interrupted(ctx, "check ", "after "+checkedSoFar(rep))
	case errors.As(err, &werr):
		return &exitError{code: exitUsage, err: werr}
	case err != nil:
		return usageErrorf("check %w", err)
	case len(rep.Empty) > 0:
		return &exitError{code: exitRejected, err: fmt.Errorf("check %s: found no NAME.input.json files; a check that checks nothing does not pass", strings.Join(rep.Empty, ", "))}
	case rep.Failed > 0:
		return &exitError{code: exitRejected}
	}
	return nil
}

// otherHint says which run compares the golden files of suffix, for the summary.
func otherHint(suffix string) string {
	if suffix == golden.TextSuffix {
		return "check --explain --format text compares them"
	}
	return "check, or check --explain, compares them"
}

// The normalizers of the golden check have the defaults that `normalize` has without flags
// or environment: the golden files must not depend on who runs the check.
var (
	goldenNormalizer  = porting.New()
	explainNormalizer = porting.New(normalize.WithExplain())
)

// render is exactly what `normalizer normalize` prints for input with the mode's flags. The
// text report names the file by its base name, as the golden reports do (they are written
// in the case's directory, and a corpus can move).
func (m checkMode) render(inPath string, input []byte) []byte {
	if !m.text {
		n := goldenNormalizer
		if m.explain {
			n = explainNormalizer
		}
		out, _ := batch.AppendLine(nil, n, input)
		return out
	}
	var buf bytes.Buffer
	name := filepath.Base(inPath)
	if res, err := explainNormalizer.Normalize(input); err != nil {
		report.Rejection(&buf, name, withCommandHint(err))
	} else {
		report.Record(&buf, name, res)
	}
	return buf.Bytes()
}

// wrongMode tells a NAME.golden.json of the other kind: an explain view (a top-level
// "diagnostics") in a plain check, or a plain record (final_response without
// "diagnostics") with --explain. Comparing it would show a diff of every diagnostic, and
// --update would overwrite one corpus with the other: the case fails with the flag to use.
// Error objects are the same in both modes, but for the explain view's "advice" on a
// rejection whose message the contract fixes: one with it is an explain golden.
func (m checkMode) wrongMode(update bool) func(inPath string, want []byte) string {
	return func(inPath string, want []byte) string {
		var top map[string]json.RawMessage
		if json.Unmarshal(want, &top) != nil {
			return ""
		}
		_, diagnostics := top["diagnostics"]
		var rejection map[string]json.RawMessage
		advice := json.Unmarshal(top["error"], &rejection) == nil && rejection["advice"] != nil
		_, record := top["final_response"]
		verb, up := "check", ""
		if update {
			verb, up = "update", " --update"
		}
		name := filepath.Base(strings.TrimSuffix(inPath, golden.InputSuffix)) + golden.GoldenSuffix
		switch {
		case !m.explain && diagnostics:
			return fmt.Sprintf("%s is an explain golden (it has a top-level \"diagnostics\"), not a plain record; %s it with --explain: normalizer check --explain%s %s", name, verb, up, inPath)
		case !m.explain && advice:
			return fmt.Sprintf("%s is an explain golden (its error object has \"advice\"), not a plain one; %s it with --explain: normalizer check --explain%s %s", name, verb, up, inPath)
		case m.explain && record && !diagnostics:
			return fmt.Sprintf("%s is a plain golden (a record without \"diagnostics\"), not an explain view; %s it without --explain: normalizer check%s %s", name, verb, up, inPath)
		}
		return ""
	}
}

// checkedSoFar says how far an interrupted check got: cases, and with --update the golden files
// written (counted among the passed).
func checkedSoFar(rep golden.Report) string {
	n := rep.Passed + rep.Failed
	cases := "cases"
	if n == 1 {
		cases = "case"
	}
	s := fmt.Sprintf("%d %s (%d passed, %d failed", n, cases, rep.Passed, rep.Failed)
	if rep.Written > 0 {
		s += fmt.Sprintf("; %d golden files written", rep.Written)
	}
	return s + ")"
}

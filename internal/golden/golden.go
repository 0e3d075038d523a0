// Package golden is the golden-file regression check: every NAME.input.json has beside it
// NAME.golden.json, the exact bytes the program prints for that input. Check takes
// directories and single cases, compares each case, shows each mismatch as a unified diff
// (or writes the golden files instead), and reports the files under a directory that it
// does not check.
package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// File name suffixes of a case.
const (
	InputSuffix  = ".input.json"
	GoldenSuffix = ".golden.json"
)

// namedIgnored is how many ignored files the summary line names; Verbose lists them all.
const namedIgnored = 5

// Options configure Check.
type Options struct {
	// Render returns the exact bytes expected for an input.
	Render func(input []byte) []byte
	// Update writes every golden file that is missing or differs, instead of failing.
	Update bool
	// Verbose reports passing cases too, and lists every ignored file.
	Verbose bool
	// Out receives the report: one block per failure (or written file), with Verbose the
	// passing cases and the ignored files, then the summary line.
	Out io.Writer
	// UpdateHint, if set, is shown with a missing or stale golden file: how to write it,
	// given the operand (directory or file) that holds the case.
	UpdateHint func(operand string) string
	// ListHint, if set, is shown when the summary line names only some of the ignored files
	// and Verbose is off: how to list them all.
	ListHint string
}

// Report is the outcome of a check.
type Report struct {
	Passed  int // the golden file matched (with Update: matched, or was written)
	Failed  int // mismatch, missing golden file, golden file without input, or a misnamed file
	Written int // golden files written (Update only)
	// Misnamed are the files under a directory whose name ends in a case suffix in another
	// letter case (notes.input.JSON): not checked, and each one a failure.
	Misnamed []string
	// Ignored are the other files under a directory that are neither an input nor a golden
	// file: not checked, and no failure.
	Ignored []string
	// Empty are the directory operands with no NAME.input.json under them.
	Empty []string
}

// Check checks every case that the operands name, each operand a directory (every
// NAME.input.json under it, recursively, in lexical order of the paths) or one case's
// NAME.input.json. Every operand is looked at before any case is checked, and an operand that
// another one covers is checked once. The report goes to opts.Out as the check goes.
//
// The error, always an *OperandError, is an operand that is neither a directory nor a regular
// NAME.input.json file, or a file that cannot be read or written; failed cases are counted
// in the Report instead.
func Check(operands []string, opts Options) (Report, error) {
	targets, err := resolve(operands)
	if err != nil {
		return Report{}, err
	}
	var r Report
	for _, t := range targets {
		if err := r.checkTarget(t, opts); err != nil {
			return r, &OperandError{Operand: t.path, Err: err}
		}
	}
	if opts.Verbose {
		for _, path := range r.Ignored {
			fmt.Fprintf(opts.Out, "skip %s\n", path)
		}
	}
	fmt.Fprintf(opts.Out, "%d passed, %d failed%s\n", r.Passed, r.Failed, r.ignoredNote(opts))
	return r, nil
}

// checkTarget checks one operand and adds it to r.
func (r *Report) checkTarget(t target, opts Options) error {
	if !t.dir {
		return r.checkCase(t.path, t.path, opts)
	}
	c, err := scanDir(t.path)
	if err != nil {
		return err
	}
	for _, in := range c.inputs {
		if err := r.checkCase(in, t.path, opts); err != nil {
			return err
		}
	}
	for _, g := range c.orphans {
		r.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: no %s beside it; add the input or delete the stale golden file\n",
			g, filepath.Base(strings.TrimSuffix(g, GoldenSuffix)+InputSuffix))
	}
	for _, path := range c.misnamed {
		r.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: not checked: %s\n", path, misnamedReason(filepath.Base(path)))
	}
	r.Misnamed = append(r.Misnamed, c.misnamed...)
	r.Ignored = append(r.Ignored, c.ignored...)
	if len(c.inputs) == 0 {
		r.Empty = append(r.Empty, t.path)
	}
	return nil
}

func goldenPath(input string) string { return strings.TrimSuffix(input, InputSuffix) + GoldenSuffix }

// checkCase checks the case of one input file, reports it and counts it; operand is the
// directory or file that named the case, for the update hint.
func (r *Report) checkCase(inPath, operand string, opts Options) error {
	input, err := os.ReadFile(inPath)
	if err != nil {
		return err
	}
	got := opts.Render(input)
	gPath := goldenPath(inPath)
	want, err := os.ReadFile(gPath)
	missing := errors.Is(err, fs.ErrNotExist)
	switch {
	case err != nil && !missing:
		return err
	case !missing && bytes.Equal(got, want):
		r.Passed++
		if opts.Verbose {
			fmt.Fprintf(opts.Out, "ok   %s\n", inPath)
		}
	case opts.Update:
		if err := os.WriteFile(gPath, got, 0o644); err != nil {
			return err
		}
		r.Passed, r.Written = r.Passed+1, r.Written+1
		fmt.Fprintf(opts.Out, "wrote %s\n", gPath)
	case missing:
		r.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: no golden file %s%s\n", inPath, filepath.Base(gPath), updateHint(opts, operand))
	default:
		r.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: output differs from %s%s\n", inPath, filepath.Base(gPath), updateHint(opts, operand))
		fmt.Fprint(opts.Out, Diff(gPath, "normalize "+inPath, want, got))
	}
	return nil
}

func updateHint(opts Options, operand string) string {
	if opts.UpdateHint == nil {
		return ""
	}
	return "; if the new output is right, " + opts.UpdateHint(operand)
}

// ignoredNote is the end of the summary line when the directories hold files that are not
// checked: how many, and the first few of them (Verbose has listed them all above).
func (r *Report) ignoredNote(opts Options) string {
	n := len(r.Ignored)
	if n == 0 {
		return ""
	}
	files := "files"
	if n == 1 {
		files = "file"
	}
	note := fmt.Sprintf("; %d %s ignored (not NAME.input.json or NAME.golden.json): ", n, files)
	if n <= namedIgnored {
		return note + strings.Join(r.Ignored, ", ")
	}
	more := fmt.Sprintf(" and %d more", n-namedIgnored)
	if !opts.Verbose && opts.ListHint != "" {
		more += " (" + opts.ListHint + ")"
	}
	return note + strings.Join(r.Ignored[:namedIgnored], ", ") + more
}

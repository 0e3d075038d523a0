// Package golden is the golden-file regression check: every NAME.input.json has beside it
// NAME.golden.json, the exact bytes the program prints for that input. Check takes
// directories and single cases, compares each case, shows each mismatch as a unified diff
// (or writes the golden files instead), and reports the files under a directory that it
// does not check.
package golden

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// File name suffixes of a case: its input, and the golden files of its outputs. A case may
// have a golden file of each suffix; a run compares one of them (Options.Suffix).
const (
	InputSuffix  = ".input.json"
	GoldenSuffix = ".golden.json"
	TextSuffix   = ".golden.txt"
)

// goldenSuffixes are the suffixes of golden files, for telling a case's files from others.
var goldenSuffixes = []string{GoldenSuffix, TextSuffix}

// namedIgnored is how many ignored files the summary line names; Verbose lists them all.
const namedIgnored = 5

// Options configure Check.
type Options struct {
	// Render returns the exact bytes expected for the input read from the file inPath.
	Render func(inPath string, input []byte) []byte
	// Suffix is the suffix of the golden files this run compares: GoldenSuffix (the default,
	// for "") or TextSuffix. A case's golden file of the other suffix is not compared; the
	// summary counts them.
	Suffix string
	// WrongMode, if set, is called with a golden file's bytes when they differ from the
	// output. A non-empty answer says the file was written by another mode of the check, and
	// which one checks it: the case fails with that reason instead of a diff, and Update
	// leaves the file as it is (overwriting it would destroy the other mode's golden file).
	WrongMode func(inPath string, golden []byte) string
	// Update writes every golden file that is missing or differs, instead of failing.
	Update bool
	// Verbose reports passing cases too, and lists every ignored file.
	Verbose bool
	// Out receives the report: one block per failure (or written file), with Verbose the
	// passing cases and the ignored files, then the summary line.
	Out io.Writer
	// UpdateHint, if set, is shown with a missing or stale golden file: how to write it,
	// given the case's input file (updating a whole directory would bless its other
	// failures too).
	UpdateHint func(inPath string) string
	// OtherHint, if set, follows the count of golden files of another suffix in the summary:
	// what compares them, given their suffix.
	OtherHint func(suffix string) string
	// ListHint, if set, is shown when the summary line names only some of the ignored files
	// and Verbose is off: how to list them all.
	ListHint string
	// MaxBytes is the most a case's input may hold; 0 is no limit. A larger input is a failed
	// case, read no further than MaxBytes+1 bytes. A golden file is read up to MaxBytes or
	// the output's size, whichever is more: one larger than that differs from the output.
	MaxBytes int64
	// Command is the command line, without its input file, whose output Render gives: a
	// mismatch's diff is headed "+++ Command PATH" (PATH the case's input). "normalize" if
	// empty; a run with mode flags names them ("normalize --explain").
	Command string
}

// Report is the outcome of a check.
type Report struct {
	Passed int // the golden file matched (with Update: matched, or was written)
	// Failed counts mismatches, missing golden files, golden files without their input,
	// misnamed files, and case files or directories that could not be read.
	Failed  int
	Written int // golden files written (Update only)
	// Misnamed are the files under a directory whose name ends in a case suffix in another
	// letter case (notes.input.JSON): not checked, and each one a failure.
	Misnamed []string
	// Ignored are the other files under a directory that are neither an input nor a golden
	// file: not checked, and no failure.
	Ignored []string
	// Empty are the directory operands with no NAME.input.json under them.
	Empty []string
	// Other counts the golden files of the cases checked that have another suffix than the
	// run's (NAME.golden.txt in a run that compares NAME.golden.json): not compared.
	Other int
}

// Check checks every case that the operands name, each operand a directory (every
// NAME.input.json under it, recursively, in lexical order of the paths) or one case's
// NAME.input.json. Every operand is looked at before any case is checked, and an operand that
// another one covers is checked once. The report goes to opts.Out as the check goes.
//
// The error, always an *OperandError, is an operand that is neither a directory nor a regular
// NAME.input.json file, or a golden file that cannot be written. Failed cases are counted in
// the Report instead, among them every case whose files cannot be read (a symbolic link to
// nothing or in a loop, a file that cannot be opened or read, a named pipe, a file over
// MaxBytes) and every directory under an operand that cannot be listed: each is one FAIL line
// with its reason, and the check goes on.
//
// With Update, the line before the summary says what was written: "N golden files written, M
// unchanged" (the cases that passed without a write).
//
// A failed write of the report stops the check with a *WriteError: a report that cannot be
// read must not end in a passing exit code. When ctx is done the check stops before the next
// case and returns ctx's error, with the report of the cases checked so far and no summary line.
func Check(ctx context.Context, operands []string, opts Options) (Report, error) {
	targets, err := resolve(operands)
	if err != nil {
		return Report{}, err
	}
	if opts.Suffix == "" {
		opts.Suffix = GoldenSuffix
	}
	if opts.Command == "" {
		opts.Command = "normalize"
	}
	w := &errWriter{w: opts.Out}
	opts.Out = w
	var r Report
	for _, t := range targets {
		if err := r.checkTarget(ctx, t, opts, w); err != nil {
			return r, err
		}
	}
	if opts.Verbose {
		for _, path := range r.Ignored {
			fmt.Fprintf(opts.Out, "skip %s\n", path)
		}
	}
	if opts.Update {
		fmt.Fprintf(opts.Out, "%s written, %d unchanged\n", plural(r.Written, "golden file"), r.Passed-r.Written)
	}
	fmt.Fprintf(opts.Out, "%d passed, %d failed%s%s%s\n", r.Passed, r.Failed, r.emptyNote(), r.otherNote(opts), r.ignoredNote(opts))
	if w.err != nil {
		return r, &WriteError{Err: w.err}
	}
	return r, nil
}

// plural is "1 NOUN" or "N NOUNs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// WriteError is a failed write of the report (a full disk, a closed pipe).
type WriteError struct{ Err error }

func (e *WriteError) Error() string { return "write output: " + e.Err.Error() }

func (e *WriteError) Unwrap() error { return e.Err }

// errWriter keeps the first write error, and writes nothing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (w *errWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.w.Write(p)
	w.err = err
	return n, err
}

// checkTarget checks one operand and adds it to r. The error is an *OperandError, a
// *WriteError once w has failed, or ctx's error once it is done.
func (r *Report) checkTarget(ctx context.Context, t target, opts Options, w *errWriter) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !t.dir {
		if err := r.checkCase(t.path, opts); err != nil {
			return &OperandError{Operand: t.path, Err: err}
		}
		r.countOthers([]string{t.path}, opts)
		return w.failed()
	}
	c, err := scanDir(t.path)
	if err != nil {
		return &OperandError{Operand: t.path, Err: err}
	}
	for _, u := range c.unlisted {
		r.fail(opts, u.path, "not checked: cannot list the directory: "+pathless(u.err).Error())
	}
	for _, in := range c.inputs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := r.checkCase(in, opts); err != nil {
			return &OperandError{Operand: t.path, Err: err}
		}
		if err := w.failed(); err != nil {
			return err
		}
	}
	r.countOthers(c.inputs, opts)
	for _, g := range c.orphans {
		r.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: no %s beside it; add the input or delete the stale golden file\n",
			g, filepath.Base(inputOf(g)))
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

// failed is the report's write error, as a *WriteError, or nil.
func (w *errWriter) failed() error {
	if w.err == nil {
		return nil
	}
	return &WriteError{Err: w.err}
}

// goldenPath is the golden file of suffix beside the input file input.
func goldenPath(input, suffix string) string { return strings.TrimSuffix(input, InputSuffix) + suffix }

// inputOf is the input file beside a golden file of any suffix.
func inputOf(golden string) string {
	for _, suffix := range goldenSuffixes {
		if strings.HasSuffix(golden, suffix) {
			return strings.TrimSuffix(golden, suffix) + InputSuffix
		}
	}
	return golden
}

// countOthers counts the golden files beside inputs whose suffix is not the run's. One that is
// not a regular file (a symbolic link counts as what it points to) is a failure, as it would be
// in the run that compares it; one that is not there, a link to nothing included, is not
// counted.
func (r *Report) countOthers(inputs []string, opts Options) {
	for _, in := range inputs {
		for _, s := range goldenSuffixes {
			if s == opts.Suffix {
				continue
			}
			path := goldenPath(in, s)
			st, err := os.Stat(path)
			switch {
			case errors.Is(err, fs.ErrNotExist):
			case err != nil:
				r.fail(opts, path, "not counted: "+pathless(err).Error())
			case !st.Mode().IsRegular():
				r.fail(opts, path, "not counted: found "+fileKind(st.Mode())+"; expected a regular file")
			default:
				r.Other++
			}
		}
	}
}

// fail counts a failure and reports it: "FAIL PATH: REASON".
func (r *Report) fail(opts Options, path, reason string) {
	r.Failed++
	fmt.Fprintf(opts.Out, "FAIL %s: %s\n", path, reason)
}

// checkCase checks the case of one input file, reports it and counts it. A case file that
// cannot be read fails the case; the error is a golden file that could not be written.
func (r *Report) checkCase(inPath string, opts Options) error {
	input, err := readCase(inPath, opts.MaxBytes)
	if errors.Is(err, fs.ErrNotExist) {
		err = &caseError{why: "it is gone"} // it was there when the directory was listed
	}
	if err != nil {
		r.fail(opts, inPath, "not checked: "+err.Error())
		return nil
	}
	got := opts.Render(inPath, input)
	gPath := goldenPath(inPath, opts.Suffix)
	limit := opts.MaxBytes
	if limit > 0 {
		limit = max(limit, int64(len(got)))
	}
	want, err := readCase(gPath, limit)
	missing := errors.Is(err, fs.ErrNotExist)
	var ce *caseError
	tooLarge := errors.As(err, &ce) && ce.tooLarge
	wrong := ""
	if err == nil && !bytes.Equal(got, want) && opts.WrongMode != nil {
		wrong = opts.WrongMode(inPath, want)
	}
	switch {
	case err != nil && !missing && !tooLarge:
		r.fail(opts, inPath, "not checked: "+filepath.Base(gPath)+": "+err.Error())
	case err == nil && bytes.Equal(got, want):
		r.Passed++
		if opts.Verbose {
			fmt.Fprintf(opts.Out, "ok   %s\n", inPath)
		}
	case wrong != "":
		r.Failed++
		if opts.Update {
			wrong = "not updated: " + wrong
		}
		fmt.Fprintf(opts.Out, "FAIL %s: %s\n", inPath, wrong)
	case opts.Update:
		if err := os.WriteFile(gPath, got, 0o644); err != nil {
			return err
		}
		r.Passed, r.Written = r.Passed+1, r.Written+1
		fmt.Fprintf(opts.Out, "wrote %s\n", gPath)
	case missing:
		r.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: no golden file %s%s\n", inPath, filepath.Base(gPath), updateHint(opts, inPath))
	case tooLarge:
		r.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: output differs from %s, which holds more than %d bytes, the output %d%s\n",
			inPath, filepath.Base(gPath), limit, len(got), updateHint(opts, inPath))
	default:
		r.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: output differs from %s%s\n", inPath, filepath.Base(gPath), updateHint(opts, inPath))
		fmt.Fprint(opts.Out, Diff(gPath, opts.Command+" "+inPath, want, got))
	}
	return nil
}

func updateHint(opts Options, inPath string) string {
	if opts.UpdateHint == nil {
		return ""
	}
	return "; if the new output is right, " + opts.UpdateHint(inPath)
}

// emptyNote is the end of the summary line when a directory held no case: the reason the
// check fails though nothing failed.
func (r *Report) emptyNote() string {
	switch len(r.Empty) {
	case 0:
		return ""
	case 1:
		return "; no cases found in " + r.Empty[0] + " (no NAME.input.json under it)"
	}
	return "; no cases found in " + strings.Join(r.Empty, ", ") + " (no NAME.input.json under them)"
}

// otherNote is the end of the summary line when the cases checked have golden files of
// another suffix, which this run did not compare.
func (r *Report) otherNote(opts Options) string {
	if r.Other == 0 {
		return ""
	}
	other := GoldenSuffix
	if opts.Suffix == GoldenSuffix {
		other = TextSuffix
	}
	files := "files"
	if r.Other == 1 {
		files = "file"
	}
	note := fmt.Sprintf("; %d NAME%s %s not compared", r.Other, other, files)
	if opts.OtherHint != nil {
		note += " (" + opts.OtherHint(other) + ")"
	}
	return note
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
	note := fmt.Sprintf("; %d %s ignored (not NAME.input.json, NAME.golden.json or NAME.golden.txt): ", n, files)
	if n <= namedIgnored {
		return note + strings.Join(r.Ignored, ", ")
	}
	more := fmt.Sprintf(" and %d more", n-namedIgnored)
	if !opts.Verbose && opts.ListHint != "" {
		more += " (" + opts.ListHint + ")"
	}
	return note + strings.Join(r.Ignored[:namedIgnored], ", ") + more
}

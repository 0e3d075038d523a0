package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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

// namedIgnored is how many ignored files the summary names; -v lists them all.
const namedIgnored = 5

// checkTarget is one operand of check: a directory to walk, or the input file of one case.
type checkTarget struct {
	path string
	abs  string // for finding operands that another operand already covers
	dir  bool
}

// dirSurvey is what a DIR operand holds besides the cases golden.Check reads: the files that
// look like a case but are not named like one, and all the others.
type dirSurvey struct {
	inputs   int      // NAME.input.json files
	misnamed []string // a case suffix in another letter case: a failure
	ignored  []string // every other file (symlinks to directories too: WalkDir does not follow them)
}

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
	if len(operands) == 0 {
		return usageErrorf("check: found no arguments, expected one or more directories or NAME.input.json files; run 'normalizer check -h'")
	}
	targets, err := checkTargets(operands)
	if err != nil {
		return err
	}
	opts := golden.Options{Render: renderGolden, Update: *update, Verbose: *verbose, Out: stdout}
	sum, rest, err := checkAll(targets, opts)
	if err != nil {
		return err
	}
	if *verbose {
		for _, path := range rest.ignored {
			fmt.Fprintf(stdout, "skip %s\n", path)
		}
	}
	fmt.Fprintln(stdout, sum.String()+ignoredNote(rest.ignored, *verbose))
	switch {
	case len(rest.empty) > 0:
		return &exitError{code: exitRejected, err: fmt.Errorf("check %s: found no NAME.input.json files; a check that checks nothing does not pass", strings.Join(rest.empty, ", "))}
	case sum.Failed > 0:
		return &exitError{code: exitRejected}
	}
	return nil
}

// unchecked is what the DIR operands hold that no case covers.
type unchecked struct {
	ignored []string // files that are neither inputs nor golden files
	empty   []string // DIR operands with no NAME.input.json under them
}

// checkAll checks every operand in turn, and sums them up.
func checkAll(targets []checkTarget, opts golden.Options) (golden.Summary, unchecked, error) {
	var sum golden.Summary
	var rest unchecked
	for _, t := range targets {
		sv, err := checkOne(t, opts, &sum)
		if err != nil {
			return sum, rest, &exitError{code: exitUsage, err: fmt.Errorf("check %s: %w", t.path, err)}
		}
		rest.ignored = append(rest.ignored, sv.ignored...)
		if t.dir && sv.inputs == 0 {
			rest.empty = append(rest.empty, t.path)
		}
	}
	return sum, rest, nil
}

// checkOne checks one operand, adds its cases to sum, and returns what else a DIR holds.
func checkOne(t checkTarget, opts golden.Options, sum *golden.Summary) (dirSurvey, error) {
	opts.UpdateHint = "run 'normalizer check --update " + t.path + "'"
	if !t.dir {
		return dirSurvey{inputs: 1}, checkCase(t.path, opts, sum)
	}
	sv, err := surveyDir(t.path)
	if err != nil {
		return sv, err
	}
	s, err := golden.Check(t.path, opts)
	sum.Passed, sum.Failed, sum.Written = sum.Passed+s.Passed, sum.Failed+s.Failed, sum.Written+s.Written
	if err != nil {
		return sv, err
	}
	for _, path := range sv.misnamed {
		sum.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: not checked: %s\n", path, misnamedReason(filepath.Base(path)))
	}
	return sv, nil
}

// checkTargets looks at every operand before anything is checked, so a typo in the last one
// fails at once rather than after pages of output. An operand that another one already
// covers (the same path twice, a case or a directory inside a DIR operand) is dropped, so
// each case is checked, counted and updated once.
func checkTargets(operands []string) ([]checkTarget, error) {
	all := make([]checkTarget, 0, len(operands))
	for _, op := range operands {
		t, err := checkOperand(op)
		if err != nil {
			return nil, &exitError{code: exitUsage, err: fmt.Errorf("check %s: %w", op, err)}
		}
		all = append(all, t)
	}
	var kept []checkTarget
	for i, t := range all {
		if !coveredByOther(all, i) {
			kept = append(kept, t)
		}
	}
	return kept, nil
}

const wantOperand = "expected a directory or a NAME.input.json file"

// checkOperand says whether op is a directory or a case's input file, and if neither, what
// it is instead.
func checkOperand(op string) (checkTarget, error) {
	st, err := os.Stat(op)
	if errors.Is(err, fs.ErrNotExist) {
		return checkTarget{}, fmt.Errorf("no such file or directory; %s", wantOperand)
	}
	if err != nil {
		return checkTarget{}, err
	}
	abs, err := realPath(op)
	if err != nil {
		return checkTarget{}, err
	}
	t := checkTarget{path: op, abs: abs, dir: st.IsDir()}
	if t.dir {
		t.path = followRoot(op)
		return t, nil
	}
	if !st.Mode().IsRegular() {
		return t, fmt.Errorf("found %s; %s", fileKind(st.Mode()), wantOperand)
	}
	name := filepath.Base(op)
	switch {
	case strings.HasSuffix(name, golden.InputSuffix):
		return t, nil
	case strings.HasSuffix(name, golden.GoldenSuffix):
		in := strings.TrimSuffix(op, golden.GoldenSuffix) + golden.InputSuffix
		return t, fmt.Errorf("found a golden file; %s: name the case's input, %s", wantOperand, in)
	case misnamedInput(name) != "":
		return t, fmt.Errorf("found a name ending in %s; %s (the suffix is case-sensitive): rename it %s",
			name[len(name)-len(golden.InputSuffix):], wantOperand, misnamedInput(name))
	}
	return t, fmt.Errorf("found a file not named NAME.input.json; %s", wantOperand)
}

// followRoot makes a DIR operand that is a symbolic link walkable: filepath.WalkDir does not
// follow a link at its root (it would report the link itself as the only file), but the
// system resolves a path that ends in a separator.
func followRoot(dir string) string {
	st, err := os.Lstat(dir)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 || os.IsPathSeparator(dir[len(dir)-1]) {
		return dir
	}
	return dir + string(filepath.Separator)
}

// fileKind names what a non-regular, non-directory file is, for errors.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file (" + m.Type().String() + ")"
}

// coveredByOther reports whether another operand already checks all[i]: an earlier one with
// the same path, or a directory that holds it.
func coveredByOther(all []checkTarget, i int) bool {
	for j, o := range all {
		switch {
		case j == i:
		case o.abs == all[i].abs:
			if j < i {
				return true
			}
		case o.dir && within(all[i].abs, o.abs):
			return true
		}
	}
	return false
}

// within reports whether path lies under dir (both absolute and clean).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// surveyDir walks dir as golden.Check does and sorts out the files it does not check.
func surveyDir(dir string) (dirSurvey, error) {
	var sv dirSurvey
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		switch {
		case d.IsDir():
		case strings.HasSuffix(name, golden.InputSuffix):
			sv.inputs++
			return regularFile(path, d)
		case strings.HasSuffix(name, golden.GoldenSuffix):
			return regularFile(path, d)
		case misnamedReason(name) != "":
			sv.misnamed = append(sv.misnamed, path)
		default:
			sv.ignored = append(sv.ignored, path)
		}
		return nil
	})
	return sv, err
}

// regularFile refuses a case file that golden.Check would block on or fail to read: a named
// pipe, a socket or a device (a symbolic link counts as what it points to).
func regularFile(path string, d fs.DirEntry) error {
	if d.Type().IsRegular() {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: found %s; expected a regular file", path, fileKind(st.Mode()))
	}
	return nil
}

// misnamedReason explains why a name that ends in a case suffix in another letter case
// (".input.JSON", ".Golden.json") is not checked, or is "" for any other name. The suffixes
// are matched exactly, as on a case-sensitive file system; such a file is almost surely a
// case that someone meant to be checked, so it is a failure rather than an ignored file.
func misnamedReason(name string) string {
	for _, suffix := range []string{golden.InputSuffix, golden.GoldenSuffix} {
		if fixed := misnamed(name, suffix); fixed != "" {
			return fmt.Sprintf("the name ends in %s, not %s (the suffix is case-sensitive); rename it %s",
				name[len(name)-len(suffix):], suffix, fixed)
		}
	}
	return ""
}

// misnamedInput is name with its suffix spelled .input.json when it ends in that suffix in
// another letter case, else "".
func misnamedInput(name string) string { return misnamed(name, golden.InputSuffix) }

// misnamed is name with suffix spelled right, if name ends in suffix in another letter case;
// else "".
func misnamed(name, suffix string) string {
	n := len(name) - len(suffix)
	if n < 0 || name[n:] == suffix || !strings.EqualFold(name[n:], suffix) {
		return ""
	}
	return name[:n] + suffix
}

// realPath is path made absolute with its symbolic links resolved, to tell when two
// operands name the same file or directory.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// ignoredNote is the end of the summary line when the DIR operands hold files that are not
// checked: how many, and the first few of them (-v has listed them all above).
func ignoredNote(ignored []string, verbose bool) string {
	if len(ignored) == 0 {
		return ""
	}
	files := "files"
	if len(ignored) == 1 {
		files = "file"
	}
	note := fmt.Sprintf("; %d %s ignored (not NAME.input.json or NAME.golden.json): ", len(ignored), files)
	if len(ignored) <= namedIgnored {
		return note + strings.Join(ignored, ", ")
	}
	more := fmt.Sprintf(" and %d more", len(ignored)-namedIgnored)
	if !verbose {
		more += " (-v lists them all)"
	}
	return note + strings.Join(ignored[:namedIgnored], ", ") + more
}

// checkCase checks the one case a FILE operand names, and reports it in the words of
// golden.Check, which only walks directories.
func checkCase(inPath string, opts golden.Options, s *golden.Summary) error {
	input, err := os.ReadFile(inPath)
	if err != nil {
		return err
	}
	got := opts.Render(input)
	gPath := strings.TrimSuffix(inPath, golden.InputSuffix) + golden.GoldenSuffix
	want, err := os.ReadFile(gPath)
	missing := errors.Is(err, fs.ErrNotExist)
	switch {
	case err != nil && !missing:
		return err
	case !missing && bytes.Equal(got, want):
		s.Passed++
		if opts.Verbose {
			fmt.Fprintf(opts.Out, "ok   %s\n", inPath)
		}
	case opts.Update:
		if err := os.WriteFile(gPath, got, 0o644); err != nil {
			return err
		}
		s.Passed, s.Written = s.Passed+1, s.Written+1
		fmt.Fprintf(opts.Out, "wrote %s\n", gPath)
	case missing:
		s.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: no golden file %s; if the new output is right, %s\n", inPath, filepath.Base(gPath), opts.UpdateHint)
	default:
		s.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: output differs from %s; if the new output is right, %s\n", inPath, filepath.Base(gPath), opts.UpdateHint)
		fmt.Fprint(opts.Out, golden.Diff(gPath, "normalize "+inPath, want, got))
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

// Package golden is the golden-file regression check: every NAME.input.json under a directory
// has beside it NAME.golden.json, the exact bytes the program prints for that input. Check
// compares them, shows each mismatch as a unified diff, and can write the golden files
// instead.
package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// File name suffixes of a case.
const (
	InputSuffix  = ".input.json"
	GoldenSuffix = ".golden.json"
)

// Options configure Check.
type Options struct {
	// Render returns the exact bytes expected for an input.
	Render func(input []byte) []byte
	// Update writes every golden file that is missing or differs, instead of failing.
	Update bool
	// Verbose reports passing cases too.
	Verbose bool
	// Out receives the report: one block per failure (or written file), then the summary.
	Out io.Writer
	// UpdateHint is shown with a missing or stale golden file: how to write it.
	UpdateHint string
}

// Summary counts the cases of a check.
type Summary struct {
	Passed  int // the golden file matched (with Update: matched, or was written)
	Failed  int // mismatch, missing golden file, or golden file without input
	Written int // golden files written (Update only)
}

// String is the last line of the report: "N passed, M failed".
func (s Summary) String() string { return fmt.Sprintf("%d passed, %d failed", s.Passed, s.Failed) }

// Check walks dir recursively and checks every case, in lexical order of the paths. It
// returns an error only when the directory or a file cannot be read or written; failed cases
// are counted in the Summary.
func Check(dir string, opts Options) (Summary, error) {
	inputs, orphans, err := findCases(dir)
	if err != nil {
		return Summary{}, err
	}
	var s Summary
	for _, in := range inputs {
		if err := checkCase(in, opts, &s); err != nil {
			return s, err
		}
	}
	for _, g := range orphans {
		s.Failed++
		fmt.Fprintf(opts.Out, "FAIL %s: no %s beside it; add the input or delete the stale golden file\n",
			g, filepath.Base(strings.TrimSuffix(g, GoldenSuffix)+InputSuffix))
	}
	return s, nil
}

// findCases lists the inputs under dir, and the golden files that have no input.
func findCases(dir string) (inputs, orphans []string, err error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a directory", dir)
	}
	goldens := map[string]bool{}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			return nil
		case strings.HasSuffix(path, InputSuffix):
			inputs = append(inputs, path)
		case strings.HasSuffix(path, GoldenSuffix):
			goldens[path] = true
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for _, in := range inputs {
		delete(goldens, goldenPath(in))
	}
	for g := range goldens {
		orphans = append(orphans, g)
	}
	sort.Strings(orphans)
	return inputs, orphans, nil
}

func goldenPath(input string) string { return strings.TrimSuffix(input, InputSuffix) + GoldenSuffix }

func checkCase(inPath string, opts Options, s *Summary) error {
	input, err := os.ReadFile(inPath)
	if err != nil {
		return err
	}
	got := opts.Render(input)
	gPath := goldenPath(inPath)
	want, err := os.ReadFile(gPath)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return err
	}
	if !missing && bytes.Equal(got, want) {
		s.Passed++
		if opts.Verbose {
			fmt.Fprintf(opts.Out, "ok   %s\n", inPath)
		}
		return nil
	}
	if opts.Update {
		if err := os.WriteFile(gPath, got, 0o644); err != nil {
			return err
		}
		s.Passed++
		s.Written++
		fmt.Fprintf(opts.Out, "wrote %s\n", gPath)
		return nil
	}
	s.Failed++
	if missing {
		fmt.Fprintf(opts.Out, "FAIL %s: no golden file %s%s\n", inPath, filepath.Base(gPath), hint(opts))
		return nil
	}
	fmt.Fprintf(opts.Out, "FAIL %s: output differs from %s%s\n", inPath, filepath.Base(gPath), hint(opts))
	fmt.Fprint(opts.Out, Diff(gPath, "normalize "+inPath, want, got))
	return nil
}

func hint(opts Options) string {
	if opts.UpdateHint == "" {
		return ""
	}
	return "; if the new output is right, " + opts.UpdateHint
}

// Diff returns a unified diff from want to got. Records are one compact line, so both are
// indented first (whitespace only: keys, their order and numbers stay as written) to show
// the differing key rather than one long changed line. When the indented forms agree, the
// bytes differ only in whitespace, and Diff says so and diffs the raw lines.
func Diff(wantName, gotName string, want, got []byte) string {
	a, b := indent(want), indent(got)
	note := ""
	if a == b {
		a, b = string(want), string(got)
		note = fmt.Sprintf("(the two differ only in whitespace: %d bytes against %d; check the final newline)\n", len(want), len(got))
	}
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: splitLines(a), B: splitLines(b),
		FromFile: wantName, ToFile: gotName, Context: 3,
	})
	if err != nil {
		return note + err.Error() + "\n"
	}
	return note + d
}

// splitLines cuts s into lines that keep their "\n"; a last line without one is marked.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	last := len(lines) - 1
	if lines[last] == "" {
		return lines[:last]
	}
	lines[last] += " (no newline at end of file)\n"
	return lines
}

// indent indents each line of b that holds JSON, and keeps the others as they are.
func indent(b []byte) string {
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		trimmed := bytes.TrimRight(line, "\n")
		if len(trimmed) == 0 {
			out.Write(line)
			continue
		}
		if err := json.Indent(&out, trimmed, "", "  "); err != nil {
			out.Write(line)
			continue
		}
		if len(trimmed) < len(line) {
			out.WriteByte('\n')
		}
	}
	return out.String()
}

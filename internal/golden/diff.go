package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// crlfNote is said when the golden file has CRLF line ends and the output has none: git on
// Windows (core.autocrlf true) converts checked-out files, and the diff alone would show two
// lines that look the same.
const crlfNote = "(the golden file has CRLF (Windows) line endings; the output has LF: convert it with dos2unix, and set git config core.autocrlf false (or eol=lf in .gitattributes) so that git does not convert it again)\n"

// Diff returns a unified diff from want to got. Records are one compact line, so both are
// indented first (whitespace only: keys, their order and numbers stay as written) to show
// the differing key rather than one long changed line. When the indented forms agree, the
// bytes differ only in whitespace, and Diff says so and diffs the raw lines. A golden file
// with CRLF line ends, where the output has LF, is said plainly, and each line that ends in
// CRLF is marked, as the "\r" would not show.
func Diff(wantName, gotName string, want, got []byte) string {
	a, b := indent(want), indent(got)
	crlf := bytes.Contains(want, []byte("\r\n")) && !bytes.Contains(got, []byte("\r\n"))
	note := ""
	if crlf {
		note = crlfNote
	}
	if a == b {
		a, b = string(want), string(got)
		check := "; check the final newline"
		if crlf {
			check = ""
		}
		note += fmt.Sprintf("(the two differ only in whitespace: %d bytes against %d%s)\n", len(want), len(got), check)
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

// splitLines cuts s into lines that keep their "\n"; a last line without one is marked, and
// so is a line that ends in CRLF.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	last := len(lines) - 1
	for i, line := range lines[:last] {
		if strings.HasSuffix(line, "\r\n") {
			lines[i] = line[:len(line)-2] + " (CRLF line end)\n"
		}
	}
	if lines[last] == "" {
		return lines[:last]
	}
	lines[last] += " (no newline at end of file)\n"
	return lines
}

// indent indents each line of b that holds JSON, and keeps the others as they are. A "\r"
// before the "\n" is whitespace like any other: it goes, as indenting rewrites whitespace.
func indent(b []byte) string {
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		trimmed := bytes.TrimRight(line, "\r\n")
		if len(trimmed) == 0 {
			out.Write(line)
			continue
		}
		if err := json.Indent(&out, trimmed, "", "  "); err != nil {
			out.Write(line)
			continue
		}
		if bytes.HasSuffix(line, []byte("\n")) {
			out.WriteByte('\n')
		}
	}
	return out.String()
}

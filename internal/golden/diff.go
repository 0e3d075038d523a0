package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

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

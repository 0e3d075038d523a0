// Package unidiff writes unified diffs of texts, as diff -u and git diff write them, that
// patch(1) and git apply take.
package unidiff

import (
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// Diff is the unified diff from a to b with three lines of context, "" when they are the
// same. A last line without a newline is marked as diff(1) marks it.
func Diff(fromName, toName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	d, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{ // it fails only writing to a strings.Builder
		A: lines(a), B: lines(b), FromFile: fromName, ToFile: toName, Context: 3,
	})
	return d
}

// lines splits text into lines, each with its newline; a last line without one carries the
// marker diff(1) writes after it.
func lines(text []byte) []string {
	ls := strings.SplitAfter(string(text), "\n")
	if ls[len(ls)-1] == "" {
		return ls[:len(ls)-1]
	}
	ls[len(ls)-1] += "\n\\ No newline at end of file\n"
	return ls
}

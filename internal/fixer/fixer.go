// Package fixer applies the machine-applicable fixes of the explain view's diagnostics to a
// result, round after round, until none applies: what `normalizer fix` and POST /v1/fix do.
package fixer

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/pkg/fix"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// MaxRounds is the most rounds Run makes. A fix can reveal another (a role fixed makes a
// message kept, whose tool call then has its arguments under another key), but each round
// removes diagnostics and adds none of the codes it fixed: results need two or three rounds.
const MaxRounds = 16

// Result is what Run did.
type Result struct {
	// Output is the input with the fixes applied. Bytes no fix touched are as they were: a
	// result without fixes comes back identical.
	Output []byte
	// Applied is the number of fixes applied, over every round, and Rounds the number of
	// rounds that applied one.
	Applied, Rounds int
	// Codes are the codes of the fixes applied, in the order applied.
	Codes []softwarn.Code
	// Err is the rejection of Output, when it is still rejected after the fixes (nil when it
	// is accepted).
	Err error
}

// Run applies the fixes of input's diagnostics: the safe ones, and with unsafe the unsafe ones
// too. A rejected result has one diagnostic, the advice beside its message when it has one
// (normalize.ResponseShapeError.Advice), whose fix may get it accepted. n normalizes each
// round's result; it must explain (normalize.WithExplain).
func Run(n *normalize.Normalizer, input []byte, unsafe bool) Result {
	r := Result{Output: input}
	for range MaxRounds {
		res, err := n.Normalize(r.Output)
		var diags []softwarn.Warning
		switch e := (*normalize.ResponseShapeError)(nil); {
		case err == nil:
			diags = append(slices.Clone(res.Warnings()), res.Notes()...)
			res.Release()
		case errors.As(err, &e) && e.Advice != nil:
			diags = []softwarn.Warning{*e.Advice}
		}
		out, codes := Round(r.Output, diags, unsafe)
		if len(codes) == 0 {
			r.Err = err // nil when accepted
			return r
		}
		r.Output, r.Applied, r.Rounds = out, r.Applied+len(codes), r.Rounds+1
		r.Codes = append(r.Codes, codes...)
	}
	if res, err := n.Normalize(r.Output); err != nil {
		r.Err = err
	} else {
		res.Release()
	}
	return r
}

// Round applies once the fixes of diags, diagnostics of input, and returns the result and the
// codes of the fixes applied. Fixes whose patches touch one place (one's path is another's, or
// inside it) are resolved in the diagnostics' order: the first is applied, the others wait for
// the next round, when their diagnostics, if still there, have fixes against the new result.
// The fixes chosen are applied from the end of the document back, so that one that removes or
// adds an array element leaves the indices of the others' paths as they were.
func Round(input []byte, diags []softwarn.Warning, unsafe bool) ([]byte, []softwarn.Code) {
	d := fix.NewDoc(input)
	type chosen struct {
		f    fix.Fix
		code softwarn.Code
		last string // its path furthest into the document
	}
	var picked []chosen
	var taken []string
	for _, w := range diags {
		f, ok := fix.For(d, w)
		if !ok || (f.Applicability != fix.Safe && !unsafe) {
			continue
		}
		paths := f.Paths()
		if slices.ContainsFunc(paths, func(p string) bool {
			return slices.ContainsFunc(taken, func(q string) bool { return overlap(p, q) })
		}) {
			continue
		}
		taken = append(taken, paths...)
		picked = append(picked, chosen{f: f, code: w.Code, last: slices.MaxFunc(paths, comparePointers)})
	}
	slices.SortStableFunc(picked, func(a, b chosen) int { return comparePointers(b.last, a.last) })
	out := input
	var codes []softwarn.Code
	for _, c := range picked {
		next, err := fix.Apply(out, c.f.Patch)
		if err != nil {
			continue // never for a fix of the document's own diagnostics; skipped, not guessed at
		}
		out = next
		codes = append(codes, c.code)
	}
	return out, codes
}

// overlap reports whether one of the pointers is the other or inside it.
func overlap(p, q string) bool {
	if len(p) > len(q) {
		p, q = q, p
	}
	return p == q || strings.HasPrefix(q, p+"/") || p == ""
}

// comparePointers orders pointers as their places in a document: token by token, array
// indices as numbers, a pointer before those inside it.
func comparePointers(a, b string) int {
	ta, tb := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(ta) && i < len(tb); i++ {
		if ta[i] == tb[i] {
			continue
		}
		na, ea := strconv.Atoi(ta[i])
		nb, eb := strconv.Atoi(tb[i])
		if ea == nil && eb == nil {
			return na - nb
		}
		return strings.Compare(ta[i], tb[i])
	}
	return len(ta) - len(tb)
}

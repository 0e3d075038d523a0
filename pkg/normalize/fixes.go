package normalize

import "github.com/dystopic/normalizer/pkg/softwarn"

// FixFunc makes, for a record of input, the function that appends a diagnostic's
// machine-applicable fix members ("applicability", "patch") to dst, or nothing. fix.Appender
// (package github.com/dystopic/normalizer/pkg/fix) is one.
type FixFunc func(input []byte) func(dst []byte, w softwarn.Warning) []byte

// WithFixes makes the explain view's diagnostics carry the fixes f derives, in their "fix"
// object after its message. It does nothing without WithExplain.
func WithFixes(f FixFunc) Option { return func(c *config) { c.fixes = f } }

// fixData makes the fixes of the record's diagnostics once, warnings then notes: the members
// of diagnostic i are fixBuf[fixEnds[i-1]:fixEnds[i]]. SizeHint counts them exactly, and
// AppendJSON copies them, so that a record reserves no room for patches it does not have.
func (r *Result) fixData() {
	if r.fixes == nil || r.fixEnds != nil {
		return
	}
	add := r.fixes(r.s.Data())
	ws := r.warn.Warnings()
	r.fixEnds = make([]int, 0, len(ws)+len(r.notes))
	for _, list := range [2][]softwarn.Warning{ws, r.notes} {
		for _, w := range list {
			r.fixBuf = add(r.fixBuf, w)
			r.fixEnds = append(r.fixEnds, len(r.fixBuf))
		}
	}
}

// fixesFor is the fix appender of the record's diagnostics, by their index, or nil.
func (r *Result) fixesFor() func(dst []byte, i int) []byte {
	if r.fixes == nil {
		return nil
	}
	r.fixData()
	return func(dst []byte, i int) []byte {
		start := 0
		if i > 0 {
			start = r.fixEnds[i-1]
		}
		return append(dst, r.fixBuf[start:r.fixEnds[i]]...)
	}
}

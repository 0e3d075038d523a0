package normalize

import "github.com/dystopic/normalizer/pkg/softwarn"

// FixFunc makes, for a record of input, the function that appends a diagnostic's
// machine-applicable fix members ("applicability", "patch") to dst, or nothing. fix.Appender
// (package github.com/dystopic/normalizer/pkg/fix) is one.
type FixFunc func(input []byte) func(dst []byte, w softwarn.Warning) []byte

// WithFixes makes the explain view's diagnostics carry the fixes f derives, in their "fix"
// object after its message. It does nothing without WithExplain.
func WithFixes(f FixFunc) Option { return func(c *config) { c.fixes = f } }

// fixesFor is the fix appender of the record, or nil.
func (r *Result) fixesFor() func(dst []byte, w softwarn.Warning) []byte {
	if r.fixes == nil {
		return nil
	}
	return r.fixes(r.s.Data())
}

package batch

import (
	"slices"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// Outcome is what became of one input.
type Outcome struct {
	Class     normalize.Class // the rejection class; "" for a record
	Warnings  int             // soft warnings of the record
	Truncated bool            // the record's final_response was cut at the cap
}

// AppendLine normalizes raw with n and appends what `normalizer normalize` prints for it: the
// record or the error object, then "\n". The single-input command, the golden check and the
// batch pipeline all print through it, so their bytes agree.
func AppendLine(dst []byte, n *normalize.Normalizer, raw []byte) ([]byte, Outcome) {
	res, err := n.Normalize(raw)
	return appendResult(dst, res, err)
}

// appendResult is AppendLine past the Normalize: it appends the record res, which it
// releases, or the error object for err, then "\n".
func appendResult(dst []byte, res *normalize.Result, err error) ([]byte, Outcome) {
	if err != nil {
		return AppendError(dst, err)
	}
	if need := res.SizeHint() + 1; cap(dst)-len(dst) < need {
		dst = slices.Grow(dst, max(need, cap(dst))) // once, to the record's size, not append by append
	}
	dst = append(res.AppendJSON(dst), '\n')
	o := Outcome{Warnings: len(res.Warnings()), Truncated: res.Truncated()}
	res.Release() // nothing refers to res any more: let the next line reuse it
	return dst, o
}

// AppendError appends the error object for a rejection, then "\n".
func AppendError(dst []byte, err error) ([]byte, Outcome) {
	class, ok := normalize.ClassOf(err)
	if !ok {
		class = normalize.ClassInternal
	}
	dst = normalize.AppendError(dst, err)
	return append(dst, '\n'), Outcome{Class: class}
}

package normalize

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// AppendJSON appends the record: {"final_response", "messages", "metadata", "soft_warnings",
// "rich_mode"} in that order, compact, and, with WithExplain, "diagnostics" after rich_mode.
// The same input always gives the same bytes.
func (r *Result) AppendJSON(dst []byte) []byte {
	r.live()
	dst = append(dst, `{"final_response":`...)
	dst = append(dst, r.final...)
	dst = append(dst, `,"messages":`...)
	dst = r.msgs.AppendJSON(dst)
	dst = append(dst, `,"metadata":`...)
	dst = r.meta.appendJSON(dst, &r.s)
	dst = append(dst, `,"soft_warnings":[`...)
	for i, w := range r.warn.Warnings() {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = w.AppendQuoted(dst)
	}
	dst = append(dst, `],"rich_mode":`...)
	if r.msgs.Len() > 0 { // RichMode, without a second check of released
		dst = append(dst, "true"...)
	} else {
		dst = append(dst, "false"...)
	}
	if r.explain {
		dst = append(dst, `,"diagnostics":`...)
		dst = appendDiagnostics(dst, r.warn.Warnings(), r.notes, r.fixesFor())
	}
	return append(dst, '}')
}

// MarshalJSON returns the record.
func (r *Result) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(make([]byte, 0, r.SizeHint())), nil
}

// SizeHint is a capacity for a buffer that will hold the record: the input's size (the record
// adds nothing to what it keeps of it but its own keys), and the text of the warnings and, with
// explain, of the diagnostics, with room for escapes. TestGoldenProperties holds every golden
// record, plain and explain, within it: a record that outgrows its buffer is copied as it grows.
func (r *Result) SizeHint() int {
	r.live()
	n := len(r.s.Data()) + 256
	for _, w := range r.warn.Warnings() {
		n += quotedSize(w.Loc().PathLen() + 2 + w.Len())
		if r.explain {
			n += diagnosticSize(w)
		}
	}
	for _, w := range r.notes {
		n += diagnosticSize(w)
	}
	if r.explain && r.fixes != nil {
		r.fixData()
		n += len(r.fixBuf) + len(`,"fix":{}`)*len(r.fixEnds)
	}
	return n
}

// quotedSize is room for a string of n bytes written as JSON, with its comma: an escape in
// eight bytes (a message quotes the keys and values it names).
func quotedSize(n int) int { return n + n/8 + 3 }

// diagnosticSize is room for w in the explain view: its fields, its message and its parts, and
// the keys and severity AppendDiagnostics writes around them.
func diagnosticSize(w softwarn.Warning) int {
	// The parts are the message's text once more, in a few keys.
	at := w.Loc()
	return 160 + quotedSize(at.PathLen()) + quotedSize(at.PointerLen()) + len(w.Code) + len(w.Action) + 2*quotedSize(w.Len())
}

// FinalResponse is the text of final_response as the record holds it.
func (r *Result) FinalResponse() string {
	r.live()
	return string(jsonscan.StringText(r.final, jsonscan.Span{Start: 0, End: len(r.final)}))
}

// Warnings are the soft warnings, in the order found. Each holds its place as a softwarn.Loc,
// whose path and pointer strings are built only by Path and Pointer, on each call: nothing is
// stored when they are read, so that several goroutines may read the same warnings at once.
func (r *Result) Warnings() []softwarn.Warning { r.live(); return r.warn.Warnings() }

// WarningsNotListed is how many warnings were found past the cap on listed ones: the last
// listed warning, warnings_limited, stands for them. Zero when every warning is listed.
func (r *Result) WarningsNotListed() int { r.live(); return r.warn.Skipped() }

// SoftWarnings are the warnings as the record's soft_warnings strings.
func (r *Result) SoftWarnings() []string { r.live(); return softwarn.Strings(r.warn.Warnings()) }

// Notes are the explain view's advice (only with WithExplain): things that are not wrong enough
// to warn about but keep the trace from rendering as well as it could.
func (r *Result) Notes() []softwarn.Warning { r.live(); return r.notes }

// RichMode reports whether the record carries messages.
func (r *Result) RichMode() bool { r.live(); return r.msgs.Len() > 0 }

// Truncated reports whether final_response was cut at MaxChars.
func (r *Result) Truncated() bool { r.live(); return r.truncated }

// AppendDiagnostics appends the explain view's diagnostics array: warnings, then notes.
func AppendDiagnostics(dst []byte, warnings, notes []softwarn.Warning) []byte {
	return appendDiagnostics(dst, warnings, notes, nil)
}

// appendDiagnostics is AppendDiagnostics with each diagnostic's fix, by fix when it is not nil.
func appendDiagnostics(dst []byte, warnings, notes []softwarn.Warning, fix func(dst []byte, i int) []byte) []byte {
	dst = append(dst, '[')
	n := 0
	for _, group := range [...]struct {
		list     []softwarn.Warning
		severity string
	}{{warnings, "warning"}, {notes, "note"}} {
		for _, w := range group.list {
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = append(appendFix(appendDiagnostic(dst, w, group.severity), w, n-1, fix), '}')
		}
	}
	return append(dst, ']')
}

// appendDiagnostic appends a diagnostic's object up to its fix (open): path, pointer, code, then
// action and severity unless severity is "" (a rejection's advice), then message and parts.
func appendDiagnostic(dst []byte, w softwarn.Warning, severity string) []byte {
	at := w.Loc()
	dst = at.AppendQuotedPath(append(dst, `{"path":`...))
	dst = at.AppendQuotedPointer(append(dst, `,"pointer":`...))
	dst = jsonscan.AppendString(append(dst, `,"code":`...), string(w.Code))
	if severity != "" {
		dst = jsonscan.AppendString(append(dst, `,"action":`...), string(w.Action))
		dst = jsonscan.AppendString(append(dst, `,"severity":`...), severity)
	}
	return appendParts(w.AppendQuotedMessage(append(dst, `,"message":`...)), &w.Parts)
}

// appendParts appends the keys of a diagnostic that give what its message says part by part,
// those that are set, in the order the message has them: subject, found, expected, problem,
// done, and the fix as {"message": ...}, an object that a machine-applicable patch can join.
func appendParts(dst []byte, p *softwarn.Parts) []byte {
	for _, part := range [...]struct{ key, text string }{
		{`,"subject":`, p.Subject}, {`,"found":`, p.Found}, {`,"expected":`, p.Expected}, {`,"problem":`, p.Problem}, {`,"done":`, p.Done},
	} {
		if part.text != "" {
			dst = append(dst, part.key...)
			dst = jsonscan.AppendString(dst, part.text)
		}
	}
	return dst
}

// appendFix appends the fix of w: {"message": ...} and, by fix, its patch, each when it has one.
func appendFix(dst []byte, w softwarn.Warning, i int, fix func(dst []byte, i int) []byte) []byte {
	start := len(dst)
	dst = append(dst, `,"fix":{`...)
	open := len(dst)
	if w.Fix != "" {
		dst = append(dst, `"message":`...)
		dst = jsonscan.AppendString(dst, w.Fix)
	}
	if fix != nil {
		comma := len(dst)
		if comma > open {
			dst = append(dst, ',')
		}
		keys := len(dst)
		if dst = fix(dst, i); len(dst) == keys {
			dst = dst[:comma]
		}
	}
	if len(dst) == open {
		return dst[:start]
	}
	return append(dst, '}')
}

// AppendOutput appends what the command line prints for raw, without the final newline: the
// record, or the error object when raw is rejected, in which case the rejection is returned too.
func (n *Normalizer) AppendOutput(dst, raw []byte) ([]byte, error) {
	res, err := n.Normalize(raw)
	if err != nil {
		return AppendError(dst, err), err
	}
	return res.AppendJSON(dst), nil
}

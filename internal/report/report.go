// Package report writes the human view of a normalization, for `normalize --format text`: a
// person porting an agent reads it at a terminal to learn what is wrong with their output and
// how to fix it.
//
// Each warning and note takes one line: its path, what was found, what was expected, how to
// fix it, and what normalization did, each read from the warning's parts (softwarn.Parts),
// never cut out of its message.
package report

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Record writes the report for a record; res must come from a Normalizer built WithExplain
// for the notes to be there.
func Record(w io.Writer, name string, res *normalize.Result) {
	warnings, notes := res.Warnings(), res.Notes()
	fmt.Fprintf(w, "%s: accepted, %s, %s\n", name, plural(len(warnings), "warning"), plural(len(notes), "note"))
	if res.Truncated() {
		fmt.Fprintf(w, "  final_response: cut at the cap, then %q (its warning gives the length)\n", normalize.TruncationMarker)
	} else {
		fmt.Fprintf(w, "  final_response: %d characters\n", utf8.RuneCountInString(res.FinalResponse()))
	}
	if res.RichMode() {
		fmt.Fprintf(w, "  messages: %d kept, rich mode on\n", res.NumMessages())
	} else {
		fmt.Fprintf(w, "  messages: none kept, rich mode off (the run is graded on final_response alone)\n")
	}
	under, rest := attachNotes(warnings, notes, nil)
	if len(warnings) > 0 {
		fmt.Fprintf(w, "\nWarnings: what was changed, and how to fix the handler\n")
		for i, x := range warnings {
			fmt.Fprintf(w, "  %s\n", Line(x))
			for _, n := range under[i] {
				fmt.Fprintf(w, "    note: %s\n", Line(n))
			}
		}
	}
	if len(rest) > 0 {
		fmt.Fprintf(w, "\n%s\n", notesHeading)
		for _, x := range rest {
			fmt.Fprintf(w, "  %s\n", Line(x))
		}
	}
	if len(warnings) == 0 && len(notes) == 0 {
		fmt.Fprintf(w, "\nNothing to fix.\n")
	}
}

// attachNotes puts each note that concerns the place of a warning (the same path, or the
// message or object the warning's path is inside) under the first such warning: a message
// dropped for its shape and the note saying which framework's message it is, and how to convert
// it, are one problem, and the notes' heading ("no soft warning for these") would not hold for
// them. under[i] holds warning i's notes; rest, the others, in their order. It looks each note
// up in an index of the warnings' places, so that a result with no limit on its warnings (tens
// of thousands of each) is not reported in quadratic time. steps, when not nil, counts the
// work done: every byte of a warning's path looked at and every note looked up (the test of
// its growth reads it; Record passes nil).
func attachNotes(warnings, notes []softwarn.Warning, steps *int) (under map[int][]softwarn.Warning, rest []softwarn.Warning) {
	if len(notes) == 0 {
		return nil, nil
	}
	first := placesOf(warnings, steps)
	for _, n := range notes {
		count(steps)
		i, ok := first[n.Path()]
		if !ok {
			rest = append(rest, n)
			continue
		}
		if under == nil {
			under = map[int][]softwarn.Warning{}
		}
		under[i] = append(under[i], n)
	}
	return under, rest
}

// placesOf maps each place a warning's path is at or inside to the first warning there:
// messages[3].tool_calls[0] is at messages[3].tool_calls[0] and inside messages[3] and messages
// (not messages[30]'s place, nor metadatas' metadata). The keys are substrings of the paths.
// steps, when not nil, counts the bytes of the paths looked at.
func placesOf(warnings []softwarn.Warning, steps *int) map[string]int {
	first := make(map[string]int, len(warnings))
	for i, w := range warnings {
		p := w.Path()
		for j := 1; j <= len(p); j++ {
			count(steps)
			if j < len(p) && p[j] != '.' && p[j] != '[' {
				continue
			}
			if _, ok := first[p[:j]]; !ok {
				first[p[:j]] = i
			}
		}
	}
	return first
}

// count adds one to *steps, when steps is not nil.
func count(steps *int) {
	if steps != nil {
		*steps++
	}
}

// notesHeading heads the notes that no warning concerns. It must hold for every note: most concern values kept as sent,
// but some concern values the contract leaves out of the record without a warning (arguments
// under "args", a key spelled "Messages"), so it says neither "nothing was changed" nor
// "dropped"; each line's [action, code] says which. Nor is every note about the trace: some
// are about the graded answer.
const notesHeading = "Notes: the platform gives no soft warning for these, but the result will not be read as meant"

// Rejection writes the report for a rejected input.
func Rejection(w io.Writer, name string, err error) {
	class, _ := normalize.ClassOf(err)
	fmt.Fprintf(w, "%s: rejected, %s\n", name, class)
	fmt.Fprintf(w, "  %s\n", strings.Join(strings.Fields(err.Error()), " "))
	var shape *normalize.ResponseShapeError
	if errors.As(err, &shape) && shape.Advice != nil { // beside the message, which the contract fixes
		fmt.Fprintf(w, "  advice: %s: %s [%s]\n", shape.Advice.Path(), shape.Advice.Finding(), shape.Advice.Code)
	}
	var syn *normalize.InvalidJSONError
	switch {
	case errors.As(err, &syn) && syn.TooDeep:
		fmt.Fprintf(w, "  fix: nest the result less deeply (an encoder writes any depth, so the structure itself must change), or raise --max-depth if the platform's Python reads deeper (3.11's json stops near 995 levels)\n")
		return
	case syn != nil && syn.TooManyDigits: // valid JSON, from an encoder other than Python's, whose json.dumps refuses such an int too
		fmt.Fprintf(w, "  fix: send an integer this long as a string; the platform reads the record with Python's json, which reads no integer of more than %d digits\n", normalize.MaxIntDigits)
		return
	}
	if fix := rejectionFix(err, class); fix != "" {
		fmt.Fprintf(w, "  fix: %s\n", fix)
	}
}

// rejectionFix is the fix for a rejection: the one its message ends with when a
// ResponseShapeError recognises what was sent (a model's response, a chat message, an answer
// under another key: its Fix), or its Advice's (what the transcript shows beside a message the
// contract fixes), which says where the text is and so replaces the general one;
// else the general fix for the class, beside the message's own words. The one
// for InvalidJSON holds for every cause but nesting past the limit (Rejection's own case),
// hand-built text, an encoding other than UTF-8, NaN (which json.dumps writes unless told not
// to) and several values alike.
func rejectionFix(err error, class normalize.Class) string {
	var shape *normalize.ResponseShapeError
	if errors.As(err, &shape) && shape.Fix != "" {
		return shape.Fix
	}
	if shape != nil && shape.Advice != nil && shape.Advice.Fix != "" {
		return shape.Advice.Fix
	}
	switch class {
	case normalize.ClassInvalidJSON:
		return "send exactly one JSON value in UTF-8, as a JSON encoder writes it (Python: json.dumps(result, allow_nan=False)), not built by hand"
	case normalize.ClassPayloadTooLarge:
		return "send a smaller result (trim tool outputs in messages), or raise --max-bytes"
	case normalize.ClassResponseShape:
		return `return {"final_response": "<a non-empty answer>", ...} from the handler, through build_response`
	}
	return ""
}

// Line is one warning or note on one line:
// "PATH: found X; expected Y; fix: Z; DONE [action, code]", read from its parts. Without a fix
// of its own, a warning that says what was expected gets "send Y instead".
func Line(x softwarn.Warning) string {
	finding := x.Finding()
	var b strings.Builder
	at := x.Loc()
	b.Grow(at.PathLen() + len(finding) + 2*len(x.Expected) + len(x.Fix) + len(x.Done) + len(x.Action) + len(x.Code) + 48)
	b.WriteString(x.Path())
	b.WriteString(": ")
	b.WriteString(finding)
	if x.Expected != "" {
		b.WriteString("; expected ")
		b.WriteString(x.Expected)
	}
	switch {
	case x.Fix != "":
		b.WriteString("; fix: ")
		b.WriteString(x.Fix)
	case x.Expected != "":
		b.WriteString("; fix: send ")
		b.WriteString(x.Expected)
		b.WriteString(" instead")
	}
	if x.Done != "" {
		b.WriteString("; ")
		b.WriteString(x.Done)
	}
	b.WriteString(" [")
	b.WriteString(string(x.Action))
	b.WriteString(", ")
	b.WriteString(string(x.Code))
	b.WriteString("]")
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

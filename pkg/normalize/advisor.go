package normalize

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/messages"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// An Advisor advises on the results a Normalizer reads (WithAdvisor): notes on a record read
// with WithExplain, and hints on a rejection, which say what was sent and how to fix it. The
// contract does not depend on it: records and the classes of rejections are the same with any
// Advisor or none, and a Normalizer without one runs no advice code at all. Package porting
// has the Advisor that the service and the command line use.
type Advisor interface {
	// Notes starts the notes on one result, read with WithExplain: Normalize tells the Notes
	// what it reads as it reads it, through v's places, and asks it for the notes when the
	// record is done. When the result is rejected, its Notes are dropped.
	Notes(v View) Notes
	// Hint returns err, a rejection of input (read with the nesting limit maxDepth), with
	// advice on what was sent: a *ResponseShapeError with its Detail and Fix set, or its Advice
	// (kept with WithExplain only). It returns an error of the same class.
	Hint(err error, input []byte, maxDepth int) error
}

// Notes finds the notes on one result as Normalize reads it. Its methods are called in input
// order; spans are in View.Input.
type Notes interface {
	// Member is a member of the result object, just read: its key's name (unescaped; valid
	// only during the call) and its value.
	Member(name []byte, value Span)
	// MessagesBegin says a "messages" value begins: the messages of an earlier one no longer
	// count.
	MessagesBegin()
	// Message is a message of that value that is an object, just read. m.Members is valid
	// only during the call.
	Message(m InputMessage)
	// End says the result has been read: the View is complete. It returns the notes, in input
	// order.
	End() []softwarn.Warning
}

// WithAdvisor has a's advice added to records and rejections: see Advisor.
func WithAdvisor(a Advisor) Option { return func(c *config) { c.advisor = a } }

// Span is a place in the input: the bytes from Start to End, End excluded. The zero Span is
// absent.
type Span = jsonscan.Span

// Found is what a syntax error was found at, when it is text of another kind than JSON; its
// Kind is one of the Found constants.
type Found = jsonscan.Found

// FoundKind is the kind of a Found.
type FoundKind = jsonscan.FoundKind

// The kinds of Found.
const (
	FoundSyntax      = jsonscan.FoundSyntax      // nothing recognised: malformed JSON
	FoundGzip        = jsonscan.FoundGzip        // the gzip magic, 1F 8B, first
	FoundWide        = jsonscan.FoundWide        // text in UTF-16 or UTF-32 (Found.Wide)
	FoundSingleQuote = jsonscan.FoundSingleQuote // a string or a key in single quotes
	FoundLiteral     = jsonscan.FoundLiteral     // True, False or None (Found.Word)
	FoundNonFinite   = jsonscan.FoundNonFinite   // NaN, Infinity and their spellings (Found.Word)
)

// beginNotes starts the notes on the result r is about to read, when an Advisor wants them.
func (r *Result) beginNotes() {
	r.lint = nil
	if r.explain && r.advisor != nil {
		r.lint = r.advisor.Notes(View{r})
	}
}

// observer tells r's Notes of the messages its Reader reads.
type observer Result

func (o *observer) Message(m messages.Located, members *jsonscan.Members) {
	r := (*Result)(o)
	r.lint.Message(InputMessage{Index: int(m.Index), Span: m.Span.Unpack(), Kept: m.Kept,
		Members:   Object{m: members, data: r.s.Data(), from: int(m.Members[0]), to: int(m.Members[1])},
		FirstCall: int(m.Calls[0]), Calls: int(m.Calls[1] - m.Calls[0])})
}

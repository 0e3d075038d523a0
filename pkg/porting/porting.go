// Package porting advises a person porting an agent to the platform's contract: the notes of
// the explain view, and the hints that a rejection ends with, which name the framework or API
// whose shape was sent and the fix. Package normalize is the contract; this package reads what
// it found (normalize.View, and the Notes it tells as it reads) and the input, and never
// changes a record: records and the classes of rejections are the same with its advice or
// without it.
//
// A library user who wants the contract alone uses package normalize and pays nothing for
// advice. The service and the command line normalize through New, which adds this package's
// Advisor to the options:
//
//	n := porting.New(normalize.WithExplain())
//	res, err := n.Normalize(raw)
//
// # Where advice lives
//
// Knowledge of a source, a framework, an API or a program whose output porters send, is a
// file of its own named for it, which registers the source's tables (sources.go: type
// source): for each shape of the source's output, how it is recognised, its code and its fix.
// python.go holds a value printed by that language's str() (python_repr.go reads such text
// for the sources' printed shapes), encoding.go gzip and UTF-16 (no framework: the programs
// that write them), ollama.go metadata names and a chat response; the others a framework's or
// API's messages, transcripts, tool calls, metadata names, result objects and model
// responses, each in the table of its kind. A new framework is one new file and its tables.
// The engine reads the tables and names no source: the walks over the View and the note list
// (explain.go, framenotes.go, dropped.go, metanotes.go, keyvariant.go, notes.go, text.go),
// finalnotes.go's notes on final_response, finalhint.go's hint on a final_response that is not
// a string, shapehint.go's on a result object without final_response and on a top-level
// array, stopped_tool_call.go's advice on an empty final_response from the transcript's last
// turn, values.go's readers of JSON values, and sources.go, which gathers the tables at init
// and composes a wording that names several sources from their parts, in the order they
// register. A test (TestSourceNames) fails when a source is named outside its file.
//
// CONTRIBUTING.md ("Adding advice for a framework") says how to add a source.
//
// # What names a framework
//
// Package normalize and the scanner under it name no framework, API or program (a test in
// package normalize holds them to that). What does is of two kinds. A soft warning's text is
// part of the record, so it is the contract's: the fixes of the record that name a framework
// (a role of another API, an item recognised by its type, the model_dump that sends null for
// an unset field) are package messages' wording, in its roleFix and typedItem and its
// RecordFix table, the package below normalize that words the record's warnings. Everything
// else is advice and lives here: the notes, the hints, and the part of an InvalidJSON reason
// that says which program writes text of another kind than JSON (normalize.Found).
package porting

import (
	"errors"

	"github.com/dystopic/normalizer/pkg/fix"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// advisor is this package's normalize.Advisor.
type advisor struct{}

// Advisor returns this package's advice as a normalize.Advisor, for normalize.WithAdvisor.
func Advisor() normalize.Advisor { return advisor{} }

// New is normalize.New with this package's advice: opts, then normalize.WithAdvisor(Advisor())
// and normalize.WithFixes(fix.Appender), so that with WithExplain a diagnostic whose fix is
// mechanical carries it as an RFC 6902 patch (package fix).
func New(opts ...normalize.Option) *normalize.Normalizer {
	return normalize.New(append(opts[:len(opts):len(opts)], normalize.WithAdvisor(advisor{}), normalize.WithFixes(fix.Appender))...)
}

// Normalize is New(opts...).Normalize(raw).
func Normalize(raw []byte, opts ...normalize.Option) (*normalize.Result, error) {
	return New(opts...).Normalize(raw)
}

// Hint gives a rejection of input the hint that says what was sent and how to fix it
// (normalize.Advisor). Only the error path runs it.
func (advisor) Hint(err error, input []byte, maxDepth int) error {
	if j := (*normalize.InvalidJSONError)(nil); errors.As(err, &j) {
		syntaxHint(j)
		return err
	}
	var e *normalize.ResponseShapeError
	if !errors.As(err, &e) {
		return err
	}
	var h shapeHint
	switch {
	case e.Got == normalize.GotNoFinalResponse && e.Probe != "":
		h = probeHint(input, maxDepth, e.Probe)
	case e.Got == normalize.GotNoFinalResponse:
		h = missingFinalHint(input, maxDepth)
	case e.Path == "final_response" && e.Detail == normalize.FinalExample:
		if h = finalValueHint(input, maxDepth); h.detail != "" || h.fix != "" {
			e.Detail = "" // what was sent says more than the example
		}
	case e.Path == "" && e.Got == "array":
		h = arrayHint(input, maxDepth)
	default:
		rejectionAdvice(e, input, maxDepth) // beside the contract's message (stopped_tool_call.go)
	}
	e.Detail += h.detail
	e.Fix, e.FixJoin = h.fix, h.join
	return err
}

package normalize

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Class names a kind of rejection. Clients branch on the class, never on the message text.
type Class string

// The rejection classes of the contract.
const (
	ClassResponseShape   Class = "ResponseShapeError"
	ClassInvalidJSON     Class = "InvalidJSON"
	ClassPayloadTooLarge Class = "PayloadTooLarge"
)

// ClassInternal is the class AppendError writes for an error that is not a rejection (one from
// outside this package: a failed read, a bug): the class the HTTP service answers 500 with, so
// that a client branches on one name whichever of them reports it. ClassOf does not return it.
const ClassInternal Class = "Internal"

// Sentinels for errors.Is: every rejection unwraps to exactly one of them.
var (
	ErrResponseShape   = errors.New(string(ClassResponseShape))
	ErrInvalidJSON     = errors.New(string(ClassInvalidJSON))
	ErrPayloadTooLarge = errors.New(string(ClassPayloadTooLarge))
)

// EmptyResponseMessage is the contract's message for an empty or missing final answer, byte for
// byte as the platform's Python SDK raises it.
const EmptyResponseMessage = "Handler returned an empty string for final_response. The platform rejects empty responses (the LLM judge has nothing to grade against). Return at least a one-sentence summary of what the agent did or why it failed."

// ResponseShapeError rejects a result whose shape cannot be graded: no final_response, an empty
// one, or a value of the wrong type. Its message is composed from its parts: Problem, Detail,
// then Fix after "; " (or after ": ", where Detail leads into it).
type ResponseShapeError struct {
	Path string // where the problem is: "" for the whole result, or "final_response"
	Got  string // what was found, e.g. "number", "empty string", "null"
	Want string // what was expected
	// Problem is what is wrong, as the message's first words put it: "final_response is a
	// number; expected a non-empty string", or EmptyResponseMessage, the contract's own.
	Problem string
	// Detail is what the message adds about what was sent, when it can tell: the keys it has,
	// or what it looks like (an Advisor, package porting's, names the API whose response it
	// is, say).
	Detail string
	// Fix is the fix the message ends with when it recognises what was sent (a model API's
	// response, a chat message where the text belongs, an answer under another key) and says
	// where the text is; "" when it names no fix of its own, so that the general one holds:
	// return {"final_response": "<a non-empty answer>", ...} through build_response.
	Fix string
	// FixJoin joins Fix to the text before it: "; " when empty.
	FixJoin string
	// Probe is, for a result object without final_response, the first of the keys that
	// build_response would have moved there in its place (final_output, output, message)
	// that the object has; "" when it has none.
	Probe string
	// Advice is an Advisor's, read with WithExplain, on a rejection whose message the contract
	// fixes (EmptyResponseMessage): what the input shows and the fix, under the error object's
	// "advice" (a diagnostic without action and severity), never in the message; nil without.
	Advice *softwarn.Warning
	// AdviceFix is, with WithFixes, the advice's machine-applicable fix members
	// ("applicability", "patch"), as the FixFunc appends them, written in the advice's "fix"
	// object after its message; nil without.
	AdviceFix []byte
}

// GotNoFinalResponse is a ResponseShapeError's Got for a result object without
// final_response.
const GotNoFinalResponse = "object without final_response"

// FinalExample is a ResponseShapeError's Detail for a final_response of the wrong type, when
// nothing more is known of what was sent: an example of the right one.
const FinalExample = `, e.g. {"final_response": "The refund has been issued."}`

func (e *ResponseShapeError) Error() string {
	if e.Fix == "" {
		return e.Problem + e.Detail
	}
	join := e.FixJoin
	if join == "" {
		join = "; "
	}
	return e.Problem + e.Detail + join + e.Fix
}

// Unwrap returns ErrResponseShape.
func (e *ResponseShapeError) Unwrap() error { return ErrResponseShape }

// InvalidJSONError rejects input that is not exactly one well-formed JSON value in UTF-8.
type InvalidJSONError struct {
	Offset int    // byte offset of the problem, from 0
	Line   int    // line of the problem, from 1
	Column int    // column in characters (code points) within that line, from 1, as Python counts
	Reason string // what was found and what was expected
	// Found: what the problem was found at, when it is text of another kind than JSON
	// (compressed bytes, UTF-16, a literal of another language): the facts an Advisor words
	// its advice from. Package normalize says only what the bytes are; with package porting's
	// Advisor the Reason also says which program writes them and how to send JSON instead.
	Found Found
	// JSONLines: the input is several JSON values, each on a line of its own, as a JSON Lines
	// file holds them. The message says to send one result per input; a caller that has a
	// way to take such a file (a batch mode) can say so.
	JSONLines bool
	// TooDeep: the value nests deeper than the Normalizer's limit (WithMaxDepth); an encoder
	// writes such nesting too, so a caller's fix is the structure or the limit.
	TooDeep bool
	// TooManyDigits: an integer literal has more digits than the platform's parser, CPython's
	// json, reads (MaxIntDigits); it is valid JSON, so a caller's fix is the value, not the
	// writing.
	TooManyDigits bool
}

func (e *InvalidJSONError) Error() string {
	return fmt.Sprintf("invalid JSON at line %d, column %d (byte offset %d): %s", e.Line, e.Column, e.Offset, e.Reason)
}

// Unwrap returns ErrInvalidJSON.
func (e *InvalidJSONError) Unwrap() error { return ErrInvalidJSON }

// PayloadTooLargeError rejects input longer than the configured limit.
type PayloadTooLargeError struct {
	Size    int64 // bytes received; a lower bound when AtLeast is set
	Limit   int64 // the limit in bytes
	AtLeast bool  // reading stopped past the limit, so the whole size is not known
}

func (e *PayloadTooLargeError) Error() string {
	if e.AtLeast {
		return fmt.Sprintf("payload of more than %d bytes is over the limit of %d bytes; send a smaller result or raise the limit", e.Limit, e.Limit)
	}
	return fmt.Sprintf("payload of %d bytes is over the limit of %d bytes; send a smaller result or raise the limit", e.Size, e.Limit)
}

// Unwrap returns ErrPayloadTooLarge.
func (e *PayloadTooLargeError) Unwrap() error { return ErrPayloadTooLarge }

// ClassOf returns the class of a rejection, and false for an error that is not one: the class
// of the outermost rejection in err's chain (errors.As's order, so errors.Join's first), else
// of the sentinel err wraps.
func ClassOf(err error) (Class, bool) {
	if r := outermost(err); r != nil {
		return r.class(), true
	}
	switch {
	case errors.Is(err, ErrInvalidJSON):
		return ClassInvalidJSON, true
	case errors.Is(err, ErrResponseShape):
		return ClassResponseShape, true
	case errors.Is(err, ErrPayloadTooLarge):
		return ClassPayloadTooLarge, true
	}
	return "", false
}

// rejection is one of the three rejection types. The error object describes one rejection: the
// outermost in the chain gives its class, its details and, unless a WordedRejection wrapping
// it words it, its message.
type rejection interface {
	error
	class() Class
	appendDetails(dst []byte) []byte
}

func outermost(err error) rejection {
	var r rejection
	if errors.As(err, &r) {
		return r
	}
	return nil
}

func (e *ResponseShapeError) class() Class   { return ClassResponseShape }
func (e *InvalidJSONError) class() Class     { return ClassInvalidJSON }
func (e *PayloadTooLargeError) class() Class { return ClassPayloadTooLarge }

func (e *ResponseShapeError) appendDetails(dst []byte) []byte {
	if e.Path != "" {
		dst = appendString(append(dst, `,"path":`...), e.Path)
	}
	if e.Advice != nil {
		var fix func(dst []byte, _ int) []byte
		if len(e.AdviceFix) > 0 {
			fix = func(dst []byte, _ int) []byte { return append(dst, e.AdviceFix...) }
		}
		dst = append(appendFix(appendDiagnostic(append(dst, `,"advice":`...), *e.Advice, ""), *e.Advice, 0, fix), '}')
	}
	return dst
}

func (e *InvalidJSONError) appendDetails(dst []byte) []byte {
	dst = append(dst, `,"line":`...)
	dst = strconv.AppendInt(dst, int64(e.Line), 10)
	dst = append(dst, `,"column":`...)
	dst = strconv.AppendInt(dst, int64(e.Column), 10)
	dst = append(dst, `,"offset":`...)
	return strconv.AppendInt(dst, int64(e.Offset), 10)
}

func (e *PayloadTooLargeError) appendDetails(dst []byte) []byte {
	dst = append(dst, `,"limit":`...)
	return strconv.AppendInt(dst, e.Limit, 10)
}

// AppendError appends the error object of the contract, {"error":{"class":…,"message":…}},
// for a rejection, with the location of the problem where one is known. An error that is not a
// rejection is reported under ClassInternal. A nil err appends nothing: dst is
// returned as it is.
//
// The object describes one rejection, the outermost in err's chain (errors.As's order, so
// errors.Join's first): its class, its details, and its own message, or that of the outermost
// WordedRejection wrapping it (written as it is, even when it wraps a join of several). Context a caller adds with fmt.Errorf("run 42: %w", err) is for
// its own logs, and left out (the contract fixes the rejections' texts; EmptyResponseMessage
// stays byte for byte).
func AppendError(dst []byte, err error) []byte {
	if err == nil {
		return dst
	}
	class, ok := ClassOf(err)
	if !ok {
		class = ClassInternal
	}
	msg := err.Error()
	r := outermost(err)
	if w := wordedFor(err, r); w != nil {
		msg = w.RejectionMessage()
	} else if r != nil {
		msg = r.Error()
	}
	dst = append(dst, `{"error":{"class":`...)
	dst = appendString(dst, string(class))
	dst = append(dst, `,"message":`...)
	dst = appendString(dst, msg)
	if r != nil {
		dst = r.appendDetails(dst)
	}
	return append(dst, "}}"...)
}

// wordedFor is the outermost WordedRejection in err's tree (pre-order, errors.As's order) whose
// own outermost rejection is r, or nil: the one that words r (r itself, when nothing wraps it
// with words of its own); with r nil, one wrapping no rejection at all (a sentinel, say).
func wordedFor(err error, r rejection) WordedRejection {
	if w, ok := err.(WordedRejection); ok && outermost(w) == r {
		return w
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if next := u.Unwrap(); next != nil {
			return wordedFor(next, r)
		}
	case interface{ Unwrap() []error }:
		for _, next := range u.Unwrap() {
			if w := wordedFor(next, r); w != nil {
				return w
			}
		}
	}
	return nil
}

// WordedRejection is an error whose message AppendError writes for the rejection it wraps: a
// wrapper that words the rejection on purpose for its reader, with a hint after its text or in
// words of its own (the HTTP service says how to send a form body, and names its flag in a 413).
// The rejections implement it with their own message, so the outermost of them and such
// wrappers decides; an error that only adds context (fmt.Errorf) does not implement it.
type WordedRejection interface {
	error
	// RejectionMessage is the "message" of the error object.
	RejectionMessage() string
}

// RejectionMessage is e's own message: see WordedRejection.
func (e *ResponseShapeError) RejectionMessage() string { return e.Error() }

// RejectionMessage is e's own message: see WordedRejection.
func (e *InvalidJSONError) RejectionMessage() string { return e.Error() }

// RejectionMessage is e's own message: see WordedRejection.
func (e *PayloadTooLargeError) RejectionMessage() string { return e.Error() }

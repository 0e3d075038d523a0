package porting

import (
	"bytes"
	"cmp"
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// finalNotes notes a final_response that the platform accepts but the judge can do nothing
// with: a whole result serialized twice, the JSON text of a model API's response (a source's
// responseShape), only whitespace, a placeholder that some language prints for a missing value
// or an object, or the text a language prints of a result object for people instead of the
// answer in it (a source's printedShape). The answer is graded all the same, so these are
// notes, not warnings.
func finalNotes(v normalize.View, n *noteRun) {
	at, final := v.FinalAt(), v.Final()
	text := bytes.TrimSpace(jsonscan.StringText(final, jsonscan.Span{Start: 0, End: len(final)}))
	var p softwarn.Parts
	code := softwarn.FinalResponsePlaceholder
	preamble := preambleOf(v.Input(), text, v.MaxDepth())
	ph := placeholderOf(text)
	switch {
	case holdsResult(text, v.MaxDepth()):
		code, p = softwarn.FinalResponseSerialized, softwarn.Parts{
			Problem: `is the JSON text of a whole result (an object with "final_response"), graded as it is: the result was serialized twice (json.dumps of a JSON string)`,
			Fix:     "return the object itself"}
	case isObjectText(text, v.MaxDepth()):
		what, answer, ok := responseShapeFor(text, v.MaxDepth(), spaced(text))
		if !ok {
			return
		}
		code = softwarn.FinalResponseObjectJSON
		p = softwarn.Parts{Problem: "is the JSON text of " + what + ", not the text of the answer: the judge grades the whole of it",
			Fix: "send the answer's text itself, " + answer}
		if answer == "" {
			p = softwarn.Parts{Problem: "is the JSON text of " + what + ": it holds no answer, and the agent stopped at a tool call", Fix: stoppedFix}
		}
	case preamble >= 0:
		code = softwarn.FinalResponsePreamble
		p = softwarn.Parts{Problem: "is the text of messages[" + strconv.Itoa(preamble) +
			"], an assistant message that calls tools, after which no assistant message follows: it is the preamble the model wrote before the call, not an answer, and the agent stopped at a tool call",
			Fix: stoppedFix}
	case len(text) == 0:
		p = softwarn.Parts{Problem: "is only whitespace: accepted (it is not empty), but the judge has nothing to grade",
			Fix: "return at least a one-sentence summary of what the agent did or why it failed"}
	case ph != nil:
		p = softwarn.Parts{Problem: "is the text " + strconv.Quote(string(text)) + ", " + ph.says + ", and the judge grades that text",
			Fix: cmp.Or(ph.fix, noAnswerFix)}
	default:
		what, answer, ok := printedAs(text)
		if !ok {
			return
		}
		code, p = softwarn.FinalResponseRepr, softwarn.Parts{Problem: "looks like " + what + ", not the text of the answer: the judge grades the whole of it",
			Fix: "send the answer's text itself, " + answer}
	}
	if n.take() {
		n.add(at, softwarn.At("final_response").Warning(code, softwarn.Kept, p))
	}
}

// placeholders are the texts that stand for no answer: those of the languages that are no
// source, here, then the sources' (gathered at init).
var placeholders = []placeholder{
	{text: "null", says: "JSON's and JavaScript's null written as text (String(null), JSON.stringify(null))" + missingValue},
	{text: "undefined", says: "what JavaScript's String(undefined) prints" + missingValue},
	{text: "nil", says: "what Ruby's nil.inspect and Lua's tostring(nil) print" + missingValue},
	{text: "<nil>", says: "what Go's fmt prints for a nil value" + missingValue},
	{text: "NaN", says: "a float that is not a number, as JavaScript's String(NaN) and Go's fmt print it"},
	{text: "[object Object]", says: "what JavaScript's String(obj) prints for an object: the object was not serialized",
		fix: "send the answer's text (the field of the object that holds it), not the object"},
}

// missingValue ends what a placeholder for a missing value says; noAnswerFix is a
// placeholder's fix unless it has its own.
const (
	missingValue = ": a missing value was sent as text"
	noAnswerFix  = "return the agent's answer, or a summary of why there is none"
)

// holdsResult reports whether text, final_response's text without the spaces around it, is
// the JSON text of an object with final_response (a result serialized twice), read with the
// result's own depth limit.
func holdsResult(text []byte, maxDepth int) bool {
	var s jsonscan.Scanner
	s.Reset(text, maxDepth)
	if s.Peek() != jsonscan.Object {
		return false
	}
	found := false
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		found = found || string(s.KeyName()) == "final_response"
		s.SkipValue()
	}
	return found && s.AtEnd()
}

// preambleOf is the index of the message whose text final_response's text is, when that
// message is the last of the input's messages that is not a tool's result and it is an
// assistant's that calls tools (tool_calls, or content parts of a type that calls a tool,
// callParts): a preamble, since no assistant message answers after the tool round. It
// is -1 otherwise. It reads the input again, on the explain path only.
func preambleOf(input, text []byte, maxDepth int) int {
	if len(text) == 0 {
		return -1
	}
	last, at := lastTurn(member(input, "messages", maxDepth), maxDepth)
	if at < 0 {
		return -1
	}
	e := turnFactsOf(last, maxDepth)
	if string(e.role) != "assistant" {
		return -1
	}
	content := e.content
	calls := textKind(e.calls) == jsonscan.Array
	var said []byte
	if textKind(content) == jsonscan.String {
		said = jsonscan.StringText(content, jsonscan.Span{Start: 0, End: len(content)})
	}
	eachElement(content, maxDepth, func(_ int, part []byte) bool {
		switch typ := shortToken(member(part, "type", maxDepth), 16); {
		case isCallPart(typ):
			calls = true
		case string(typ) == "text":
			if t := member(part, "text", maxDepth); textKind(t) == jsonscan.String {
				said = append(said, jsonscan.StringText(t, jsonscan.Span{Start: 0, End: len(t)})...)
			}
		}
		return true
	})
	if !calls || !bytes.Equal(bytes.TrimSpace(said), text) {
		return -1
	}
	return at
}

// lastTurn is the last message of the array msgs whose role is not "tool", and its index, or
// -1. One scanner reads every message, so that a long transcript costs no allocation per
// message.
func lastTurn(msgs []byte, maxDepth int) (last []byte, at int) {
	var s jsonscan.Scanner
	s.Reset(msgs, maxDepth)
	if s.Peek() != jsonscan.Array {
		return nil, -1
	}
	at = -1
	i := 0
	for ok := s.ArrayStart(); ok && s.Err() == nil; ok = s.ArrayNext() {
		start, tool := s.Pos(), false
		if s.Peek() != jsonscan.Object {
			s.SkipValue()
			i++
			continue
		}
		for more := s.ObjectStart(); more; more = s.ObjectNext() {
			role := string(s.KeyName()) == "role"
			v := s.SkipValue()
			if role && v.Present() {
				tool = string(shortToken(msgs[v.Start:v.End], 16)) == "tool"
			}
		}
		if !tool && s.Err() == nil {
			last, at = msgs[start:s.Pos()], i
		}
		i++
	}
	return last, at
}

// isObjectText reports whether text is the JSON text of one object, read with the result's
// own depth limit.
func isObjectText(text []byte, maxDepth int) bool {
	var s jsonscan.Scanner
	s.Reset(text, maxDepth)
	if s.Peek() != jsonscan.Object {
		return false
	}
	s.SkipValue()
	return s.Err() == nil && s.AtEnd()
}

// spaced reports whether the JSON text of an object, text, is written with spaces or newlines
// between its tokens, as json.dumps writes it (and JSON.stringify with an indent),
// rather than compact, as JSON.stringify and model_dump_json() write it: its first key is
// followed by ": ", or a newline follows its "{".
func spaced(text []byte) bool {
	if len(text) < 2 || text[1] == '\n' || text[1] == ' ' {
		return true
	}
	end := skipString(text, 1)
	return end > 0 && end+1 < len(text) && text[end] == ':' && text[end+1] == ' '
}

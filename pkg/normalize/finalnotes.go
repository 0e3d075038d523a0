package normalize

import (
	"bytes"
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// finalNotes notes a final_response that the platform accepts but the judge can do nothing
// with: a whole result serialized twice, only whitespace, a placeholder that some language
// prints for a missing value or an object, or Python's text of a result object instead of the
// answer in it. The answer is graded all the same, so these are notes, not warnings.
func finalNotes(r *Result, n *noteList) {
	n.startRun()
	at := 0 // a bare string: the whole input
	if r.fields[fieldFinal].count > 0 {
		at = r.fields[fieldFinal].last
	}
	text := bytes.TrimSpace(jsonscan.StringText(r.final, jsonscan.Span{Start: 0, End: len(r.final)}))
	var msg string
	code := softwarn.FinalResponsePlaceholder
	switch {
	case holdsResult(text, r.s.MaxDepth()):
		code, msg = softwarn.FinalResponseSerialized, `is the JSON text of a whole result (an object with "final_response"), graded as it is: `+
			`the result was serialized twice (json.dumps of a JSON string); return the object itself`
	case len(text) == 0:
		msg = "is only whitespace: accepted (it is not empty), but the judge has nothing to grade; " +
			"return at least a one-sentence summary of what the agent did or why it failed"
	case placeholderSource(string(text)) != "":
		msg = "is the text " + strconv.Quote(string(text)) + ", " + placeholderSource(string(text)) + ", and the judge grades that text; " +
			placeholderFix(string(text))
	default:
		what, answer, ok := reprOf(text)
		if !ok {
			return
		}
		code, msg = softwarn.FinalResponseRepr, "looks like "+what+", not the text of the answer: the judge grades the whole of it; "+
			"send the answer's text itself, "+answer
	}
	if n.take() {
		n.add(at, softwarn.At("final_response").Warn(code, softwarn.Kept, msg))
	}
}

// placeholderSource says what prints t, a text that stands for no answer, or "" when t is not
// one: each language writes its missing value (or an object it was not told how to write) its
// own way, and naming the right one tells the porter where to look.
func placeholderSource(t string) string {
	const missing = ": a missing value was sent as text"
	switch t {
	case "None":
		return "what Python's str(None) prints" + missing
	case "null":
		return "JSON's and JavaScript's null written as text (String(null), JSON.stringify(null))" + missing
	case "undefined":
		return "what JavaScript's String(undefined) prints" + missing
	case "nil":
		return "what Ruby's nil.inspect and Lua's tostring(nil) print" + missing
	case "<nil>":
		return "what Go's fmt prints for a nil value" + missing
	case "NaN":
		return "a float that is not a number, as JavaScript's String(NaN) and Go's fmt print it"
	case "nan":
		return "a float that is not a number, as Python's str(float('nan')) prints it"
	case "[object Object]":
		return "what JavaScript's String(obj) prints for an object: the object was not serialized"
	}
	return ""
}

func placeholderFix(t string) string {
	if t == "[object Object]" {
		return "send the answer's text (the field of the object that holds it), not the object"
	}
	return "return the agent's answer, or a summary of why there is none"
}

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

// resultAttrs are the attributes of a result object that hold the answer: build_response's
// probe order, then a chat message's content.
var resultAttrs = [...]string{"final_response", "final_output", "output", "message", "content"}

// reprOf recognizes Python's text of a result object sent instead of the answer in it: str()
// of a LangChain message, the repr of an SDK's result class (RunResult(...)), str() of a dict
// ({'output': ...}). It says what t is and where the answer is. It is on the explain path only,
// and it looks at the ends of the text and at a few markers a repr cannot do without, so that
// prose which mentions content= or holds braces is not taken for one.
func reprOf(t []byte) (what, answer string, ok bool) {
	switch {
	case (bytes.HasPrefix(t, []byte("content='")) || bytes.HasPrefix(t, []byte(`content="`))) &&
		(bytes.Contains(t, []byte(" additional_kwargs={")) || bytes.Contains(t, []byte(" response_metadata={"))):
		return "Python's str() of a LangChain message (content='…' additional_kwargs={…})", "message.content", true
	case bytes.HasPrefix(t, []byte("{'")) && bytes.HasSuffix(t, []byte("}")):
		for _, attr := range resultAttrs {
			if bytes.Contains(t, []byte("'"+attr+"': ")) {
				return "Python's str() of a dict with '" + attr + "'", `result["` + attr + `"]`, true
			}
		}
		if bytes.Contains(t, []byte("'messages': [")) {
			return "Python's str() of a dict with 'messages' (a LangGraph state)", `the last message's content, result["messages"][-1].content`, true
		}
	}
	class := reprClass(t)
	if class == "" {
		return "", "", false
	}
	for _, attr := range resultAttrs {
		if kwarg(t[len(class):], attr) {
			return "Python's repr() of an object, " + class + "(…)", "result." + attr, true
		}
	}
	return "", "", false
}

// reprClass is the class name t starts with when t has the form of a repr with keyword
// arguments, Name(key=..., key=...): a capitalized identifier, "(", a keyword, "=", at least one
// more keyword after ", ", and ")" at the end. One keyword (F(x=1)) could be prose.
func reprClass(t []byte) string {
	const longest = 64
	i := 0
	for i < len(t) && i <= longest && isIdentByte(t[i], i > 0) {
		i++
	}
	if i < 2 || i > longest || t[0] < 'A' || t[0] > 'Z' || !bytes.HasSuffix(t, []byte(")")) ||
		i >= len(t) || t[i] != '(' || keyword(t[i+1:]) == 0 {
		return ""
	}
	rest := t[i+1:]
	for {
		j := bytes.Index(rest, []byte(", "))
		if j < 0 {
			return ""
		}
		if rest = rest[j+2:]; keyword(rest) > 0 {
			return string(t[:i])
		}
	}
}

// kwarg reports whether args, the text after a class name, holds the keyword argument name=.
func kwarg(args []byte, name string) bool {
	if bytes.HasPrefix(args, []byte("("+name+"=")) {
		return true
	}
	return bytes.Contains(args, []byte(", "+name+"="))
}

// keyword is the length of the Python keyword argument t starts with, "=" included, or 0.
func keyword(t []byte) int {
	i := 0
	for i < len(t) && isIdentByte(t[i], i > 0) && (t[i] < 'A' || t[i] > 'Z') {
		i++
	}
	if i == 0 || i >= len(t) || t[i] != '=' || (i+1 < len(t) && t[i+1] == '=') {
		return 0
	}
	return i + 1
}

func isIdentByte(c byte, notFirst bool) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (notFirst && c >= '0' && c <= '9')
}

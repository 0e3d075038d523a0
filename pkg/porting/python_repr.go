package porting

import "bytes"

// Python's text of a value, str() or repr(), read for the sources' printed shapes (source.printed):
// readPrinted reads the top level of a text sent as final_response once, and each shape reads
// what it names of it. The reading is on the explain path only; it looks at the ends of the
// text and at a few markers a repr cannot do without, so that prose which mentions content= or
// holds braces is not taken for one; keys and keyword arguments count only at the top level of
// the repr, outside string literals, so that an attribute of a nested object
// (choices[0].message) or text that quotes one is not named as the result's.

// A printedForm is which of Python's printed forms a text has.
type printedForm uint8

const (
	printedNone   printedForm = iota // none read: prose, str() of a message, or a repr that does not close
	printedDict                      // str() of a dict, {'key': value, ...}
	printedObject                    // the repr of an object with keyword arguments, Name(key=..., key=...)
	printedList                      // str() of a list of dicts, [{'key': ...}, ...], not read here
)

// printedText is what readPrinted read of text: its form, an object's class name, and the values
// (the text from each to text's end) of the top-level keys the shapes read (printedKeys),
// nil where the text has none.
type printedText struct {
	text   []byte
	form   printedForm
	class  []byte
	values [maxPrintedKeys][]byte
}

// value is the value of the top-level key, one of printedKeys, or nil.
func (p *printedText) value(key string) []byte {
	for i, k := range printedKeys {
		if k == key {
			return p.values[i]
		}
	}
	return nil
}

// set keeps value as the value of name when the shapes read it; a key given twice keeps its
// last value, as Python's dict does.
func (p *printedText) set(name, value []byte) {
	for i, k := range printedKeys {
		if string(name) == k {
			p.values[i] = value
		}
	}
}

// readPrinted reads t, final_response's text without the spaces around it, as str() of a dict
// or of a list of dicts, or as the repr of an object. One keyword (F(x=1)) could be prose, so
// an object takes two, the first right after "(". A text that has a form's ends but does not
// read as one is of none.
func readPrinted(t []byte) printedText {
	r := printedReader{p: printedText{text: t}}
	switch {
	case bytes.HasPrefix(t, []byte("{'")) && bytes.HasSuffix(t, []byte("}")):
		if !reprItems(t, 0, r.dictKey) {
			return printedText{text: t}
		}
		r.p.form = printedDict
	case bytes.HasPrefix(t, []byte("[{'")) && bytes.HasSuffix(t, []byte("}]")):
		r.p.form = printedList
	default:
		n := classLen(t)
		if n == 0 || !bytes.HasSuffix(t, []byte(")")) || !reprItems(t, n, r.kwarg) || !r.firstIsKeyword || r.keywords < 2 {
			return printedText{text: t}
		}
		r.p.form, r.p.class = printedObject, t[:n]
	}
	return r.p
}

// printedReader reads the top-level items of a repr into p, counting an object's arguments.
type printedReader struct {
	p               printedText
	items, keywords int
	firstIsKeyword  bool
}

// dictKey reads one top-level item of str() of a dict, 'key': value.
func (r *printedReader) dictKey(item []byte) {
	if name, value, ok := dictItem(item); ok {
		r.p.set(name, value)
	}
}

// kwarg reads one top-level argument of a repr, key=value when it is a keyword argument.
func (r *printedReader) kwarg(item []byte) {
	r.items++
	name, value, ok := kwargItem(item)
	if !ok {
		return
	}
	r.keywords++
	r.firstIsKeyword = r.firstIsKeyword || r.items == 1
	r.p.set(name, value)
}

// dictItem is the key and the value of item, the text from an item of str() of a dict to its
// end, when it is 'key': value.
func dictItem(item []byte) (name, value []byte, ok bool) {
	if len(item) == 0 || item[0] != '\'' {
		return nil, nil, false
	}
	end := skipString(item, 0)
	if end <= 0 || !bytes.HasPrefix(item[end:], []byte(": ")) {
		return nil, nil, false
	}
	return item[1 : end-1], item[end+2:], true
}

// kwargItem is the name and the value of item, the text from an argument of a repr to its end,
// when it is a keyword argument, key=value.
func kwargItem(item []byte) (name, value []byte, ok bool) {
	n := keyword(item)
	if n == 0 {
		return nil, nil, false
	}
	return item[:n-1], item[n:], true
}

// memberOf is the value of key at the top level of v, the repr of an object (Name(key=…)) or
// else str() of a dict ({'key': …}), the last when it is there twice, or nil; closed is where
// v closes, as reprClose says.
func memberOf(v []byte, key string) (value []byte, closed int) {
	if n := classLen(v); n > 0 {
		closed = reprClose(v, n, func(item []byte) {
			if name, val, ok := kwargItem(item); ok && string(name) == key {
				value = val
			}
		})
		return value, closed
	}
	closed = reprClose(v, 0, func(item []byte) {
		if name, val, ok := dictItem(item); ok && string(name) == key {
			value = val
		}
	})
	return value, closed
}

// emptyValue reports whether v, the text from a value of a repr to the repr's end, starts with
// a value that holds no answer: an empty string literal, None or an empty list. A note must
// not name it as the answer: sending it would be rejected as empty (contract rule 5).
func emptyValue(v []byte) bool {
	for _, lit := range [...]string{"''", `""`, "None", "[]"} {
		if bytes.HasPrefix(v, []byte(lit)) && (len(v) == len(lit) || bytes.IndexByte([]byte(",)} \n"), v[len(lit)]) >= 0) {
			return true
		}
	}
	return false
}

// literalIs reports whether v, a value of a repr to the repr's end, is the literal lit, a whole
// item.
func literalIs(v []byte, lit string) bool {
	return bytes.HasPrefix(v, []byte(lit)) && len(v) > len(lit) && bytes.IndexByte([]byte(",)}"), v[len(lit)]) >= 0
}

// resultAttrs are the attributes of a result object that hold the answer: build_response's
// probe order, then a chat message's content.
var resultAttrs = [...]string{"final_response", "final_output", "output", "message", "content"}

// resultRepr is the note's for str() of a dict or the repr of an object that has one of
// resultAttrs (the first in that order), an SDK's result class (RunResult(...)) or a dict
// ({'output': ...}): the answer is in that attribute's value (answerIn).
func resultRepr(p printedText) (what, answer string, is bool) {
	attr, v := "", []byte(nil)
	for _, a := range resultAttrs {
		if v = p.value(a); v != nil {
			attr = a
			break
		}
	}
	if attr == "" {
		return "", "", false
	}
	ref := "result." + attr
	if p.form == printedDict {
		ref = `result["` + attr + `"]`
	}
	answer, ok := answerIn(ref, attr, v)
	switch {
	case !ok:
		return "", "", true
	case p.form == printedDict:
		return "Python's str() of a dict with '" + attr + "'", answer, true
	}
	return "Python's repr() of an object, " + string(p.class) + "(…)", answer, true
}

// answerIn says where the answer is when ref, the attribute attr of a result, holds v (the
// text from that value to the repr's end), judged by v's first byte: a message that is a dict
// or an object holds it in its content, an output list in the text of its items, content in
// its text blocks (inBlocks). It reports false when the value holds no place to name (a
// message without content, an empty output list): no note is better than one that names the
// wrong value.
func answerIn(ref, attr string, v []byte) (string, bool) {
	switch {
	case emptyValue(v):
		return "", false
	case attr == "message" && len(v) > 0 && (v[0] == '{' || classLen(v) > 0):
		return messageContent(ref, v)
	case attr == "output" && len(v) > 1 && v[0] == '[':
		return "the text of the items in " + ref, v[1] != ']'
	}
	return inBlocks(ref, attr, v), true
}

// messageContent says where the answer is in the message v, a dict ({'role': …, 'content': …})
// or an object (Message(role=…, content=…)) that ref names: its content, read as a dict's key
// or an object's attribute, or false when its top level has no content.
func messageContent(ref string, v []byte) (string, bool) {
	if classLen(v) > 0 {
		ref += ".content"
	} else {
		ref += `["content"]`
	}
	content, closed := memberOf(v, "content")
	if closed < 0 || content == nil || emptyValue(content) {
		return "", false
	}
	return inBlocks(ref, "content", content), true
}

// inBlocks says where the answer is when ref, the attribute attr, holds the value v: content
// that is a list (a message of content blocks) holds content blocks, and the answer is the
// text of its text blocks, not the list.
func inBlocks(ref, attr string, v []byte) string {
	if attr == "content" && len(v) > 0 && v[0] == '[' {
		return "the text of the text blocks in " + ref
	}
	return ref
}

// joined is what an answer's place adds when n blocks or parts, more than one, hold its text.
func joined(n int) string {
	if n < 2 {
		return ""
	}
	return ", joined with the text of the others"
}

// reprMember is the value (the text from it to the repr's end) of the key key at the top level
// of d, str() of a dict, or nil when d is no dict or has no such key.
func reprMember(d []byte, key string) []byte {
	var found []byte
	if len(d) == 0 || d[0] != '{' || reprClose(d, 0, func(item []byte) {
		if found != nil || len(item) == 0 || item[0] != '\'' {
			return
		}
		end := skipString(item, 0)
		if end > 0 && string(item[1:end-1]) == key && bytes.HasPrefix(item[end:], []byte(": ")) {
			found = item[end+2:]
		}
	}) < 0 {
		return nil
	}
	return found
}

// firstItem is the text from the first item of the list that starts list (a repr's value, to
// the repr's end), or nil when the list is empty or does not close.
func firstItem(list []byte) []byte {
	var first []byte
	if reprClose(list, 0, func(item []byte) {
		if first == nil {
			first = item
		}
	}) < 0 {
		return nil
	}
	return first
}

// lastItem is the text from the last item of the list that starts list, or nil.
func lastItem(list []byte) []byte {
	var last []byte
	if reprClose(list, 0, func(item []byte) { last = item }) < 0 {
		return nil
	}
	return last
}

// reprItems walks t from t[open], an opening bracket, as reprClose does, and reports whether
// that bracket closes at t's last byte, with every literal closed: only then is t one repr,
// and what item was given its own items.
func reprItems(t []byte, open int, item func([]byte)) bool {
	end := reprClose(t, open, item)
	return end >= 0 && end == len(t)-1
}

// reprClose walks t from t[open], an opening bracket, skipping Python string literals, and
// calls item with the text from the start of each item at depth 1 (after the bracket, and
// after each comma at that depth and the spaces or newlines after it) to t's end. It returns
// the index of the bracket that closes t[open], or -1 when none does or a literal before it
// does not close.
func reprClose(t []byte, open int, item func([]byte)) int {
	depth := 0
	for i := open; i < len(t); i++ {
		switch t[i] {
		case '\'', '"':
			end := skipString(t, i)
			if end < 0 {
				return -1
			}
			i = end - 1
		case '(', '[', '{':
			if depth++; depth == 1 {
				item(t[i+1:])
			}
		case ')', ']', '}':
			if depth--; depth == 0 {
				return i
			}
		case ',':
			if depth == 1 {
				j := i + 1
				for j < len(t) && (t[j] == ' ' || t[j] == '\n') {
					j++
				}
				item(t[j:])
			}
		}
	}
	return -1
}

// skipString is the index just past the Python string literal that starts at t[i] (a quote),
// backslash escapes included, or -1 when it does not close. A JSON string, in double quotes,
// is one too.
func skipString(t []byte, i int) int {
	q := t[i]
	for j := i + 1; j < len(t); j++ {
		switch t[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return -1
}

// classLen is the length of the class name t starts with when a "(" follows it, Name(: a
// capitalized identifier of two to 64 bytes; else 0.
func classLen(t []byte) int {
	const longest = 64
	i := 0
	for i < len(t) && i <= longest && isIdentByte(t[i], i > 0) {
		i++
	}
	if i < 2 || i > longest || t[0] < 'A' || t[0] > 'Z' || i >= len(t) || t[i] != '(' {
		return 0
	}
	return i
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

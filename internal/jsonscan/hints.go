package jsonscan

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The errors below are where a value or a key was expected and something else came. Most
// input that fails there is not broken JSON but text of another kind: a Python dict printed
// with str(), a value JSON does not have (NaN, None, undefined), a comment, a trailing comma,
// compressed bytes, plain prose. Saying which, and the fix, is worth more to the person who
// sent it than the byte alone. Only the error path runs this code.

// failValue records the error for d[i], where a value was expected.
func (s *Scanner) failValue(i int) bool {
	d := s.data
	if i >= len(d) {
		return s.Fail(i, "unexpected end of input; expected a value")
	}
	// A value follows ',' only in an array (in an object a key does), so only ']' can come
	// after a trailing comma here; a '}' there closes an array with the wrong byte.
	if d[i] == ']' {
		if comma, ok := trailingComma(d, i); ok {
			return s.Fail(comma, "trailing comma before ']'; JSON allows none: remove it")
		}
	}
	if i == 0 && bytes.HasPrefix(d, []byte{0x1f, 0x8b}) {
		return s.Fail(i, "the input starts with the bytes 1F 8B, the gzip magic: it is compressed; "+
			"expected JSON text (decompress it, or over HTTP send it with Content-Encoding: gzip)")
	}
	// At the top level, words followed by more text are prose ("None of the orders..."), even
	// when the first is one of the words wrongText knows.
	prose := s.depth == 0 && startsText(d, i) && moreAfterWord(d, i)
	if h := wrongText(d, i); h != "" && !prose {
		return s.Fail(i, "%s", h)
	}
	switch {
	case !startsText(d, i):
		return s.Fail(i, "%s; expected a value", describeByte(d, i))
	case s.depth == 0:
		return s.Fail(i, "found the text %q, expected a JSON value; a bare answer must be a JSON string, in double quotes", textAt(d, i))
	}
	return s.Fail(i, "found the word %q, expected a value; a string takes double quotes", textAt(d, i))
}

// failKey records the error for d[i], where an object key was expected: after '{' or ','.
func (s *Scanner) failKey(i int) bool {
	d := s.data
	if i < len(d) && d[i] == '}' {
		if comma, ok := trailingComma(d, i); ok {
			return s.Fail(comma, "trailing comma before '}'; JSON allows none: remove it")
		}
	}
	if h := wrongText(d, i); h != "" {
		return s.Fail(i, "%s; expected a string key in double quotes", h)
	}
	if key, ok := unquotedKey(d, i); ok {
		return s.Fail(i, "found the key %s without quotes; expected a string key in double quotes (%q)", key, key)
	}
	return s.Fail(i, "%s; expected a string key in double quotes", describeByte(d, i))
}

// failSeparator records the error for d[i], where ',' or the container's closing byte was
// expected after one of its members or elements.
func (s *Scanner) failSeparator(i int, obj bool) bool {
	if isComment(s.data, i) {
		return s.Fail(i, "found a comment after %s, which JSON does not have: remove it; expected ',' or '%c'", elementName(obj), closer(obj))
	}
	return s.Fail(i, "%s after %s; expected ',' or '%c'", describeByte(s.data, i), elementName(obj), closer(obj))
}

// wrongText recognises, at d[i], the text of another language that is often sent for JSON, and
// says what it is and what to send instead; it returns "" for anything else.
func wrongText(d []byte, i int) string {
	if i >= len(d) {
		return ""
	}
	if isComment(d, i) {
		return "found a comment, which JSON does not have: remove it"
	}
	if d[i] == '\'' {
		return "unexpected single quote; JSON strings and keys take double quotes " +
			"(a Python dict printed with str() or repr() is not JSON: serialize it with json.dumps)"
	}
	switch w := wordAt(d, i); w {
	case "True", "False", "None":
		return "found Python's " + w + ", which JSON writes " + strings.ToLower(strings.Replace(w, "None", "null", 1)) +
			" (serialize with json.dumps, not str())"
	case "NaN", "nan", "Infinity", "inf", "Inf":
		return "found " + w + ", which JSON does not have (Python's json.dumps writes NaN and Infinity " +
			"unless allow_nan=False): send null or a string instead"
	case "undefined":
		return "found undefined, which JSON does not have: send null, or leave the key out"
	}
	return ""
}

// isComment reports whether a comment starts at d[i].
func isComment(d []byte, i int) bool {
	return i+1 < len(d) && d[i] == '/' && (d[i+1] == '/' || d[i+1] == '*')
}

// trailingComma reports where the ',' is when the last byte before d[i], whitespace aside, is one.
func trailingComma(d []byte, i int) (int, bool) {
	for j := i - 1; j >= 0; j-- {
		switch d[j] {
		case ' ', '\t', '\n', '\r':
			continue
		case ',':
			return j, true
		}
		return 0, false
	}
	return 0, false
}

// wordAt returns the bare ASCII word at d[i] (letters, digits and '_', not starting with a
// digit), cut to 32 bytes, or "" when none starts there.
func wordAt(d []byte, i int) string {
	const most = 32
	j := i
	for j < len(d) && j-i < most {
		c := d[j]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || j > i && c >= '0' && c <= '9' {
			j++
			continue
		}
		break
	}
	return string(d[i:j])
}

// startsText reports whether a letter starts at d[i], in any script.
func startsText(d []byte, i int) bool {
	r, _ := utf8.DecodeRune(d[i:])
	return unicode.IsLetter(r)
}

// moreAfterWord reports whether anything but whitespace follows the text at d[i].
func moreAfterWord(d []byte, i int) bool {
	j := i + len(run(d, i, len(d)))
	for j < len(d) && isSpace(d[j]) {
		j++
	}
	return j < len(d)
}

// textAt shows the text at d[i], up to whitespace or JSON punctuation, for an error message:
// at most 32 bytes, cut on a character boundary.
func textAt(d []byte, i int) string {
	return Cut(string(run(d, i, i+256)), 32)
}

// unquotedKey finds a key written without quotes at d[i]: text up to whitespace or JSON
// punctuation, at most 64 bytes, followed by ':'.
func unquotedKey(d []byte, i int) (string, bool) {
	const most = 64
	k := run(d, i, i+most+1)
	if len(k) == 0 || len(k) > most || !utf8.Valid(k) {
		return "", false
	}
	j := i + len(k)
	for j < len(d) && isSpace(d[j]) {
		j++
	}
	return string(k), j < len(d) && d[j] == ':'
}

// run is the bytes from d[i] up to whitespace, JSON punctuation or d[end].
func run(d []byte, i, end int) []byte {
	j := i
	for j < min(end, len(d)) && !isSpace(d[j]) && !bytes.ContainsRune([]byte(`,:{}[]"`), rune(d[j])) {
		j++
	}
	return d[i:j]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// StringHoldsJSON reports whether the string token at sp holds, once unescaped, the JSON text
// of one value of kind k (Object or Array), whitespace around it aside: what a value
// serialized twice looks like (json.dumps of a message, or of a model_dump_json()). It is for
// warnings, not the hot path.
func StringHoldsJSON(data []byte, sp Span, k Kind) bool {
	text := bytes.TrimSpace(StringText(data, sp))
	if len(text) < 2 || text[0] != byte(k) || text[len(text)-1] != closer(k == Object) {
		return false
	}
	var s Scanner
	s.Reset(text, DefaultHintDepth)
	s.SkipValue()
	return s.Err() == nil && s.AtEnd()
}

// DefaultHintDepth is the nesting StringHoldsJSON accepts: enough for any real message.
const DefaultHintDepth = 64

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

// failTrailing records the error for d[i], where the input should have ended after the
// top-level value.
func (s *Scanner) failTrailing(i int) bool {
	d := s.data
	if isComment(d, i) {
		return s.Fail(i, "found a comment after the top-level value, which JSON does not have: remove it")
	}
	if !jsonLines(d, i, s.maxDepth) {
		return s.Fail(i, "%s after the top-level value; expected exactly one JSON value", describeByte(d, i))
	}
	s.Fail(i, "%s after the top-level value; expected exactly one JSON value; another JSON value starts on this line, "+
		"as in JSON Lines (one result per line): send one result per input", describeByte(d, i))
	s.err.JSONLines = true
	return false
}

// jsonLines reports whether the input is several JSON values one per line, as a JSON Lines
// file holds them, where d[i] follows the first, whole and valid: the first value holds no
// line break, a line break comes between it and d[i], and a whole value on one line of its
// own starts at d[i]. Concatenated pretty-printed values are not JSON Lines: no tool that
// reads a line at a time would take them.
func jsonLines(d []byte, i, maxDepth int) bool {
	end := i // the end of the first value
	for end > 0 && isSpace(d[end-1]) {
		end--
	}
	start := 0
	for start < end && isSpace(d[start]) {
		start++
	}
	if bytes.IndexByte(d[end:i], '\n') < 0 || bytes.IndexByte(d[start:end], '\n') >= 0 {
		return false
	}
	var s Scanner
	s.Reset(d[i:], maxDepth)
	v := s.SkipValue()
	if s.Err() != nil || bytes.IndexByte(d[i:i+v.End], '\n') >= 0 {
		return false
	}
	j := i + v.End
	for j < len(d) && (d[j] == ' ' || d[j] == '\t' || d[j] == '\r') {
		j++
	}
	return j == len(d) || d[j] == '\n'
}

// wideEncodingHint recognises text in UTF-16 or UTF-32, by its byte order mark or, without
// one, by the NUL bytes around its first characters (JSON text starts with ASCII, which those
// encodings write with one or three NUL bytes: RFC 4627, section 3), and says what to send
// instead; it returns "" for anything else. Windows PowerShell 5.1 writes UTF-16LE with a
// byte order mark from Out-File and '>', and its -Encoding utf8 writes a byte order mark too,
// which JSON does not allow either: the fix names what writes UTF-8 without one.
func wideEncodingHint(d []byte) string {
	enc, bom := wideEncoding(d)
	if enc == "" {
		return ""
	}
	var found string
	switch {
	case bom != "":
		found = "the input starts with the bytes " + bom + ", the byte order mark of " + enc.name()
	case enc == utf16LE:
		found = "the input has a NUL byte after each ASCII character: it looks like " + enc.name()
	case enc == utf16BE:
		found = "the input has a NUL byte before each ASCII character: it looks like " + enc.name()
	case enc == utf32LE:
		found = "the input has three NUL bytes after each ASCII character: it looks like " + enc.name()
	default:
		found = "the input has three NUL bytes before each ASCII character: it looks like " + enc.name()
	}
	from := string(enc)
	if bom != "" {
		from = from[:len("UTF-16")] // iconv reads the byte order from the mark and drops it
	}
	fix := "send UTF-8 without a byte order mark"
	if enc == utf16LE {
		fix += " (PowerShell 7: Out-File -Encoding utf8NoBOM; Windows PowerShell 5.1, whose -Encoding utf8 adds a byte order mark: " +
			"[IO.File]::WriteAllText(<path>, <text>))"
	}
	return found + "; expected UTF-8: " + fix + ", or convert the file: iconv -f " + from + " -t UTF-8"
}

// encoding is a Unicode encoding other than UTF-8, by its iconv name.
type encoding string

const (
	utf16LE encoding = "UTF-16LE"
	utf16BE encoding = "UTF-16BE"
	utf32LE encoding = "UTF-32LE"
	utf32BE encoding = "UTF-32BE"
)

// name is how a message names the encoding, with what writes it where that is well known.
func (e encoding) name() string {
	switch e {
	case utf16LE:
		return "UTF-16 (little-endian, as Windows PowerShell's Out-File and '>' write)"
	case utf16BE:
		return "UTF-16 (big-endian)"
	case utf32LE:
		return "UTF-32 (little-endian)"
	}
	return "UTF-32 (big-endian)"
}

// wideEncoding says which of UTF-16 and UTF-32 d starts in, if either, and the bytes of its
// byte order mark as a message shows them ("" without one). UTF-32LE's mark starts with
// UTF-16LE's, so it is tried first: UTF-16 text never starts with U+0000.
func wideEncoding(d []byte) (encoding, string) {
	switch {
	case bytes.HasPrefix(d, []byte{0xFF, 0xFE, 0, 0}):
		return utf32LE, "FF FE 00 00"
	case bytes.HasPrefix(d, []byte{0, 0, 0xFE, 0xFF}):
		return utf32BE, "00 00 FE FF"
	case bytes.HasPrefix(d, []byte{0xFF, 0xFE}):
		return utf16LE, "FF FE"
	case bytes.HasPrefix(d, []byte{0xFE, 0xFF}):
		return utf16BE, "FE FF"
	}
	ascii := func(c byte) bool { return c != 0 && c < utf8.RuneSelf }
	switch {
	case len(d) < 2:
	case len(d) >= 4 && ascii(d[0]) && d[1] == 0 && d[2] == 0 && d[3] == 0:
		return utf32LE, ""
	case len(d) >= 4 && d[0] == 0 && d[1] == 0 && d[2] == 0 && ascii(d[3]):
		return utf32BE, ""
	case ascii(d[0]) && d[1] == 0 && (len(d) < 4 || d[2] != 0 && d[3] == 0):
		return utf16LE, ""
	case d[0] == 0 && ascii(d[1]) && (len(d) < 4 || d[2] == 0 && d[3] != 0):
		return utf16BE, ""
	}
	return "", ""
}

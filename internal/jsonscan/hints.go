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
		"as in JSON Lines"+JSONLinesAdvice, describeByte(d, i))
	s.err.JSONLines = true
	return false
}

// JSONLinesAdvice ends the reason of an error marked JSONLines. It is written for a result, the
// input Normalize takes; a caller checking another kind of value (messages.Check: one message)
// replaces it with advice of its own.
const JSONLinesAdvice = " (one result per line): send one result per input"

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

// wideEncodingHint recognises text in UTF-16 or UTF-32 and says what to send instead; it
// returns "" for anything else.
func wideEncodingHint(d []byte) string {
	if w, ok := DetectWide(d); ok {
		return w.Reason()
	}
	return ""
}

// Wide is the UTF-16 or UTF-32 encoding an input was found in, with the bytes it was told
// from. JSON text starts with ASCII, which those encodings write with one or three NUL bytes
// beside each character (RFC 4627, section 3); valid JSON in UTF-8 holds no NUL byte.
type Wide struct {
	enc      encoding
	bom      bool
	evidence string // the first bytes, as a message shows them: "FF FE", "7B 00 22 00"
}

// DetectWide tells UTF-16 and UTF-32 from the first bytes of d: their byte order mark or,
// without one, the NUL bytes around the first two characters (the first of them printable
// ASCII, tab, LF or CR, the second that or printable Latin-1: control bytes are binary data). One
// character is not enough: "1" and three NUL bytes are as likely a number with garbage after
// it. It reports false for anything else, UTF-8 included.
func DetectWide(d []byte) (Wide, bool) {
	for _, p := range widePatterns {
		if len(d) >= len(p.classes) && p.matches(d) {
			return Wide{enc: p.enc, bom: p.bom, evidence: hexBytes(d[:len(p.classes)])}, true
		}
	}
	return Wide{}, false
}

// WideNeedsMore reports whether DetectWide could answer otherwise for d with more bytes after
// it: a reader of a stream peeks until it does not. Any UTF-8 JSON text is told by its first
// two bytes.
func WideNeedsMore(d []byte) bool {
	for _, p := range widePatterns {
		if len(d) < len(p.classes) && p.matches(d) {
			return true
		}
	}
	return false
}

// Unit is the size of the encoding's code unit in bytes: 2 or 4.
func (w Wide) Unit() int {
	if w.enc == utf16LE || w.enc == utf16BE {
		return 2
	}
	return 4
}

// BOM reports whether the encoding was told from a byte order mark rather than guessed from
// NUL bytes.
func (w Wide) BOM() bool { return w.bom }

// BigEndian reports whether the encoding writes the high byte of a code unit first.
func (w Wide) BigEndian() bool { return w.enc == utf16BE || w.enc == utf32BE }

// Name is the encoding as a message names it: "UTF-16 (little-endian)".
func (w Wide) Name() string { return w.enc.name() }

// Iconv is the name iconv -f takes for the input: with a byte order mark the bare "UTF-16"
// or "UTF-32", which reads the byte order from the mark and drops it; without one the name
// with the byte order, since iconv's default byte order differs between systems.
func (w Wide) Iconv() string {
	if w.bom {
		return string(w.enc)[:len("UTF-16")]
	}
	return string(w.enc)
}

// Found says what was found: the byte order mark, or the bytes the encoding was guessed from.
func (w Wide) Found() string {
	if w.bom {
		name := w.Name()
		if w.enc == utf16LE { // what writes it, where that is well known
			name = "UTF-16 (little-endian, as Windows PowerShell's Out-File and '>' write)"
		}
		return "the input starts with the bytes " + w.evidence + ", the byte order mark of " + name
	}
	nul, where := "a NUL byte", "after"
	if w.Unit() == 4 {
		nul = "three NUL bytes"
	}
	if w.BigEndian() {
		where = "before"
	}
	s := "the input starts with the bytes " + w.evidence + ", " + nul + " " + where +
		" each of its first two characters: it looks like " + w.Name() + " without a byte order mark"
	if w.enc == utf16LE {
		s += ", as Python's .encode('utf-16-le') and .NET's Encoding.Unicode.GetBytes write it"
	}
	return s
}

// fix says how to send UTF-8 instead. Windows PowerShell 5.1 writes UTF-16LE with a byte
// order mark from Out-File and '>', and its -Encoding utf8 writes a byte order mark too,
// which JSON does not allow either: the fix names what writes UTF-8 without one. Text without
// a mark came from an encoder called by a program, whose fix is to ask it for UTF-8.
func (w Wide) fix() string {
	fix := "send UTF-8 without a byte order mark"
	switch {
	case w.enc == utf16LE && w.bom:
		fix += " (PowerShell 7: Out-File -Encoding utf8NoBOM; Windows PowerShell 5.1, whose -Encoding utf8 adds a byte order mark: " +
			"[IO.File]::WriteAllText(<path>, <text>))"
	case !w.bom:
		fix = "encode the text as UTF-8 (Python: .encode('utf-8'); .NET: Encoding.UTF8.GetBytes)"
	}
	return fix + ", or convert the file: iconv -f " + w.Iconv() + " -t UTF-8"
}

// Reason is the error's reason for one input in the encoding.
func (w Wide) Reason() string { return w.Found() + "; expected UTF-8: " + w.fix() }

// LineReason is the error's reason for each line of a stream of lines (JSON Lines) that
// starts in the encoding: the stream was found to be in it, so every line is.
func (w Wide) LineReason() string {
	return "the input is not UTF-8, so neither is this line: " + w.Reason()
}

// encoding is a Unicode encoding other than UTF-8, by its iconv name.
type encoding string

const (
	utf16LE encoding = "UTF-16LE"
	utf16BE encoding = "UTF-16BE"
	utf32LE encoding = "UTF-32LE"
	utf32BE encoding = "UTF-32BE"
)

// name is how a message names the encoding.
func (e encoding) name() string {
	switch e {
	case utf16LE:
		return "UTF-16 (little-endian)"
	case utf16BE:
		return "UTF-16 (big-endian)"
	case utf32LE:
		return "UTF-32 (little-endian)"
	}
	return "UTF-32 (big-endian)"
}

// A widePattern is how text in a wide encoding starts: one class per byte.
type widePattern struct {
	enc     encoding
	bom     bool
	classes []byteClass
}

type byteClass uint8

// Only characters of text count as evidence: NUL bytes around control bytes are binary data,
// not UTF-16 or UTF-32.
const (
	nul    byteClass = iota // 0x00
	ascii                   // printable ASCII, tab, LF or CR: what JSON text or prose starts with
	text                    // ascii or printable Latin-1 (A0-FF): the second character may be "é"
	byteFF                  // 0xFF, in a byte order mark
	byteFE                  // 0xFE, in a byte order mark
)

// widePatterns are tried in order, the first that matches wins: UTF-32LE's byte order mark
// starts with UTF-16LE's, and UTF-16 text never starts with U+0000.
var widePatterns = []widePattern{
	{utf32LE, true, []byteClass{byteFF, byteFE, nul, nul}},
	{utf32BE, true, []byteClass{nul, nul, byteFE, byteFF}},
	{utf16LE, true, []byteClass{byteFF, byteFE}},
	{utf16BE, true, []byteClass{byteFE, byteFF}},
	{utf32LE, false, []byteClass{ascii, nul, nul, nul, text, nul, nul, nul}},
	{utf32BE, false, []byteClass{nul, nul, nul, ascii, nul, nul, nul, text}},
	{utf16LE, false, []byteClass{ascii, nul, text, nul}},
	{utf16BE, false, []byteClass{nul, ascii, nul, text}},
}

// matches reports whether d, as far as it goes, starts as p does.
func (p widePattern) matches(d []byte) bool {
	for i, c := range d[:min(len(d), len(p.classes))] {
		if !p.classes[i].has(c) {
			return false
		}
	}
	return true
}

func (k byteClass) has(c byte) bool {
	switch k {
	case nul:
		return c == 0
	case ascii:
		return ' ' <= c && c < 0x7F || c == '\t' || c == '\n' || c == '\r'
	case text:
		return ascii.has(c) || c >= 0xA0
	case byteFF:
		return c == 0xFF
	}
	return c == 0xFE
}

// hexBytes shows bytes as a message does: "FF FE".
func hexBytes(b []byte) string {
	const digits = "0123456789ABCDEF"
	out := make([]byte, 0, 3*len(b))
	for i, c := range b {
		if i > 0 {
			out = append(out, ' ')
		}
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

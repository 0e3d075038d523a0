package jsonscan

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The errors below are where a value or a key was expected and something else came. Most
// input that fails there is not broken JSON but text of another kind: a dict printed by
// another language, a value JSON does not have (NaN, None, undefined), a comment, a trailing
// comma, compressed bytes, plain prose. Saying which is worth more to the person who sent it
// than the byte alone. The scanner says what the bytes are, as syntax, and records it as a
// Found; where such text comes from and how a program sends JSON instead is the layer above's
// to say (package porting words it from the Found). Only the error path runs this code.

// FoundKind is the kind of text other than JSON that a syntax error was found at.
type FoundKind uint8

const (
	// FoundSyntax: nothing the scanner recognises, only malformed JSON.
	FoundSyntax FoundKind = iota
	// FoundGzip: the input starts with the bytes 1F 8B, the gzip magic.
	FoundGzip
	// FoundWide: the input is text in UTF-16 or UTF-32 (Found.Wide says which).
	FoundWide
	// FoundSingleQuote: a string or a key in single quotes.
	FoundSingleQuote
	// FoundLiteral: True, False or None (Found.Word), a literal JSON writes true, false, null.
	FoundLiteral
	// FoundNonFinite: NaN, nan, Infinity, inf or Inf (Found.Word), numbers JSON does not have.
	FoundNonFinite
)

// Found is what a syntax error was found at, when the scanner recognises it as text other than
// JSON: the facts a message is worded from.
type Found struct {
	Kind FoundKind
	Word string // FoundLiteral, FoundNonFinite: the word, as in the input
	// Key: found where an object key was expected; the reason ends with KeyExpected.
	Key  bool
	Wide Wide // FoundWide: the encoding
}

// KeyExpected ends the reason of an error found where an object key was expected.
const KeyExpected = "; expected a string key in double quotes"

// failFound records the error for d[i], text of another kind, as found.
func (s *Scanner) failFound(i int, f Found, reason string) bool {
	if s.err == nil {
		s.Fail(i, "%s", reason)
		if s.err.Found.Kind == FoundSyntax { // Fail found nothing wider
			s.err.Found = f
		}
	}
	return false
}

// failWide returns the reason and the Found of an error in the first bytes of text in UTF-16
// or UTF-32, whatever the error is (Fail).
func failWide(d []byte) (string, Found, bool) {
	if w, ok := DetectWide(d); ok {
		return w.Reason(), Found{Kind: FoundWide, Wide: w}, true
	}
	return "", Found{}, false
}

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
		return s.failFound(i, Found{Kind: FoundGzip}, "the input starts with the bytes 1F 8B, the gzip magic: it is compressed; expected JSON text")
	}
	// At the top level, words followed by more text are prose ("None of the orders..."), even
	// when the first is one of the words wrongText knows.
	prose := s.depth == 0 && startsText(d, i) && moreAfterWord(d, i)
	if h, f := wrongText(d, i); h != "" && !prose {
		return s.failFound(i, f, h)
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
	if h, f := wrongText(d, i); h != "" {
		f.Key = true
		return s.failFound(i, f, h+KeyExpected)
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
func wrongText(d []byte, i int) (string, Found) {
	if i >= len(d) {
		return "", Found{}
	}
	if isComment(d, i) {
		return "found a comment, which JSON does not have: remove it", Found{}
	}
	if d[i] == '\'' {
		return "unexpected single quote; JSON strings and keys take double quotes", Found{Kind: FoundSingleQuote}
	}
	switch w := wordAt(d, i); w {
	case "True", "False", "None":
		return "found " + w + ", which JSON writes " + LiteralJSON(w), Found{Kind: FoundLiteral, Word: w}
	case "NaN", "nan", "Infinity", "inf", "Inf":
		return "found " + w + ", which JSON does not have: " + NonFiniteFix, Found{Kind: FoundNonFinite, Word: w}
	case "undefined":
		return "found undefined, which JSON does not have: send null, or leave the key out", Found{}
	}
	return "", Found{}
}

// LiteralJSON is how JSON writes the literal w of a FoundLiteral: "true" for True, "null" for
// None.
func LiteralJSON(w string) string { return strings.ToLower(strings.Replace(w, "None", "null", 1)) }

// NonFiniteFix is what to send for a FoundNonFinite.
const NonFiniteFix = "send null or a string instead"

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
// serialized twice looks like (a message serialized, then its text serialized again). It is for
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

// Evidence is the first bytes of the input, as a message shows them: "FF FE" for a byte order
// mark, "7B 00 22 00" for the bytes the encoding was guessed from.
func (w Wide) Evidence() string { return w.evidence }

// Found says what was found: the byte order mark, or the bytes the encoding was guessed from.
func (w Wide) Found() string {
	if w.bom {
		return "the input starts with the bytes " + w.evidence + ", the byte order mark of " + w.Name()
	}
	nul, where := "a NUL byte", "after"
	if w.Unit() == 4 {
		nul = "three NUL bytes"
	}
	if w.BigEndian() {
		where = "before"
	}
	return "the input starts with the bytes " + w.evidence + ", " + nul + " " + where +
		" each of its first two characters: it looks like " + w.Name() + " without a byte order mark"
}

// Fix says how to send UTF-8 instead: text with a byte order mark was written to a file, and
// UTF-8 takes none; text without one came from an encoder called by a program, whose fix is to
// ask it for UTF-8.
func (w Wide) Fix() string {
	if w.bom {
		return "send UTF-8 without a byte order mark"
	}
	return "encode the text as UTF-8"
}

// Convert is the command that converts the input to UTF-8.
func (w Wide) Convert() string { return "iconv -f " + w.Iconv() + " -t UTF-8" }

// Reason is the error's reason for one input in the encoding.
func (w Wide) Reason() string {
	return w.Found() + "; expected UTF-8: " + w.Fix() + ", or convert the file: " + w.Convert()
}

// NotUTF8Line starts the error's reason for each line of a stream of lines (JSON Lines) that
// starts in a wide encoding, before the reason for the input: the stream was found to be in
// it, so every line is.
const NotUTF8Line = "the input is not UTF-8, so neither is this line: "

// IsUTF16LE reports whether the encoding is UTF-16 in little-endian order, which Windows
// writes.
func (w Wide) IsUTF16LE() bool { return w.enc == utf16LE }

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

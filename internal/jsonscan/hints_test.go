package jsonscan

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// DetectWide tells UTF-16 and UTF-32 from their byte order marks, or from the NUL bytes
// around the first two characters; one character is not evidence enough.
func TestDetectWide(t *testing.T) {
	tests := []struct {
		name, in string
		enc      encoding // "" for none
		bom      bool
		evidence string
	}{
		{"UTF-16LE mark", "\xff\xfe{\x00", utf16LE, true, "FF FE"},
		{"UTF-16LE mark alone", "\xff\xfe", utf16LE, true, "FF FE"},
		{"UTF-16BE mark", "\xfe\xff\x00{", utf16BE, true, "FE FF"},
		{"UTF-32LE mark, not UTF-16LE's", "\xff\xfe\x00\x00{\x00\x00\x00", utf32LE, true, "FF FE 00 00"},
		{"UTF-32BE mark", "\x00\x00\xfe\xff", utf32BE, true, "00 00 FE FF"},
		{"UTF-16LE", "{\x00\"\x00", utf16LE, false, "7B 00 22 00"},
		{"UTF-16LE, two characters of a number", "4\x002\x00", utf16LE, false, "34 00 32 00"},
		{"UTF-16LE, Latin-1 second character", "\"\x00\xe9\x00", utf16LE, false, "22 00 E9 00"},
		{"UTF-16LE, a newline first", "\n\x00{\x00", utf16LE, false, "0A 00 7B 00"},
		{"UTF-16BE", "\x00{\x00\"", utf16BE, false, "00 7B 00 22"},
		{"UTF-32LE", "{\x00\x00\x00\"\x00\x00\x00", utf32LE, false, "7B 00 00 00 22 00 00 00"},
		{"UTF-32BE", "\x00\x00\x00{\x00\x00\x00\"", utf32BE, false, "00 00 00 7B 00 00 00 22"},
		{"UTF-16LE, one character", "1\x00", "", false, ""},
		{"UTF-16LE, one character and a half", "1\x002", "", false, ""},
		{"UTF-16BE, one character", "\x001", "", false, ""},
		{"one character and three NUL bytes", "1\x00\x00\x00", "", false, ""},
		{"one character and seven NUL bytes", "1\x00\x00\x00\x00\x00\x00\x00", "", false, ""},
		{"UTF-32BE, one character", "\x00\x00\x00{", "", false, ""},
		{"UTF-8", `{"a":1}`, "", false, ""},
		{"UTF-8 byte order mark", "\xef\xbb\xbf{}", "", false, ""},
		{"empty", "", "", false, ""},
		{"one NUL", "\x00", "", false, ""},
		{"NUL bytes only", "\x00\x00\x00\x00\x00\x00\x00\x00", "", false, ""},
		{"a NUL after two characters", "[1\x00\x00", "", false, ""},
		{"a non-ASCII first byte", "\xe9\x00a\x00", "", false, ""},
		{"UTF-16LE, a tab and a CR", "\t\x00\r\x00", utf16LE, false, "09 00 0D 00"},
		{"binary: control bytes and NUL bytes", "\x01\x00\x02\x00", "", false, ""},
		{"binary: a control byte second", "{\x00\x01\x00", "", false, ""},
		{"binary: DEL first", "\x7f\x00a\x00", "", false, ""},
		{"binary: a C1 control second", "a\x00\x85\x00", "", false, ""},
		{"binary: UTF-16BE-shaped", "\x00\x1b\x00[", "", false, ""},
		{"binary: UTF-32LE-shaped", "\x01\x00\x00\x00\x02\x00\x00\x00", "", false, ""},
		{"binary: UTF-32BE-shaped", "\x00\x00\x00a\x00\x00\x00\x02", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, ok := DetectWide([]byte(tt.in))
			assert.Equal(t, tt.enc != "", ok)
			assert.Equal(t, Wide{enc: tt.enc, bom: tt.bom, evidence: tt.evidence}, w)
		})
	}
}

// WideNeedsMore holds a stream's reader back only while the first bytes could still turn
// out to be UTF-16 or UTF-32; UTF-8 JSON text is told by its first two bytes.
func TestWideNeedsMore(t *testing.T) {
	tests := []struct {
		name, in string
		more     bool
	}{
		{"nothing yet", "", true},
		{"one ASCII character", "{", true},
		{"UTF-8 JSON", "{\"", false},
		{"a UTF-8 newline", "\n\n", false},
		{"UTF-16LE's mark, which may be UTF-32LE's", "\xff\xfe", true},
		{"UTF-32LE's mark", "\xff\xfe\x00\x00", false},
		{"UTF-16LE's mark and a character", "\xff\xfe{\x00", false},
		{"UTF-16LE, one character", "{\x00", true},
		{"UTF-16LE, two characters", "{\x00\"\x00", false},
		{"UTF-32LE, one character", "{\x00\x00\x00", true},
		{"UTF-32LE, two characters", "{\x00\x00\x00\"\x00\x00\x00", false},
		{"UTF-32BE, one character", "\x00\x00\x00{", true},
		{"a first byte no JSON text starts with", "\xe9", false},
		{"a control byte first", "\x01", false},
		{"a control byte and NUL", "\x01\x00", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.more, WideNeedsMore([]byte(tt.in)))
		})
	}
}

// The messages say what the bytes are: a byte order mark is named as such; without a mark,
// the bytes the encoding was told from. They name no program (package porting does).
func TestWideReason(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"UTF-16LE mark", "\xff\xfe{\x00}\x00",
			"the input starts with the bytes FF FE, the byte order mark of UTF-16 (little-endian); " +
				"expected UTF-8: send UTF-8 without a byte order mark, or convert the file: iconv -f UTF-16 -t UTF-8"},
		{"UTF-16LE", "{\x00}\x00",
			"the input starts with the bytes 7B 00 7D 00, a NUL byte after each of its first two characters: it looks like UTF-16 (little-endian) without a byte order mark; " +
				"expected UTF-8: encode the text as UTF-8, or convert the file: iconv -f UTF-16LE -t UTF-8"},
		{"UTF-16BE mark", "\xfe\xff\x00{\x00}",
			"the input starts with the bytes FE FF, the byte order mark of UTF-16 (big-endian); expected UTF-8: send UTF-8 without a byte order mark, or convert the file: iconv -f UTF-16 -t UTF-8"},
		{"UTF-32BE", "\x00\x00\x00{\x00\x00\x00}",
			"the input starts with the bytes 00 00 00 7B 00 00 00 7D, three NUL bytes before each of its first two characters: it looks like UTF-32 (big-endian) without a byte order mark; " +
				"expected UTF-8: encode the text as UTF-8, or convert the file: iconv -f UTF-32BE -t UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, ok := DetectWide([]byte(tt.in))
			require.True(t, ok)
			assert.Equal(t, tt.want, w.Reason())
		})
	}
}

// A syntax error at text of another kind records what it is, as data, beside a reason that
// says what the bytes are; plain malformed JSON records nothing.
func TestSyntaxErrorFound(t *testing.T) {
	tests := []struct {
		name, in string
		want     Found
		reason   string
	}{
		{"gzip", "\x1f\x8b\x08\x00", Found{Kind: FoundGzip}, "the input starts with the bytes 1F 8B, the gzip magic: it is compressed; expected JSON text"},
		{"UTF-16LE mark", "\xff\xfe{\x00", Found{Kind: FoundWide, Wide: Wide{enc: utf16LE, bom: true, evidence: "FF FE"}}, "the input starts with the bytes FF FE"},
		{"single quote", `'a'`, Found{Kind: FoundSingleQuote}, "unexpected single quote; JSON strings and keys take double quotes"},
		{"single-quoted key", `{'a': 1}`, Found{Kind: FoundSingleQuote, Key: true}, "unexpected single quote; JSON strings and keys take double quotes" + KeyExpected},
		{"None", `{"a":None}`, Found{Kind: FoundLiteral, Word: "None"}, "found None, which JSON writes null"},
		{"True as a key", `{True: 1}`, Found{Kind: FoundLiteral, Word: "True", Key: true}, "found True, which JSON writes true" + KeyExpected},
		{"-Infinity", `[-Infinity]`, Found{Kind: FoundNonFinite, Word: "Infinity"}, "found Infinity, which JSON does not have: send null or a string instead"},
		{"NaN", `[NaN]`, Found{Kind: FoundNonFinite, Word: "NaN"}, "found NaN, which JSON does not have: send null or a string instead"},
		{"prose is not a literal", `None of them`, Found{}, `found the text "None", expected a JSON value`},
		{"a comment", `[1 // one`, Found{}, "found a comment"},
		{"malformed", `[1,,2]`, Found{}, "unexpected character ','"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Scanner
			s.Reset([]byte(tt.in), 10)
			s.SkipValue()
			s.AtEnd()
			require.NotNil(t, s.Err())
			assert.Equal(t, tt.want, s.Err().Found)
			assert.True(t, strings.HasPrefix(s.Err().Reason, tt.reason), "%q does not start with %q", s.Err().Reason, tt.reason)
		})
	}
}

// The scanner's errors in the first bytes name the encoding only on the evidence DetectWide
// takes: a number followed by NUL padding keeps its own message.
func TestScannerWideHint(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"UTF-16LE", "1\x002\x00", "it looks like UTF-16 (little-endian) without a byte order mark"},
		{"one character and NUL padding", "1\x00\x00\x00", "unexpected byte 0x00 after the top-level value"},
		{"one character of UTF-16LE", "1\x00", "unexpected byte 0x00 after the top-level value"},
		{"binary data", "\x01\x00\x02\x00", "unexpected byte 0x01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Scanner
			s.Reset([]byte(tt.in), 10)
			s.SkipValue()
			s.AtEnd()
			require.NotNil(t, s.Err())
			assert.Contains(t, s.Err().Reason, tt.want)
			if !strings.Contains(tt.want, "UTF-16") {
				assert.NotContains(t, s.Err().Reason, "UTF-")
			}
		})
	}
}

// The JSON Lines mark is set only on the error after a first value, for a whole second
// value on a line of its own.
func TestSyntaxErrorJSONLines(t *testing.T) {
	tests := []struct {
		name, in string
		lines    bool
	}{
		{"two lines", "1\n2", true},
		{"two lines, spaces around", " 1 \r\n 2 \n", true},
		{"same line", "1 2", false},
		{"second value broken", "1\n[", false},
		{"error inside the first value", "[1,\n2", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Scanner
			s.Reset([]byte(tt.in), 10)
			s.Peek()
			s.SkipValue()
			s.AtEnd()
			if assert.NotNil(t, s.Err()) {
				assert.Equal(t, tt.lines, s.Err().JSONLines)
			}
		})
	}
}

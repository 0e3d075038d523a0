package jsonscan

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// wideEncoding tells UTF-16 and UTF-32 from their byte order marks, or from the NUL bytes
// around the first ASCII characters, however short the input.
func TestWideEncoding(t *testing.T) {
	tests := []struct {
		name, in string
		enc      encoding
		bom      string
	}{
		{"UTF-16LE mark", "\xff\xfe{\x00", utf16LE, "FF FE"},
		{"UTF-16LE mark alone", "\xff\xfe", utf16LE, "FF FE"},
		{"UTF-16BE mark", "\xfe\xff\x00{", utf16BE, "FE FF"},
		{"UTF-32LE mark, not UTF-16LE's", "\xff\xfe\x00\x00{\x00\x00\x00", utf32LE, "FF FE 00 00"},
		{"UTF-32BE mark", "\x00\x00\xfe\xff", utf32BE, "00 00 FE FF"},
		{"UTF-16LE", "{\x00\"\x00", utf16LE, ""},
		{"UTF-16LE, one character", "1\x00", utf16LE, ""},
		{"UTF-16LE, three bytes", "1\x002", utf16LE, ""},
		{"UTF-16BE", "\x00{\x00\"", utf16BE, ""},
		{"UTF-16BE, one character", "\x001", utf16BE, ""},
		{"UTF-32LE", "{\x00\x00\x00", utf32LE, ""},
		{"UTF-32BE", "\x00\x00\x00{", utf32BE, ""},
		{"UTF-8", `{"a":1}`, "", ""},
		{"UTF-8 byte order mark", "\xef\xbb\xbf{}", "", ""},
		{"empty", "", "", ""},
		{"one NUL", "\x00", "", ""},
		{"NUL bytes only", "\x00\x00\x00\x00", "", ""},
		{"a NUL after two characters", "[1\x00\x00", "", ""},
		{"a non-ASCII first byte", "\xe9\x00a\x00", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc, bom := wideEncoding([]byte(tt.in))
			assert.Equal(t, tt.enc, enc)
			assert.Equal(t, tt.bom, bom)
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

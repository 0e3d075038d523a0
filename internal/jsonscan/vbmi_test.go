package jsonscan

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestStringVBMIUTF8 puts every class of UTF-8 error, and the valid characters at the edges of
// the classes, at every position of strings over three blocks, followed by ASCII or directly by
// the closing quote (a character cut short by it): scanBoth compares scanStringVBMI, through
// scanString and by itself, with the careful scan, and requires it to settle the valid strings.
func TestStringVBMIUTF8(t *testing.T) {
	bad := []string{
		// overlong
		"\xc0\xaf", "\xc1\xbf", "\xc0\x80", "\xe0\x80\xaf", "\xe0\x9f\xbf", "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",
		// surrogates
		"\xed\xa0\x80", "\xed\xbf\xbf", "\xed\xb0\x80",
		// past U+10FFFF, and leads never valid
		"\xf4\x90\x80\x80", "\xf4\xbf\xbf\xbf", "\xf5\x80\x80\x80", "\xf7\xbf\xbf\xbf", "\xf8\x88\x80\x80\x80",
		"\xfc\x84\x80\x80\x80\x80", "\xfe", "\xff", "\xf5", "\xf8",
		// stray continuation bytes
		"\x80", "\xbf", "\x80\x80", "\xc3\xa9\x80", "\xe6\x9d\xb1\xbf", "\xf0\x9f\x98\x80\x80",
		// truncated, by ASCII, by another lead or by the closing quote
		"\xc3", "\xe6", "\xe6\x9d", "\xf0", "\xf0\x9f", "\xf0\x9f\x98", "\xc3\xc3\xa9", "\xe6\x9d\xe6\x9d\xb1", "\xf0\x9f\x98\xf0\x9f\x98\x80",
	}
	good := []string{
		"\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xe0\xbf\xbf", "\xe1\x80\x80", "\xec\xbf\xbf", "\xed\x80\x80", "\xed\x9f\xbf",
		"\xee\x80\x80", "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf0\xbf\xbf\xbf", "\xf1\x80\x80\x80", "\xf3\xbf\xbf\xbf",
		"\xf4\x80\x80\x80", "\xf4\x8f\xbf\xbf",
	}
	filler := strings.Repeat("abcdefghij", 30)
	for _, seq := range append(bad, good...) {
		for pos := 0; pos <= 2*blockSize+6; pos++ {
			for _, tail := range []int{0, 1, 3, blockSize} {
				body := `"` + filler[:pos] + seq + filler[:tail] + `"`
				scanBoth(t, []byte(body+strings.Repeat(" ", blockSize)))
				// A character after the string, in the closing quote's block, and an error there.
				scanBoth(t, []byte(body+", \"é\", "+seq+strings.Repeat(" ", blockSize)))
			}
		}
	}
}

// TestStringVBMIEscapes puts every byte after a backslash, and every byte in each of the four
// digits of a \u escape, at every position of strings over three blocks (so across every
// block boundary).
func TestStringVBMIEscapes(t *testing.T) {
	filler := strings.Repeat("abcdefghij", 30)
	for c := range 256 {
		for pos := 0; pos <= 2*blockSize+2; pos++ {
			body := `"` + filler[:pos] + `\` + string(rune(0)) + filler[:20] + `"` + strings.Repeat(" ", blockSize)
			doc := []byte(body)
			doc[1+pos+1] = byte(c)
			scanBoth(t, doc)
		}
		for k := range 4 {
			for _, pos := range []int{0, 1, 30, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 120, 121, 122, 123, 124, 125, 126, 127} {
				digits := []byte("d83d")
				digits[k] = byte(c)
				doc := []byte(`"` + filler[:pos] + `\u` + string(digits) + filler[:9] + `"` + strings.Repeat(" ", blockSize))
				scanBoth(t, doc)
			}
		}
	}
}

// TestStringVBMISurrogates puts surrogate escapes (which set SurrogateEscape) and escapes just
// outside the surrogate range at every position, so that each digit falls on every side of a
// block boundary.
func TestStringVBMISurrogates(t *testing.T) {
	filler := strings.Repeat("abcdefghij", 30)
	for _, esc := range []string{`\ud800`, `\uDFFF`, `\udbff\udc00`, `\ud7ff`, `\ue000`, `\uD7FF`, `\uc800`, `\u0d80`, `\u00d8`, `\\ud800`, `\\\ud800`} {
		for pos := 0; pos <= 2*blockSize+2; pos++ {
			for _, tail := range []int{0, 1, blockSize} {
				doc := []byte(`"` + filler[:pos] + esc + filler[:tail] + `"` + strings.Repeat(" ", blockSize))
				scanBoth(t, doc)
				// A surrogate after the closing quote, in its block, is no part of the string.
				doc = []byte(`"` + filler[:pos] + esc + filler[:tail] + `", "\ud800"` + strings.Repeat(" ", blockSize))
				scanBoth(t, doc)
			}
		}
	}
	// A string of surrogate pairs only, from every offset against the blocks.
	for at := range blockSize {
		doc := append(bytes.Repeat([]byte(" "), at), `"`+strings.Repeat(`\ud83d\ude00`, 40)+`"`+strings.Repeat(" ", blockSize)...)
		scanBothAt(t, doc, at)
	}
}

// stringVBMI runs scanStringVBMI from d[i] in both its loops, the ASCII one first and the one
// with the UTF-8 checks, which must agree, and returns their end and the string's flags. The
// ASCII loop must say it met a byte from 0x80 on exactly when the blocks it settled hold one,
// the other always.
func stringVBMI(t *testing.T, d []byte, i int) (int, uint64) {
	t.Helper()
	end, flags := scanStringVBMI(&d[0], i, len(d), false)
	aEnd, aFlags := scanStringVBMI(&d[0], i, len(d), true)
	if aEnd != end || aFlags&^stringWide != flags&^stringWide {
		t.Fatalf("%q from %d: scanStringVBMI = end %d flags %b from the ASCII loop, %d %b from the other", d, i, aEnd, aFlags, end, flags)
	}
	if end == 0 {
		return 0, 0
	}
	blocks := d[i : i+(end-1-i)/blockSize*blockSize+blockSize]
	if wide := bytes.ContainsFunc(blocks, func(r rune) bool { return r >= utf8.RuneSelf }); wide != (aFlags&stringWide != 0) || flags&stringWide == 0 {
		t.Fatalf("%q from %d: scanStringVBMI wide %b from the ASCII loop, %b from the other; the blocks hold a byte from 0x80 on: %v", d, i, aFlags&stringWide, flags&stringWide, wide)
	}
	return end, flags &^ stringWide
}

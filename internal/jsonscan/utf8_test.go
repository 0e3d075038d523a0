package jsonscan

import (
	"testing"
	"unicode/utf8"
)

// TestUTF8LenAgreesWithStdlib checks every lead byte with every continuation pattern that
// matters against utf8.DecodeRune.
func TestUTF8LenAgreesWithStdlib(t *testing.T) {
	conts := []byte{0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF}
	for lead := 0x80; lead <= 0xFF; lead++ {
		for _, b1 := range conts {
			for _, b2 := range conts {
				for _, b3 := range conts {
					for n := 1; n <= 4; n++ {
						d := []byte{byte(lead), b1, b2, b3}[:n]
						r, size := utf8.DecodeRune(d)
						want := size
						if r == utf8.RuneError && size <= 1 {
							want = 0
						}
						if got := utf8Len(d, 0); got != want {
							t.Fatalf("utf8Len(% x) = %d, want %d", d, got, want)
						}
					}
				}
			}
		}
	}
}

// TestStringScanAgreesWithCarefulScan compares the fast path with the byte-by-byte scan on
// strings that put every kind of special byte at every position of a long run.
func TestStringScanAgreesWithCarefulScan(t *testing.T) {
	specials := []string{"\\n", "\\u00e9", "\\\"", "\\\\", "\\ud800", "\\u12G4", "\\x", "\x01", "\x1f", "\x7f", "é", "東", "😀", "\xff", "\xed\xa0\x80", "\xc0\xaf", " ", "~"}
	for n := 0; n < 40; n++ {
		for pos := 0; pos <= n; pos++ {
			for _, sp := range specials {
				body := make([]byte, 0, n+8)
				for k := 0; k < n; k++ {
					if k == pos {
						body = append(body, sp...)
					}
					body = append(body, 'a'+byte(k%26))
				}
				// The string ends the input, or has room after it for the four words
				// scanString reads as one array.
				for _, tail := range []string{"", "                                "} {
					doc := append(append(append([]byte{'"'}, body...), '"'), tail...)
					var fast, careful Scanner
					fast.Reset(doc, 10)
					fast.StringValue()
					careful.Reset(doc, 10)
					flags, carefulOK := careful.scanStringCareful(1)
					if (fast.Err() == nil) != carefulOK {
						t.Fatalf("%q: fast path says %v, careful scan says %v", doc, fast.Err(), carefulOK)
					}
					if carefulOK && (fast.StrFlags() != flags || fast.Pos() != careful.Pos()) {
						t.Fatalf("%q: fast path flags %b end %d, careful %b end %d", doc, fast.StrFlags(), fast.Pos(), flags, careful.Pos())
					}
				}
			}
		}
	}
}

package jsonscan

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// vbmiAtoms are the pieces TestStringVBMIDifferential builds strings from: valid and invalid
// escapes, characters of every length with their truncations and overlong forms, stray
// continuation bytes, leads that are never valid, and control characters.
var vbmiAtoms = []string{
	"a", "Z", "0", " ", "/", "u", `"`, `\`, `\"`, `\\`, `\\\\`, `\\\"`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
	`\u00e9`, `\uD83D\uDE00`, `\ud83d\ude00`, `\ud800`, `\uDFFF`, `\uD7FF`, `\ue000`, `\uDc00`, `\u12`, `\u1`, `\u`, `\uZZZZ`,
	`\u12G4`, `\u0g12`, `\x`, `\a`, `\U0041`, `\'`, "\\\x01", "\\\xc3\xa9", "\\\xe2\x80\x99",
	"é", "ß", "\u07ff", "\u0800", "東", "\ud7ff", "\ue000", "\uffff", "😀", "\U00010000", "\U0010ffff", "\U000fffff",
	// truncated characters
	"\xc3", "\xe6", "\xe6\x9d", "\xf0", "\xf0\x9f", "\xf0\x9f\x98",
	// overlong forms, surrogates, past U+10FFFF
	"\xc0\x80", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf", "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",
	"\xed\xa0\x80", "\xed\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
	// stray continuation bytes, leads never valid
	"\x80", "\xbf", "\x9f", "\xa0", "\xc0", "\xc1", "\xf5", "\xf8", "\xfe", "\xff",
	// control characters, and DEL (which is valid)
	"\x00", "\x01", "\x09", "\x0a", "\x1f", "\x7f",
}

// vbmiValidAtom marks the atoms that are valid string content.
var vbmiValidAtom = func() map[string]bool {
	m := map[string]bool{}
	for _, a := range vbmiAtoms {
		_, _, ok := refStringEnd([]byte(a+`"`), 0)
		m[a] = ok && a != `"`
	}
	return m
}()

// vbmiTails are what may follow a string's closing quote (the bytes after it are in the closing
// quote's block, and are UTF-8-checked there).
var vbmiTails = []string{
	"", " ", ",", `, "b"`, `: "é\u00e9", `, "\xff", "\xc3", "\x80", "\xed\xa0\x80", `"\"`, `\`, "\x01", "東", "\xe6\x9d",
}

var (
	vbmiLower  = strings.Repeat("abcdefgh", 10)
	vbmiUpper  = strings.Repeat("ABCDEFGHIJ", 20)
	vbmiSpaces = strings.Repeat(" ", 140)
)

// refStringEnd is an independent reference for a string's content from d[from]: the end just
// past its closing quote and its flags, or ok false.
func refStringEnd(d []byte, from int) (end int, flags StrFlags, ok bool) {
	for i := from; i < len(d); {
		switch c := d[i]; {
		case c == '"':
			return i + 1, flags, true
		case c == '\\':
			flags |= Escaped
			if i+1 >= len(d) {
				return 0, 0, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) {
					return 0, 0, false
				}
				v := 0
				for _, h := range d[i+2 : i+6] {
					k := strings.IndexByte("0123456789abcdefABCDEF", h)
					if k < 0 {
						return 0, 0, false
					}
					v = v<<4 | min(k, k-6*(k/16))
				}
				if v >= 0xD800 && v <= 0xDFFF {
					flags |= SurrogateEscape
				}
				i += 6
			default:
				return 0, 0, false
			}
		case c < 0x20:
			return 0, 0, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && n == 1 {
				return 0, 0, false
			}
			i += n
		}
	}
	return 0, 0, false
}

// vbmiDoc builds a random input holding one string: junk, the opening quote at doc[at], ASCII
// up to from (where the scan starts), then atoms, placed so that they straddle the block
// boundaries from from (62-66 and 126-130 bytes on), up to 60-200 bytes of content, the closing
// quote (usually) and a tail. It returns the input, at and from, where a scan may start: no
// continuation byte, not escaped.
func vbmiDoc(rng *rand.Rand, valid bool) (doc []byte, at, from int) {
	doc = make([]byte, 0, 512)
	at = rng.IntN(130)
	for range at {
		doc = append(doc, " \x00\xff\"\\a{"[rng.IntN(7)])
	}
	doc = append(doc, '"')
	doc = append(doc, vbmiLower[:rng.IntN(70)]...)
	from = len(doc)
	if rng.IntN(3) == 0 { // sometimes a scan that starts at an atom
		from = -1
	}
	size := 60 + rng.IntN(141)
	targets := []int{62 + rng.IntN(5), 126 + rng.IntN(5), 190 + rng.IntN(5)}
	start := len(doc)
	for len(doc)-start < size {
		pos := len(doc) - start
		if from >= 0 {
			pos = len(doc) - from
		}
		if len(targets) > 0 && pos < targets[0]-8 && rng.IntN(4) != 0 {
			n := targets[0] - pos - rng.IntN(5)
			doc = append(doc, vbmiUpper[:max(n, 0)]...)
			targets = targets[1:]
		}
		if len(targets) > 0 && pos >= targets[0] {
			targets = targets[1:]
		}
		a := vbmiAtoms[rng.IntN(len(vbmiAtoms))]
		if valid && !vbmiValidAtom[a] {
			continue
		}
		if from < 0 && (a[0] < 0x80 || a[0] >= 0xC0) {
			from = len(doc)
		}
		doc = append(doc, a...)
		if rng.IntN(3) == 0 {
			doc = append(doc, a...)
		}
	}
	if from < 0 {
		from = start
	}
	if rng.IntN(10) != 0 {
		doc = append(doc, '"')
	}
	for k := rng.IntN(4); k > 0; k-- {
		doc = append(doc, vbmiTails[rng.IntN(len(vbmiTails))]...)
	}
	if rng.IntN(4) != 0 {
		doc = append(doc, vbmiSpaces[:rng.IntN(140)]...)
	}
	return doc, at, from
}

// TestStringVBMIDifferential compares scanStringVBMI, from random offsets, with the careful scan
// and with an independent reference on random strings built by vbmiDoc.
func TestStringVBMIDifferential(t *testing.T) {
	if !useStringVBMI {
		t.Skip("this CPU has no AVX512-VBMI")
	}
	rng := rand.New(rand.NewPCG(2024, 64))
	var cases, valid, settled int
	for range 50000 {
		doc, at, from := vbmiDoc(rng, rng.IntN(2) == 0)
		cases++
		var careful Scanner
		careful.Reset(doc, 10)
		careful.pos = at
		carefulFlags, carefulOK := careful.scanStringCareful(from)
		refEnd, refFlags, refOK := refStringEnd(doc, from)
		if refOK != carefulOK || refOK && (refEnd != careful.Pos() || refFlags != carefulFlags) {
			t.Fatalf("%q from %d: reference ok=%v end %d flags %b; careful scan ok=%v end %d flags %b (%v)",
				doc, from, refOK, refEnd, refFlags, carefulOK, careful.Pos(), carefulFlags, careful.Err())
		}
		end, flags := stringVBMI(t, doc, from)
		if refOK {
			valid++
		}
		if end == 0 {
			// A valid string whose closing quote's block lies within the input, with valid
			// UTF-8 in it after the quote, is scanStringVBMI's to settle.
			q := refEnd - 1
			if e := from + (q-from)/blockSize*blockSize + blockSize; refOK && e <= len(doc) && utf8.Valid(doc[q:e]) {
				t.Fatalf("%q from %d: scanStringVBMI did not settle a valid string (end %d)", doc, from, refEnd)
			}
			continue
		}
		settled++
		if !refOK || end != refEnd || StrFlags(flags) != refFlags {
			t.Fatalf("%q from %d: scanStringVBMI = end %d flags %b; reference ok=%v end %d flags %b (%v)",
				doc, from, end, flags, refOK, refEnd, refFlags, careful.Err())
		}
	}
	t.Logf("%d cases, %d valid, %d settled by scanStringVBMI", cases, valid, settled)
}

// TestStringVBMIUTF8Windows puts every sequence of four bytes drawn from the edges of the
// UTF-8 classes (ASCII, the continuation bytes' subranges, every kind of lead) before the
// closing quote, within a block and across the first block boundary, ended there or completed
// by continuation bytes: what scanStringVBMI settles must be what the reference finds, and it
// must settle every valid string with valid UTF-8 after it.
func TestStringVBMIUTF8Windows(t *testing.T) {
	if !useStringVBMI {
		t.Skip("this CPU has no AVX512-VBMI")
	}
	reps := []byte{0x41, 0x22, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF}
	var cases, settled int
	for _, pos := range []int{10, 61, 62, 63} {
		for _, tail := range []string{`"`, "\x80\x80\""} {
			// The bytes before pos are ASCII: the reference starts at pos.
			doc := []byte(vbmiLower[:pos] + "abcd" + tail + vbmiSpaces[:blockSize])
			for _, a := range reps {
				for _, b := range reps {
					for _, c := range reps {
						for _, d := range reps {
							doc[pos], doc[pos+1], doc[pos+2], doc[pos+3] = a, b, c, d
							cases++
							end, flags := stringVBMI(t, doc, 0)
							refEnd, refFlags, ok := refStringEnd(doc, pos)
							if end == 0 && ok && utf8.Valid(doc[refEnd:]) {
								t.Fatalf("%q: scanStringVBMI did not settle a valid string (end %d)", doc, refEnd)
							}
							if end == 0 {
								continue
							}
							settled++
							if !ok || end != refEnd || StrFlags(flags) != refFlags {
								t.Fatalf("%q: scanStringVBMI = end %d flags %b; reference ok=%v end %d flags %b", doc, end, flags, ok, refEnd, refFlags)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d cases, %d settled by scanStringVBMI", cases, settled)
}

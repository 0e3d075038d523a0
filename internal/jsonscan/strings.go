package jsonscan

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf8"
	"unsafe"
)

// AppendUnescaped appends the text of a validated string's content (without its quotes) to dst.
// A lone surrogate escape is appended as its WTF-8 bytes, so that it stays distinct from every
// real character, as it does in the platform's Python parser.
func AppendUnescaped(dst, content []byte) []byte {
	for i := 0; i < len(content); {
		c := content[i]
		if c != '\\' {
			j := i + 1
			for j < len(content) && content[j] != '\\' {
				j++
			}
			dst = append(dst, content[i:j]...)
			i = j
			continue
		}
		switch e := content[i+1]; e {
		case 'u':
			r, _ := Hex4(content, i+2)
			i += 6
			if r >= 0xD800 && r < 0xDC00 && i+6 <= len(content) && content[i] == '\\' && content[i+1] == 'u' {
				if lo, ok := Hex4(content, i+2); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					i += 6
				}
			}
			if r >= 0xD800 && r <= 0xDFFF {
				dst = append(dst, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
			} else {
				dst = utf8.AppendRune(dst, r)
			}
			continue
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		default:
			dst = append(dst, e)
		}
		i += 2
	}
	return dst
}

// AppendCompact appends the validated JSON value src to dst without the whitespace between its
// tokens; strings are copied unchanged. Values with whitespace are common (Python's json.dumps
// puts a space after every ',' and ':'), so strings are skipped with bytes.IndexByte, not a byte
// at a time.
func AppendCompact(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		c := src[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			i++
		case '"':
			j := closingQuote(src, i+1)
			dst = append(dst, src[i:j+1]...)
			i = j + 1
		default:
			j := i + 1
			for j < len(src) && !isStructuralBreak(src[j]) {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j
		}
	}
	return dst
}

// closingQuote returns the offset of the quote that closes the valid string whose content
// starts at src[start]: the first quote that no odd run of backslashes comes right before.
func closingQuote(src []byte, start int) int {
	// Most strings are short (keys, roles, ids): up to four words find their end without a
	// call. Only a quote as the first special byte ends the string here; anything else (an
	// escape, a non-ASCII byte) goes to the search below.
	for k := start; k < start+32 && k+8 <= len(src); k += 8 {
		if m := special(binary.LittleEndian.Uint64(src[k:])); m != 0 {
			if k += bits.TrailingZeros64(m) >> 3; src[k] == '"' {
				return k
			}
			break
		}
	}
	for i := start; ; {
		q := bytes.IndexByte(src[i:], '"')
		if q < 0 {
			return len(src) - 1 // not a valid string after all: copy to the end rather than loop
		}
		q += i
		k := q
		for k > start && src[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q
		}
		i = q + 1
	}
}

func isStructuralBreak(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"'
}

// AppendString appends s as a JSON string. Only what JSON requires is escaped, plus U+2028 and
// U+2029 for the sake of JavaScript readers. A lone surrogate that AppendUnescaped kept (the
// three bytes ED A0-BF 80-BF) is written back as its \uXXXX escape, so that a key holding one
// is named as it was sent; other invalid UTF-8 becomes U+FFFD.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = AppendStringContent(dst, s)
	return append(dst, '"')
}

// AppendStringContent appends s escaped as AppendString escapes it, without the quotes: a JSON
// string written in pieces, each of whole characters, is the string of the pieces joined.
//
// A warning's text is mostly plain ASCII with a quote every few words (its examples of JSON):
// each word is stored whole before its special byte is looked for, and a quote's escape is two
// stores, so that no quote costs a copy of the run before it. There is always room past dst's
// end for the rest of s as it is and a word more (stringRoom), so that no store needs a check.
// Like append, it writes nothing of dst's capacity past the length it returns: a word is
// stored only while eight bytes of s are left, whose escaping is eight bytes or more.
func AppendStringContent(dst []byte, s string) []byte {
	if s == "" {
		return dst // as append would: no room made, nothing allocated
	}
	n, i := len(dst), 0
	dst = stringRoom(dst, n, len(s))
	if useEscapeASCII {
		// The word loop below pays a branch it mispredicts for each quote, and a warning has
		// one every few words: escapeASCII escapes a chunk whatever it holds, until a byte
		// that is not printable ASCII.
		read, written := escapeASCII(&dst[n], cap(dst)-n, unsafe.StringData(s), len(s))
		if i, n = read, n+written; i == len(s) {
			return dst[:n]
		}
		dst = stringRoom(dst, n, len(s)-i)
	}
	for {
		// Plain ASCII a word at a time, and the last bytes under a word as one too: special
		// marks exactly the byte that ends a run (its lowest mark is exact, and only that one
		// is used); the bytes stored from it on are written over.
		var m uint64
		for ; i+8 <= len(s); i, n = i+8, n+8 {
			w := stringWord(s, i)
			binary.LittleEndian.PutUint64(dst[n:], w)
			if m = special(w); m != 0 {
				break
			}
		}
		if m == 0 {
			// The last bytes are copied, not stored as a word: the rest of the output may be
			// shorter than a word, and no byte past it is written.
			if i == len(s) {
				break
			}
			if m = special(tailWord(s, i)); m == 0 {
				n += copy(dst[n:], s[i:])
				break
			}
			copy(dst[n:], s[i:i+bits.TrailingZeros64(m)>>3])
		}
		k := bits.TrailingZeros64(m) >> 3
		i, n = i+k, n+k
		switch c := s[i]; {
		case c == '"' || c == '\\':
			dst[n], dst[n+1] = '\\', c
			i, n = i+1, n+2
		case c < utf8.RuneSelf:
			dst[n] = '\\'
			switch c {
			case '\n':
				dst[n+1] = 'n'
			case '\r':
				dst[n+1] = 'r'
			case '\t':
				dst[n+1] = 't'
			default:
				dst[n+1], dst[n+2], dst[n+3], dst[n+4], dst[n+5] = 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF]
				n += 4
			}
			i, n = i+1, n+2
		default:
			i, n = appendRune(dst, n, s, i)
		}
		dst = stringRoom(dst, n, len(s)-i)
	}
	return dst[:n]
}

// tailWord is s[i:], fewer than eight bytes, as the low bytes of a little-endian word whose
// bytes above them are plain ('a'): one load, when s has a word before its end.
func tailWord(s string, i int) uint64 {
	rest := len(s) - i
	var w uint64
	if len(s) >= 8 {
		w = stringWord(s, len(s)-8) >> (64 - 8*rest)
	} else {
		for k := len(s) - 1; k >= i; k-- {
			w = w<<8 | uint64(s[k])
		}
	}
	return w | lsb*'a'<<(8*rest)
}

// stringRoom returns dst, of which the first n bytes are written, at its whole capacity, which
// holds those n, rest more and a word and an escape past them.
func stringRoom(dst []byte, n, rest int) []byte {
	if need := rest + 16; cap(dst)-n < need {
		dst = slices.Grow(dst[:n], need)
	}
	return dst[:cap(dst)]
}

// appendRune writes the non-ASCII character at s[i] at dst[n:] as AppendStringContent escapes
// it (a lone surrogate's WTF-8 bytes as its escape, an invalid byte as U+FFFD, U+2028 and
// U+2029 escaped, any other as it is), and returns the offsets past it.
func appendRune(dst []byte, n int, s string, i int) (int, int) {
	c := s[i]
	if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
		u := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
		dst[n], dst[n+1], dst[n+2], dst[n+3], dst[n+4], dst[n+5] = '\\', 'u', hexDigits[u>>12], hexDigits[u>>8&0xF], hexDigits[u>>4&0xF], hexDigits[u&0xF]
		return i + 3, n + 6
	}
	switch r, size := utf8.DecodeRuneInString(s[i:]); {
	case r == utf8.RuneError && size == 1:
		return i + 1, n + copy(dst[n:], "\uFFFD")
	case r == '\u2028' || r == '\u2029':
		dst[n], dst[n+1], dst[n+2], dst[n+3], dst[n+4], dst[n+5] = '\\', 'u', '2', '0', '2', hexDigits[r&0xF]
		return i + size, n + 6
	default:
		return i + size, n + copy(dst[n:], s[i:i+size])
	}
}

const hexDigits = "0123456789abcdef"

// stringWord is the little-endian word of s[i:i+8], one load.
func stringWord(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// ShortToken shows a token from the input in a message as the sender wrote it, escapes
// included (a lone surrogate stays \ud800), cut to about 64 bytes on a character boundary, and
// never inside an escape, so that a message stays readable whatever the input holds.
func ShortToken(token string) string {
	const most = 64
	if len(token) <= most+2 {
		return token
	}
	// An escape the cut would split (a backslash and its letter, or \uXXXX) goes whole.
	for i := 0; i < most; i++ {
		if token[i] != '\\' {
			continue
		}
		n := 2
		if i+1 < len(token) && token[i+1] == 'u' {
			n = 6
		}
		if i+n > most {
			return token[:i] + "…" + `"`
		}
		i += n - 1
	}
	return Cut(token, most) + `"`
}

// Cut is s when it has at most most bytes, else its first most bytes or fewer, cut on a
// character boundary, and "…".
func Cut(s string, most int) string {
	if len(s) <= most {
		return s
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

package normalize

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dystopic/normalizer/internal/jsonscan"
)

// TestHeadOfWords checks headOf, which counts eight bytes at a time, against the same count
// one character at a time, on content of every kind of character around the cap, each at
// every offset against the words and against the cap.
func TestHeadOfWords(t *testing.T) {
	pieces := []string{"a", "é", "東", "😀", `\n`, `\"`, `\\`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00x`, " "}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 300; round++ {
		var b strings.Builder
		for b.Len() < 3*MaxChars {
			p := pieces[0]
			if rng.IntN(4) == 0 { // runs of ASCII, as prose has, broken by the others
				p = pieces[rng.IntN(len(pieces))]
			}
			b.WriteString(p)
		}
		// Cut after about MaxChars characters, at a different place each round.
		content := []byte(b.String())
		n := MaxChars - 40 + round%80
		for cut, chars := 0, 0; cut < len(content); chars++ {
			if chars == n {
				content = content[:cut]
				break
			}
			switch {
			case bytes.HasPrefix(content[cut:], []byte(`\ud83d\ude00`)): // a pair is one character
				cut += 12
			case content[cut] == '\\' && content[cut+1] == 'u':
				cut += 6
			case content[cut] == '\\':
				cut += 2
			default:
				_, size := utf8.DecodeRune(content[cut:])
				cut += size
			}
		}
		var got, want []byte
		g, w := headOf(content, &got), headOfBytewise(content, &want)
		if g != w || string(got) != string(want) {
			t.Fatalf("round %d: headOf = %+v, %d bytes; want %+v, %d bytes", round, g, len(got), w, len(want))
		}
	}
}

// headOfBytewise is headOf one character at a time, as it was written first.
func headOfBytewise(content []byte, out *[]byte) headFacts {
	var h headFacts
	last, chars, i := 0, 0, 0
	for ; i < len(content) && chars < MaxChars; chars++ {
		c := content[i]
		switch {
		case c == '\\' && content[i+1] == 'u':
			v, _ := jsonscan.Hex4(content, i+2)
			if v < 0xD800 || v > 0xDFFF {
				i += 6
				continue
			}
			if v < 0xDC00 && i+12 <= len(content) && content[i+6] == '\\' && content[i+7] == 'u' {
				if lo, _ := jsonscan.Hex4(content, i+8); lo >= 0xDC00 && lo <= 0xDFFF {
					i += 12
					continue
				}
			}
			if h.lone == 0 {
				h.firstLone = string(content[i : i+6])
			}
			h.lone++
			*out = append(*out, content[last:i]...)
			*out = append(*out, "\uFFFD"...)
			i += 6
			last = i
		case c == '\\':
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			_, n := utf8.DecodeRune(content[i:])
			i += n
		}
	}
	*out = append(*out, content[last:i]...)
	h.end = i
	return h
}

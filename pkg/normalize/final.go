package normalize

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// readFinal takes the final_response string token at sp. The text is kept as written, escapes
// included, except that lone surrogate escapes become U+FFFD and a text over MaxChars code
// points is cut there, on a character boundary, and marked.
func (r *Result) readFinal(sp jsonscan.Span, flags jsonscan.StrFlags) {
	tok := r.s.Data()[sp.Start:sp.End]
	r.final, r.truncated = tok, false
	if r.s.Err() != nil || (flags&jsonscan.SurrogateEscape == 0 && len(tok)-2 <= MaxChars) {
		return // every character is at least one byte: nothing to cut, nothing to replace
	}
	content := tok[1 : len(tok)-1]
	out := r.finalBuf[:0]
	if need := min(len(tok), 4*MaxChars) + len(TruncationMarker) + 2; cap(out) < need {
		out = make([]byte, 0, need)
		r.finalBuf = out
	}
	out = append(out, '"')
	head := headOf(content, &out)
	if head.lone > 0 {
		r.warn.AddAlways(softwarn.At("final_response").Warning(softwarn.FinalResponseLoneSurrogate, softwarn.Replaced,
			loneSurrogates(head.lone, head.firstLone)))
	}
	if head.end < len(content) {
		total := MaxChars + countChars(content[head.end:], flags&jsonscan.Escaped != 0)
		out = append(out, TruncationMarker...)
		r.truncated = true
		r.warn.AddAlways(softwarn.At("final_response").Warning(softwarn.FinalResponseTruncated, softwarn.Truncated, softwarn.Parts{
			Problem: "has " + group(total) + " characters, over the cap of " + group(MaxChars),
			Done:    "the first " + group(MaxChars) + ` were kept and "` + TruncationMarker + `" was appended`,
			Fix:     "the judge scores the head only: put the answer first",
		}))
	}
	if head.lone == 0 && head.end == len(content) {
		return // nothing changed: keep aliasing the input
	}
	r.final = append(out, '"')
}

// loneSurrogates is what the warning says about n lone surrogate escapes.
func loneSurrogates(n int, first string) softwarn.Parts {
	p := softwarn.Parts{
		Found: "a lone UTF-16 surrogate escape, " + first + ", which encodes no character",
		Done:  "it was replaced with U+FFFD",
		Fix:   "encode characters outside the BMP as a surrogate pair or as UTF-8",
	}
	if n > 1 {
		p.Found = strconv.Itoa(n) + " lone UTF-16 surrogate escapes (the first is " + first + "), which encode no character"
		p.Done = "each was replaced with U+FFFD"
	}
	return p
}

type headFacts struct {
	end       int // offset in the content where the first character past MaxChars starts
	lone      int // lone surrogate escapes replaced in the head
	firstLone string
}

// headOf appends to out the first MaxChars characters of content, replacing lone surrogates.
func headOf(content []byte, out *[]byte) headFacts {
	var h headFacts
	last, chars, i := 0, 0, 0
	for ; i < len(content) && chars < MaxChars; chars++ {
		// Eight bytes at a time while no escape is among them and the cap is not near: they
		// hold as many characters as bytes that are no continuation byte, and the last of
		// them ends at the first byte after them that is none either.
		if i+8 <= len(content) && MaxChars-chars >= 8 {
			x := binary.LittleEndian.Uint64(content[i:])
			if b := x ^ 0x5C5C5C5C5C5C5C5C; (b-0x0101010101010101)&^b&0x8080808080808080 == 0 {
				chars += 7 - bits.OnesCount64(x&^(x<<1)&0x8080808080808080) // and chars++
				for i += 8; i < len(content) && content[i]&0xC0 == 0x80; i++ {
				}
				continue
			}
		}
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

// countChars counts the characters of validated string content as Python's len does: an escape
// is one character, a surrogate pair escape one, a lone surrogate escape one.
func countChars(content []byte, escaped bool) int {
	if !escaped {
		return runeCount(content)
	}
	n := 0
	for {
		j := bytes.IndexByte(content, '\\')
		if j < 0 {
			return n + runeCount(content)
		}
		n += runeCount(content[:j]) + 1
		step := 2
		if content[j+1] == 'u' {
			step = 6
			if v, _ := jsonscan.Hex4(content, j+2); v >= 0xD800 && v < 0xDC00 && j+12 <= len(content) && content[j+6] == '\\' && content[j+7] == 'u' {
				if lo, _ := jsonscan.Hex4(content, j+8); lo >= 0xDC00 && lo <= 0xDFFF {
					step = 12
				}
			}
		}
		content = content[j+step:]
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// group writes n with thousands separators, as people read lengths: 50,000.
func group(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// runeCount counts the characters of valid UTF-8: every byte that is not a continuation byte
// (10xxxxxx), eight bytes at a time. utf8.RuneCount would copy a non-ASCII tail to a string.
func runeCount(p []byte) int {
	cont := 0
	i := 0
	for ; i+8 <= len(p); i += 8 {
		x := binary.LittleEndian.Uint64(p[i:])
		cont += bits.OnesCount64(x &^ (x << 1) & 0x8080808080808080)
	}
	for ; i < len(p); i++ {
		if p[i]&0xC0 == 0x80 {
			cont++
		}
	}
	return len(p) - cont
}

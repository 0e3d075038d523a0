package jsonscan

import "math/bits"

// blockSize is how many bytes of a string are classified at once: one bit per byte in a uint64.
const blockSize = 64

// blockInfo is what the classifiers find in a block, bit k standing for byte k. The UTF-8 masks
// need only be filled in when high is not zero, and may have bits set for ASCII bytes: only
// their bits under high mean anything. The escape letters need only be filled in when bslash
// is not zero.
type blockInfo struct {
	quote     uint64 // '"'
	bslash    uint64 // '\\'
	ctl       uint64 // below 0x20
	high      uint64 // from 0x80 on
	geC0      uint64 // from 0xC0 on: a UTF-8 lead byte
	geE0      uint64 // from 0xE0 on: the lead of three bytes or more
	geF0      uint64 // from 0xF0 on: the lead of four bytes (or invalid)
	odd       uint64 // C0 C1 E0 ED F0 F4-FF: invalid, or valid only with some second bytes
	escSimple uint64 // " \ / b f n r t: what makes a two-byte escape after a backslash
	escU      uint64 // u: the start of a \uXXXX escape
}

// scanBlocks scans the content of the string that starts at d[i] (just past its opening quote)
// 64 bytes at a time: a classifier (classifyVBMI, classifyAVX512 or classifyAVX2, the best the
// CPU runs) turns the bytes into masks, and the rest is arithmetic on them, so the closing
// quote, escapes, control characters and most UTF-8 cost no branch per byte. It returns where
// the string ends (just past the closing quote) and ok, or, with ok false, the offset from
// which the careful scan must go on: anything wrong, and the last bytes of the input, are left
// to it, which says exactly what and where. That offset is never inside a UTF-8 sequence nor
// just after a backslash (it may fall among the hex digits of a \u escape, already checked,
// which read as plain ASCII).
func scanBlocks(d []byte, i int) (flags StrFlags, end int, ok bool) {
	var m blockInfo
	for i+blockSize <= len(d) {
		switch b := (*[blockSize]byte)(d[i : i+blockSize]); {
		case useVBMI:
			classifyVBMI(b, &m)
		case useAVX512:
			classifyAVX512(b, &m)
		default:
			classifyAVX2(b, &m)
		}
		escaped, carry := escapedBy(m.bslash)
		inString := ^uint64(0) // the bytes of the block that belong to the string
		closing := m.quote &^ escaped
		if closing != 0 {
			inString = closing&-closing - 1
		}
		if m.ctl&inString != 0 {
			return flags, i, false // a control character, which needs the careful scan's message
		}
		if esc := escaped & inString; esc != 0 {
			if esc&^(m.escSimple|m.escU) != 0 {
				return flags, i, false // an invalid escape
			}
			flags |= Escaped
			if u := esc & m.escU; u != 0 {
				f, ok := checkUnicodeEscapes(d, i, u)
				if !ok {
					return flags, i, false
				}
				flags |= f
			}
		}
		step := blockSize - int(carry) // a block never starts at an escaped byte
		if m.high&inString != 0 {
			n, ok := checkUTF8(d, i, &m, inString, closing != 0)
			if !ok {
				return flags, i, false
			}
			step = min(step, n)
		}
		if closing != 0 {
			return flags, i + bits.TrailingZeros64(closing) + 1, true
		}
		i += step
	}
	return flags, i, false
}

// escapedBy returns the mask of the bytes that a backslash escapes, given the mask of the
// backslashes in a block that does not start at an escaped byte, and carry, 1 when the last
// byte is a backslash that escapes the first byte of the next block. In a run of backslashes
// every other one escapes the byte after it, counting from the start of the run: runs that
// start on an odd bit are added to themselves, which carries them out to the byte after the
// run, and the parity of where each run started then picks the escaped bytes (simdjson's
// find_escaped, without the state carried between blocks).
func escapedBy(bslash uint64) (escaped, carry uint64) {
	if bslash == 0 {
		return 0, 0
	}
	const even = 0x5555555555555555
	follows := bslash << 1
	oddStarts := bslash &^ even &^ follows
	sum, _ := bits.Add64(oddStarts, bslash, 0)
	escaped = (even ^ sum<<1) & follows
	// The run of backslashes that ends the block, if any, escapes the next block's first byte
	// exactly when its length is odd (a run over the whole block starts at bit 0, unescaped).
	carry = uint64(bits.LeadingZeros64(^bslash)) & 1
	return escaped, carry
}

// checkUnicodeEscapes checks the \u escapes of the block at d[i:] whose u is at a bit set in u:
// four hex digits (which may lie past the block) must follow.
func checkUnicodeEscapes(d []byte, i int, u uint64) (StrFlags, bool) {
	var flags StrFlags
	for ; u != 0; u &= u - 1 {
		v, ok := Hex4(d, i+bits.TrailingZeros64(u)+1)
		if !ok {
			return flags, false
		}
		if v >= 0xD800 && v <= 0xDFFF {
			flags |= SurrogateEscape
		}
	}
	return flags, true
}

// checkUTF8 checks the non-ASCII bytes of the block at d[i:] that lie in the string (inString)
// and returns where the next block must start: the block's end, or the start of a character
// that runs past it, so that it is checked whole there. With the masks, a block is valid when
// the continuation bytes are exactly the ones the lead bytes call for: one after every lead,
// a second after a lead from E0 on, a third after one from F0 on. The lead bytes for which that
// is not enough (C0 C1 E0 ED F0 F4-FF: overlong forms, surrogates, past U+10FFFF) are rare, and
// send the block to a check a character at a time.
func checkUTF8(d []byte, i int, m *blockInfo, inString uint64, closing bool) (next int, ok bool) {
	hi := m.high & inString
	if m.odd&hi != 0 {
		return checkUTF8Chars(d, i, hi)
	}
	lead, lead3, lead4 := m.geC0&hi, m.geE0&hi, m.geF0&hi
	cont := hi &^ lead
	next, limit := blockSize, inString
	// A lead byte whose sequence runs past the block's end.
	if cross := lead&(1<<63) | lead3&(3<<62) | lead4&(7<<61); cross != 0 {
		if closing {
			return 0, false // its continuation bytes would be the closing quote or after it
		}
		next = bits.TrailingZeros64(cross)
		limit = 1<<next - 1
	}
	lead, lead3, lead4 = lead&limit, lead3&limit, lead4&limit
	return next, lead<<1|lead3<<2|lead4<<3 == cont&limit
}

// checkUTF8Chars is checkUTF8 a character at a time, with utf8Len.
func checkUTF8Chars(d []byte, i int, hi uint64) (next int, ok bool) {
	for hi != 0 {
		p := bits.TrailingZeros64(hi)
		n := utf8Len(d, i+p)
		if n == 0 {
			return 0, false
		}
		if p+n > blockSize {
			return p, true
		}
		hi &^= (1<<n - 1) << p
	}
	return blockSize, true
}

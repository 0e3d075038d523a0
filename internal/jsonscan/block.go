package jsonscan

import "math/bits"

// blockSize is how many bytes of a string are classified at once: one bit per byte in a uint64.
const blockSize = 64

// blockInfo is what the classifiers find in a block, bit k standing for byte k. The UTF-8 masks
// need only be filled in when high is not zero, and may have bits set for ASCII bytes: only
// their bits under high mean anything. The escape letters are always filled in: a block without
// a backslash may still start with a byte the previous block's last backslash escapes.
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

// scanBlocks scans the content of the string that starts at d[from] (just past its opening
// quote, or where the short-string words stopped: no escaped byte, no continuation byte) 64
// bytes at a time: a classifier (classifyVBMI, classifyAVX512 or classifyAVX2, the best the CPU
// runs) turns the bytes into masks, and the rest is arithmetic on them. Prose has an escape or
// a non-ASCII character in most blocks, but not in all, so a branch on either would often be
// mispredicted: every block goes through the same arithmetic, which gathers whatever is wrong
// into one mask, and branches only on what is rare (an error, a \u escape, an odd UTF-8 lead
// byte, the closing quote). Blocks follow each other 64 bytes apart whatever they hold: what
// one block leaves to the next (a backslash escaping its first byte, continuation bytes it
// must start with) is carried in two words, so the next block's load never waits on this
// block's arithmetic, and the processor overlaps them. scanBlocksAVX512 or scanBlocksAVX2 runs
// this loop in assembly, with the masks in registers, and leaves only the rare blocks to it.
//
// It returns where the string ends (just past the closing quote) and ok, or, with ok false, the
// offset from which the careful scan must go on: from itself when something is wrong (the
// careful scan says exactly what and where), or, for the last bytes of the input, the start of
// the last block that nothing was carried into (so never inside a UTF-8 sequence nor just after
// a backslash; it may fall among the hex digits of a \u escape, already checked, which read as
// plain ASCII).
func scanBlocks(d []byte, from int) (flags StrFlags, end int, ok bool) {
	var m blockInfo
	c := blockCarry{safe: from}
	for i := from; i+blockSize <= len(d); i += blockSize {
		// The blocks with nothing rare in them go by in assembly; the first one that has
		// something is this loop's.
		if useAVX512 {
			i, end = scanBlocksAVX512(&d[0], i, len(d), &c, useVBMI)
		} else {
			i, end = scanBlocksAVX2(&d[0], i, len(d), &c)
		}
		if end != 0 {
			return flags | c.flags(), end, true
		}
		if i+blockSize > len(d) {
			break
		}
		if c.esc|c.need == 0 {
			c.safe = i
		}
		switch b := (*[blockSize]byte)(d[i : i+blockSize]); {
		case useVBMI:
			classifyVBMI(b, &m)
		case useAVX512:
			classifyAVX512(b, &m)
		default:
			classifyAVX2(b, &m)
		}
		var escaped uint64
		escaped, c.esc = escapedBy(m.bslash, c.esc)
		closing := m.quote &^ escaped
		// The bytes of the block that belong to the string, and its closing quote: all of them
		// when there is none (x ^ (x-1) is all ones for x = 0).
		window := closing ^ (closing - 1)
		esc := escaped & window
		hi := m.high & window
		// The assembly may carry, in need's upper bits, a second byte to test, the hex digits
		// of a \u escape, and where its second digit is, which with the first tells whether
		// it is a surrogate.
		hexNeed, second, surr := c.need>>8&15, c.need>>4&15, c.need>>12
		var mismatch uint64
		mismatch, c.need = utf8Mismatch(&m, hi, c.need&7)
		if hexNeed != 0 && !hexDigitsAt(d, i, hexNeed) || second != 0 && !secondByteFits(d[i], second) {
			return flags, from, false
		}
		if surr != 0 && surrogateAt(d, i+bits.TrailingZeros64(surr)) {
			flags |= SurrogateEscape
		}
		if m.ctl&window|esc&^(m.escSimple|m.escU)|mismatch&window != 0 {
			return flags, from, false // the careful scan says what is wrong, and where
		}
		if u := esc & m.escU; u != 0 {
			f, ok := checkUnicodeEscapes(d, i, u)
			if !ok {
				return flags, from, false
			}
			flags |= f
		}
		if odd := m.odd & hi; odd != 0 && !checkUTF8Chars(d, i, odd) {
			return flags, from, false
		}
		c.escapes |= esc
		if closing != 0 {
			return flags | c.flags(), i + bits.TrailingZeros64(closing) + 1, true
		}
	}
	return flags | c.flags(), c.safe, false
}

// hexDigitsAt reports whether the bytes of the block at d[i:] at the bits of at are hex digits.
func hexDigitsAt(d []byte, i int, at uint64) bool {
	for ; at != 0; at &= at - 1 {
		switch c := d[i+bits.TrailingZeros64(at)]; {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		default:
			return false
		}
	}
	return true
}

// surrogateAt reports whether the hex digits d[k-1] and d[k], the first two of a \u escape,
// make it one in the surrogate range D800-DFFF.
func surrogateAt(d []byte, k int) bool {
	switch c := d[k]; {
	case d[k-1]|0x20 != 'd':
		return false
	case c == '8', c == '9', c|0x20 >= 'a' && c|0x20 <= 'f':
		return true
	}
	return false
}

// secondByteFits reports whether c may follow the lead byte that lead stands for (bit 0 E0,
// 1 ED, 2 F0, 3 F4), as the second byte of a valid character.
func secondByteFits(c byte, lead uint64) bool {
	switch {
	case lead&1 != 0:
		return c >= 0xA0
	case lead&2 != 0:
		return c < 0xA0
	case lead&4 != 0:
		return c >= 0x90
	}
	return c < 0x90
}

// blockCarry is what scanBlocks carries from one block to the next.
type blockCarry struct {
	esc uint64 // 1 when the block's first byte is escaped by the last one before it
	// need marks the continuation bytes the block must start with (bits 0 to 2), and, from the
	// assembly, the lead byte E0, ED, F0 or F4 (bits 4 to 7) whose second byte starts the block,
	// the hex digits of a \u escape it checked before the block (bits 8 to 11), and the second
	// of them when it is the block's first or second byte (bits 12 and 13).
	need    uint64
	escapes uint64 // not zero once an escape was seen
	safe    int    // the start of the last block that nothing was carried into
}

// flags says whether the blocks scanned so far had an escape.
func (c *blockCarry) flags() StrFlags {
	if c.escapes != 0 {
		return Escaped
	}
	return 0
}

// escapedBy returns the mask of the bytes that a backslash escapes, given the mask of the
// backslashes in a block and carryIn, 1 when the previous block's last byte is a backslash
// that escapes this block's first byte; carry is the same for the next block. In a run of
// backslashes every other one escapes the byte after it, counting from the start of the run:
// runs that start on an odd bit are added to themselves, which carries them out to the byte
// after the run, and the parity of where each run started then picks the escaped bytes
// (simdjson's find_escaped). The addition carries out of the block exactly when the run that
// ends the block started on an odd bit, so has an odd length, and escapes the next block's
// first byte.
func escapedBy(bslash, carryIn uint64) (escaped, carry uint64) {
	const even = 0x5555555555555555
	bslash &^= carryIn // an escaped backslash starts no run
	follows := bslash<<1 | carryIn
	oddStarts := bslash &^ even &^ follows
	sum, carry := bits.Add64(oddStarts, bslash, 0)
	escaped = (even ^ sum<<1) & follows
	return escaped, carry
}

// utf8Mismatch checks the non-ASCII bytes hi of a block with its masks m, need being the
// continuation bytes the previous block's last characters call for at this block's start: the
// bytes are valid when the continuation bytes are exactly the ones the lead bytes call for,
// one after every lead, a second after a lead from E0 on, a third after one from F0 on. It
// returns the bytes where that fails (only those in the string and at its closing quote count:
// a character cut short by the quote calls for the quote), and the continuation bytes this
// block's last characters call for at the next one's start. The lead bytes for which that is
// not enough (C0 C1 E0 ED F0 F4-FF: overlong forms, surrogates, past U+10FFFF) are rare, and
// checked whole by checkUTF8Chars as well.
func utf8Mismatch(m *blockInfo, hi, need uint64) (mismatch, next uint64) {
	lead, lead3, lead4 := m.geC0&hi, m.geE0&hi, m.geF0&hi
	called := lead<<1 | lead3<<2 | lead4<<3 | need
	return called ^ hi&^lead, lead>>63 | lead3>>62 | lead4>>61
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

// checkUTF8Chars checks with utf8Len the characters of the block at d[i:] whose lead bytes
// are at the bits of leads; they may end past the block.
func checkUTF8Chars(d []byte, i int, leads uint64) bool {
	for ; leads != 0; leads &= leads - 1 {
		if utf8Len(d, i+bits.TrailingZeros64(leads)) == 0 {
			return false
		}
	}
	return true
}

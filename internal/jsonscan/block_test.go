package jsonscan

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// naiveClassify is the definition the classifiers must meet, a byte at a time.
func naiveClassify(b *[blockSize]byte) blockInfo {
	var m blockInfo
	for k, c := range b {
		bit := uint64(1) << k
		set := func(mask *uint64, cond bool) {
			if cond {
				*mask |= bit
			}
		}
		set(&m.quote, c == '"')
		set(&m.bslash, c == '\\')
		set(&m.ctl, c < 0x20)
		set(&m.high, c >= 0x80)
		set(&m.geC0, c >= 0xC0)
		set(&m.geE0, c >= 0xE0)
		set(&m.geF0, c >= 0xF0)
		set(&m.odd, c == 0xC0 || c == 0xC1 || c == 0xE0 || c == 0xED || c == 0xF0 || c >= 0xF4)
		set(&m.escSimple, c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't')
		set(&m.escU, c == 'u')
	}
	return m
}

// meaningful keeps what blockInfo promises: the UTF-8 masks only under high (the escape letters
// everywhere).
func meaningful(m blockInfo) blockInfo {
	m.geC0 &= m.high
	m.geE0 &= m.high
	m.geF0 &= m.high
	m.odd &= m.high
	return m
}

func TestBlockMasks(t *testing.T) {
	if !useBlocks {
		t.Skip("this CPU has no AVX2: the block scan is not used, and TestWordScan* cover scanWords")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u', 'v', 0, 0x1f, 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0x81, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xfe, 0xff, 'a', 'u'}
	blocks := make([][blockSize]byte, 0, 8192+256+1)
	blocks = append(blocks, [blockSize]byte{}) // no non-ASCII byte: the UTF-8 masks are skipped
	for c := 0; c < 256; c++ {                 // every byte value at every position
		var b [blockSize]byte
		for k := range b {
			b[k] = byte(c + k)
		}
		blocks = append(blocks, b)
	}
	for range 8192 {
		var b [blockSize]byte
		for k := range b {
			if rng.IntN(2) == 0 {
				b[k] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[k] = byte(rng.IntN(256))
			}
		}
		blocks = append(blocks, b)
	}
	impls := map[string]func(*[blockSize]byte, *blockInfo){"classifyAVX2": classifyAVX2}
	if useAVX512 {
		impls["classifyAVX512"] = classifyAVX512
	} else {
		t.Log("this CPU has no AVX-512BW: classifyAVX512 is not tested")
	}
	if useVBMI {
		impls["classifyVBMI"] = classifyVBMI
	} else {
		t.Log("this CPU has no AVX512-VBMI: classifyVBMI is not tested")
	}
	for _, b := range blocks {
		want := meaningful(naiveClassify(&b))
		for name, classify := range impls {
			got := blockInfo{geC0: ^uint64(0), odd: ^uint64(0), escU: ^uint64(0)} // stale values from the block before
			classify(&b, &got)
			if got = meaningful(got); got != want {
				t.Fatalf("%s(% x):\n got %+v\nwant %+v", name, b, got, want)
			}
		}
	}
}

// naiveEscaped walks the backslashes of a block a bit at a time, the first byte escaped when
// carry is 1.
func naiveEscaped(bslash, carry uint64) (escaped, carryOut uint64) {
	next := carry == 1 // the current byte is escaped
	for k := range blockSize {
		isB := bslash>>k&1 == 1
		if next {
			escaped |= 1 << k
			next = false
			continue
		}
		if isB {
			next = true
		}
	}
	if next {
		carryOut = 1
	}
	return escaped, carryOut
}

func TestEscapedBy(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	masks := []uint64{0, ^uint64(0), 1, 1 << 63, 3 << 62, 7 << 61, 0x5555555555555555, 0xAAAAAAAAAAAAAAAA, ^uint64(0) >> 1, ^uint64(0) - 1}
	for run := 1; run <= blockSize; run++ { // every run length at every position
		for start := 0; start+run <= blockSize; start++ {
			masks = append(masks, (^uint64(0)>>(blockSize-run))<<start)
		}
	}
	for range 100000 {
		// Backslashes in runs, as escapes come: sparse and dense.
		masks = append(masks, rng.Uint64()&rng.Uint64(), rng.Uint64(), rng.Uint64()|rng.Uint64())
	}
	for _, m := range masks {
		for carryIn := range uint64(2) {
			e, c := escapedBy(m, carryIn)
			we, wc := naiveEscaped(m, carryIn)
			if e != we || c != wc {
				t.Fatalf("escapedBy(%064b, %d) = %064b carry %d, want %064b carry %d", m, carryIn, e, c, we, wc)
			}
		}
	}
}

// scanBoth scans the string that opens doc with scanString (blocks included) and with the
// careful scan alone, and fails if they disagree on anything: validity, error, end or flags.
func scanBoth(t *testing.T, doc []byte) {
	t.Helper()
	scanBothAt(t, doc, 0)
}

// scanBothAt is scanBoth for the string that opens at doc[at].
func scanBothAt(t *testing.T, doc []byte, at int) {
	t.Helper()
	var fast, careful Scanner
	fast.Reset(doc, 10)
	fast.pos = at
	fastFlags, _, fastOK := fast.scanString()
	careful.Reset(doc, 10)
	careful.pos = at
	carefulFlags, carefulOK := careful.scanStringCareful(at + 1)
	if fastOK != carefulOK {
		t.Fatalf("%q at %d: scanString ok=%v (%v), careful scan ok=%v (%v)", doc, at, fastOK, fast.Err(), carefulOK, careful.Err())
	}
	if useBlocks {
		checkRestart(t, doc, at, &careful, carefulFlags, carefulOK)
		checkHandOver(t, doc, at+1)
	}
	if useStringVBMI {
		checkStringVBMI(t, doc, at, &careful, carefulFlags, carefulOK)
	}
	if !fastOK {
		if *fast.Err() != *careful.Err() {
			t.Fatalf("%q at %d: scanString error %v, careful scan error %v", doc, at, fast.Err(), careful.Err())
		}
		return
	}
	if fastFlags != carefulFlags || fast.Pos() != careful.Pos() {
		t.Fatalf("%q at %d: scanString flags %b end %d, careful scan flags %b end %d", doc, at, fastFlags, fast.Pos(), carefulFlags, careful.Pos())
	}
	// A valid string with a whole block of input after it is the block scan's to settle: handing
	// it to the careful scan would be right but slow, which the checks above cannot see.
	// (The last bytes of the input are left to the careful scan.)
	if useBlocks && len(doc)-careful.Pos() >= blockSize {
		if flags, end, ok := scanBlocks(doc, at+1); !ok || end != careful.Pos() || flags != carefulFlags {
			t.Fatalf("%q at %d: the block scan did not settle a valid string (stopped at %d, want end %d)", doc, at, end, careful.Pos())
		}
	}
}

// checkStringVBMI runs scanStringVBMI on the string that opens at doc[at]: what it settles must be
// what the careful scan finds, and it must settle every valid string whose closing quote's block
// lies within the input (unless bytes after the quote are not valid UTF-8, which sends the string
// to scanBlocks as well): handing those to scanBlocks would be right but slow.
func checkStringVBMI(t *testing.T, doc []byte, at int, careful *Scanner, carefulFlags StrFlags, carefulOK bool) {
	t.Helper()
	end, flags := stringVBMI(t, doc, at+1)
	if end != 0 && (!carefulOK || end != careful.Pos() || StrFlags(flags) != carefulFlags) {
		t.Fatalf("%q at %d: scanStringVBMI = end %d flags %b; careful scan ok=%v end %d flags %b (%v)", doc, at, end, flags, carefulOK, careful.Pos(), carefulFlags, careful.Err())
	}
	if !carefulOK || end != 0 {
		return
	}
	q := careful.Pos() - 1 // the closing quote
	if blockEnd := at + 1 + (q-(at+1))/blockSize*blockSize + blockSize; blockEnd <= len(doc) && utf8.Valid(doc[q:]) {
		t.Fatalf("%q at %d: scanStringVBMI did not settle a valid string (end %d)", doc, at, careful.Pos())
	}
}

// checkRestart checks where scanBlocks hands the string that opens at doc[at] to the careful
// scan, when it does: carrying on from there must find what the careful scan found from the
// start (a restart just after a backslash or inside a character would not), and the bytes
// before it must be the string's.
func checkRestart(t *testing.T, doc []byte, at int, careful *Scanner, carefulFlags StrFlags, carefulOK bool) {
	t.Helper()
	flags, next, ok := scanBlocks(doc, at+1)
	if ok {
		return
	}
	if next < at+1 || carefulOK && next >= careful.Pos() || !carefulOK && next > careful.Err().Offset {
		t.Fatalf("%q at %d: scanBlocks hands over at %d, outside the string (careful: end %d, %v)", doc, at, next, careful.Pos(), careful.Err())
	}
	var rest Scanner
	rest.Reset(doc, 10)
	rest.pos = at
	more, restOK := rest.scanStringCareful(next)
	if restOK != carefulOK || !restOK && *rest.Err() != *careful.Err() || restOK && (rest.Pos() != careful.Pos() || flags|more != carefulFlags) {
		t.Fatalf("%q at %d: the careful scan from scanBlocks' hand-over at %d gives ok=%v end %d flags %b (%v); from the start ok=%v end %d flags %b (%v)",
			doc, at, next, restOK, rest.Pos(), flags|more, rest.Err(), carefulOK, careful.Pos(), carefulFlags, careful.Err())
	}
}

// checkHandOver runs each assembly loop this CPU has on the string content that starts at
// doc[from] and, where a loop hands a block to scanBlocks' Go loop, checks what it carries
// into that block against refCarry: a wrong carry that happened not to change the result
// would go unseen by the other checks.
func checkHandOver(t *testing.T, doc []byte, from int) {
	t.Helper()
	loops := map[string]func(c *blockCarry) (next, end int){
		"avx2": func(c *blockCarry) (int, int) { return scanBlocksAVX2(&doc[0], from, len(doc), c) },
	}
	if useAVX512 {
		loops["avx512"] = func(c *blockCarry) (int, int) { return scanBlocksAVX512(&doc[0], from, len(doc), c, false) }
	}
	if useVBMI {
		loops["vbmi"] = func(c *blockCarry) (int, int) { return scanBlocksAVX512(&doc[0], from, len(doc), c, true) }
	}
	for name, loop := range loops {
		c := blockCarry{safe: from}
		next, end := loop(&c)
		if end != 0 || next+blockSize > len(doc) {
			continue // settled, or at the input's last bytes: the other checks cover these
		}
		want := refCarry(doc, from, next)
		if c.esc != want.esc || c.need != want.need || (c.escapes != 0) != (want.escapes != 0) || c.safe != want.safe {
			t.Fatalf("%q from %d: the %s loop hands over at %d carrying esc %d need %#x escapes %v safe %d; want esc %d need %#x escapes %v safe %d",
				doc, from, name, next, c.esc, c.need, c.escapes != 0, c.safe, want.esc, want.need, want.escapes != 0, want.safe)
		}
	}
}

// refCarry walks the valid string content doc[from:next] a character or an escape at a time and
// returns what the assembly loops carry into the block at next: whether its first byte is
// escaped, the continuation bytes it must start with (need's bits 0-2), the lead byte E0, ED, F0
// or F4 just before it (bits 4-7), the hex digits of a \u escape that it holds (bits 8-11) and
// the second of them among its first two bytes (bits 12-13), whether an escape came before,
// and the last block start with nothing carried into it.
func refCarry(doc []byte, from, next int) blockCarry {
	carryAt := func(j int) blockCarry {
		var c blockCarry
		for i := from; i < j; {
			n := 1
			switch b := doc[i]; {
			case b == '\\':
				if i+1 < j { // the loops count an escape in the block of the byte it escapes
					c.escapes = 1
				}
				n = 2
				if doc[i+1] == 'u' {
					n = 6
				}
				if i+1 == j {
					c.esc = 1
				}
				for k := i + 2; n == 6 && i+1 < j && k < i+6; k++ { // digits of a u before j
					if k >= j {
						c.need |= 1 << (8 + k - j)
					}
					if k == i+3 && k >= j {
						c.need |= 1 << (12 + k - j)
					}
				}
			case b >= 0xF0:
				n = 4
			case b >= 0xE0:
				n = 3
			case b >= 0xC0:
				n = 2
			}
			if b := doc[i]; b >= 0xC0 {
				for k := i + 1; k < i+n; k++ {
					if k >= j {
						c.need |= 1 << (k - j)
					}
				}
				if i == j-1 {
					switch b {
					case 0xE0:
						c.need |= 1 << 4
					case 0xED:
						c.need |= 1 << 5
					case 0xF0:
						c.need |= 1 << 6
					case 0xF4:
						c.need |= 1 << 7
					}
				}
			}
			i += n
		}
		return c
	}
	want := carryAt(next)
	for j := from; j <= next; j += blockSize {
		if c := carryAt(j); c.esc|c.need == 0 {
			want.safe = j
		}
	}
	return want
}

// TestBlockScanAgreesWithCarefulScan puts every kind of special sequence, and pairs of them, at
// every position of long strings (so across every block boundary, wherever the blocks start),
// with and without bytes after the string (the last bytes of the input go to the careful scan),
// and without the closing quote.
func TestBlockScanAgreesWithCarefulScan(t *testing.T) {
	specials := []string{
		// A character cut short by the closing quote, on every bit around the block's end.
		"\xe1\"", "\xf1\"", "\xf1\x80\"", "\xc3\"",
		"\\n", "\\u00e9", "\\\"", "\\\\", "\\\\\\", "\\\\\\\"", "\\ud800", "\\udfff", "\\u12G4", "\\uG123", "\\u0g12", "\\u12", "\\x", "\\é",
		// A backslash before non-ASCII bytes whose low seven bits are an escape letter's: ’ (E2) for
		// b, ܐ (DC) for the backslash, U+10FFFF (F4) for t.
		"\\’", "\\\xdc\x90", "\\\xf4\x8f\xbf\xbf",
		"\x01", "\x1f", "\x7f", "é", "東", "😀", "\U000a0000", "\xff", "\x80", "\xed\xa0\x80", "\xc0\xaf", "\xe6\x9d", "\xf0\x9f\x98", "\"", " ",
		// Second bytes just outside what E0, F0 and F4 allow (ED's is above).
		"\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80",
		// Upper-case surrogates, and a byte just outside the hex digits' ranges in each place.
		"\\uD800", "\\uDBFF",
		// Hex digits in their low seven bits: ð is C3 B0 (C and 0), which the VBMI lookup, by
		// the low seven bits, must not take for digits.
		"\\u00ð", "\\uðð", "\\u0ð0"}
	for _, bad := range "/:@`Gg" {
		for k := range 4 {
			specials = append(specials, "\\u"+strings.Repeat("0", k)+string(bad)+strings.Repeat("0", 3-k))
		}
	}
	filler := bytes.Repeat([]byte("abcdefghij"), 20)
	for _, n := range []int{60, 63, 64, 65, 70, 127, 128, 129, 140, 200} {
		for pos := 0; pos <= n; pos++ {
			for _, sp := range specials {
				for _, sp2 := range []string{"", "\\t", "ü", "\x02"} {
					body := append(append(append(append([]byte{'"'}, filler[:pos]...), sp...), sp2...), filler[pos:n]...)
					scanBoth(t, body) // the input ends inside the string
					body = append(body, '"')
					scanBoth(t, body)
					scanBoth(t, append(body, bytes.Repeat([]byte(" "), 70)...))
				}
			}
		}
	}
}

// TestBlockScanBackslashRuns puts runs of backslashes of every length across a block boundary,
// followed by a quote: whether it ends the string depends on the run's parity.
func TestBlockScanBackslashRuns(t *testing.T) {
	for run := 1; run <= 140; run++ {
		for start := 1; start <= 70; start++ {
			doc := append(bytes.Repeat([]byte("a"), start), bytes.Repeat([]byte(`\`), run)...)
			doc = append([]byte{'"'}, append(doc, `"tail" and more bytes after it, enough for a whole block of them"`...)...)
			scanBoth(t, append(doc, bytes.Repeat([]byte(" "), 70)...))
		}
	}
}

// TestBlockScanCharacterAcrossBlocks puts a character across a block boundary followed, one or
// two blocks later, by a stray continuation byte: the character is checked whole, and nothing
// after it goes unchecked.
func TestBlockScanCharacterAcrossBlocks(t *testing.T) {
	for _, ch := range []string{"é", "東", "😀", "\U000a0000"} {
		for cut := 1; cut < len(ch); cut++ {
			for _, stray := range []string{"\x80", "\xbf\xbf", "\xa0\x80\x80", "ok"} {
				for gap := range 3 {
					body := strings.Repeat("a", blockSize-1-cut) + ch + strings.Repeat("b", blockSize-(len(ch)-cut)+gap*blockSize) + stray
					doc := []byte(`"` + body + `"` + strings.Repeat(" ", blockSize))
					scanBoth(t, doc)
				}
			}
		}
	}
}

// TestBlockScanLeavesLittleToCarefulScan runs strings to the end of the input (the careful scan
// settles their last bytes, where no whole block is left) from every offset against the
// blocks: the careful scan must take over from the last block, not from an earlier one, which
// would be right but slow. The escapes and characters of the first blocks carry nothing into
// the last ones.
func TestBlockScanLeavesLittleToCarefulScan(t *testing.T) {
	if !useBlocks {
		t.Skip("the word scan has no blocks")
	}
	head := `escapes \n \" \\ \u00e9 and characters é 東 😀 `
	for at := range blockSize {
		for _, n := range []int{3 * blockSize, 5*blockSize + 17} {
			doc := []byte(strings.Repeat(" ", at) + `"` + head + strings.Repeat("plain text ", n/11))
			_, next, ok := scanBlocks(doc, at+1)
			if ok || next <= len(doc)-2*blockSize {
				t.Fatalf("%q from %d: scanBlocks = %d, %v; want the careful scan to take over in the last %d bytes", doc, at+1, next, ok, 2*blockSize)
			}
		}
	}
}

// TestAssemblySettlesProse checks that each assembly loop this CPU runs settles strings of
// what prose is made of (ASCII, two-byte escapes, characters whose lead byte needs no second
// look) by itself, up to and including the block of the closing quote, followed as in indented
// JSON by a newline: handing such blocks to scanBlocks would be right but slow, which the other
// tests cannot see.
func TestAssemblySettlesProse(t *testing.T) {
	if !useBlocks {
		t.Skip("this CPU has no AVX2")
	}
	pieces := []string{"a", "bc", " ", "queue", "é", "ü", "’", "ܐ", "東", "\U000a0000", "\\n", "\\\"", "\\\\", "\\t", "\\/"}
	// The loops settle \u escapes too, as Python's json.dumps writes every non-ASCII character,
	// but leave to scanBlocks those in the surrogate range, and the AVX2 loop those whose u is
	// in a block's last two bytes (documents with one are skipped for it).
	unicode := []string{"\\u00e9", "\\u6771", "\\uD55C", "\\ud7ff", "\\u0041"}
	loops := map[string]func(d *byte, i, n int, c *blockCarry) (next, end int){
		"avx2": scanBlocksAVX2,
		"avx512": func(d *byte, i, n int, c *blockCarry) (next, end int) {
			return scanBlocksAVX512(d, i, n, c, false)
		},
		"vbmi": func(d *byte, i, n int, c *blockCarry) (next, end int) {
			return scanBlocksAVX512(d, i, n, c, true)
		},
	}
	for name, loop := range loops {
		if name == "avx512" && !useAVX512 || name == "vbmi" && !useVBMI {
			continue
		}
		// With characters whose lead byte needs its second byte looked at: Thai, Devanagari
		// and U+0800 (E0), Hangul (ED), emoji (F0), U+10FFFF (F4).
		all := append(append([]string(nil), pieces...), unicode...)
		all = append(all, "ภาษา", "हिन्दी", "\u0800", "한국어", "\ud7ff", "😀", "\U00010000", "\U0010ffff")
		rng := rand.New(rand.NewPCG(7, 8))
		settled := 0
		for range 20000 {
			at := rng.IntN(blockSize)
			var b strings.Builder
			b.WriteString(strings.Repeat(" ", at) + `"`)
			lastTwo := false // a \u escape's u in a block's last two bytes
			for n := rng.IntN(4 * blockSize); b.Len() < at+1+n; {
				p := all[rng.IntN(len(all))]
				if strings.HasPrefix(p, `\u`) && (b.Len()+1-(at+1))%blockSize >= blockSize-2 {
					lastTwo = true
				}
				b.WriteString(p)
			}
			if lastTwo && name == "avx2" {
				continue
			}
			b.WriteString("\"\n" + strings.Repeat(" ", blockSize))
			doc := []byte(b.String())
			var careful Scanner
			careful.Reset(doc, 10)
			careful.pos = at
			if _, ok := careful.scanStringCareful(at + 1); !ok {
				t.Fatalf("%q: %v", doc, careful.Err())
			}
			c := blockCarry{safe: at + 1}
			if _, end := loop(&doc[0], at+1, len(doc), &c); end != careful.Pos() {
				t.Fatalf("%q from %d: the %s loop ended at %d, want %d", doc, at+1, name, end, careful.Pos())
			}
			settled++
		}
		if settled < 10000 {
			t.Fatalf("the %s loop: only %d documents checked", name, settled)
		}
	}
	if !useStringVBMI {
		return
	}
	// scanStringVBMI settles all of these, surrogates and \u escapes across blocks included.
	all := append(append([]string(nil), pieces...), "\\u00e9", "\\u6771", "\\uD55C", "\\ud7ff", "\\ud83d\\ude00", "\\uDBFF\\uDFFF",
		"ภาษา", "हिन्दी", "\u0800", "한국어", "\ud7ff", "😀", "\U00010000", "\U0010ffff")
	rng := rand.New(rand.NewPCG(9, 10))
	for range 20000 {
		at := rng.IntN(blockSize)
		var b strings.Builder
		b.WriteString(strings.Repeat(" ", at) + `"`)
		for n := rng.IntN(4 * blockSize); b.Len() < at+1+n; {
			b.WriteString(all[rng.IntN(len(all))])
		}
		b.WriteString("\"\n" + strings.Repeat(" ", blockSize))
		doc := []byte(b.String())
		var careful Scanner
		careful.Reset(doc, 10)
		careful.pos = at
		flags, ok := careful.scanStringCareful(at + 1)
		if !ok {
			t.Fatalf("%q: %v", doc, careful.Err())
		}
		if end, f := stringVBMI(t, doc, at+1); end != careful.Pos() || StrFlags(f) != flags {
			t.Fatalf("%q from %d: scanStringVBMI = end %d flags %b, want %d %b", doc, at+1, end, f, careful.Pos(), flags)
		}
	}
}

// FuzzStringScan checks that every string scan this CPU can run (blocks classified with
// AVX-512 or AVX2, and words) agrees with the careful scan on any bytes, for a string opening at
// any offset against the input's blocks and followed by any number of spaces.
func FuzzStringScan(f *testing.F) {
	f.Add([]byte(`plain text that runs well past one block of sixty-four bytes, to the end"`), uint8(0), uint8(0))
	f.Add([]byte(`escapes \n \t \" \\ \u00e9 \ud83d\ude00 across the block boundary of sixty-four bytes \"\\"`), uint8(3), uint8(70))
	f.Add([]byte("non-ASCII ünïcödé 東京 😀 across the block boundary of sixty-four bytes, and on\""), uint8(60), uint8(64))
	f.Add([]byte("a control \x01 character after a long run of plain text in the string ......\""), uint8(1), uint8(64))
	f.Add([]byte(strings.Repeat("a", 62)+"\xe1\""), uint8(0), uint8(70))
	f.Add([]byte("no closing quote, the input ends inside the string after more than a block of it ........"), uint8(5), uint8(0))
	f.Fuzz(func(t *testing.T, body []byte, at, pad uint8) {
		doc := append(bytes.Repeat([]byte{' '}, int(at)), '"')
		doc = append(doc, body...)
		doc = append(doc, bytes.Repeat([]byte{' '}, int(pad))...)
		forEachScan(func() { scanBothAt(t, doc, int(at)) })
	})
}

// withWords runs f with the word scan, as CPUs without AVX2 do.
func withWords(f func()) {
	saved := useBlocks
	defer func() { useBlocks = saved }()
	useBlocks = false
	f()
}

// forEachScan runs f once with each string scan this CPU can run.
func forEachScan(f func()) {
	saved512, savedVBMI, savedString := useAVX512, useVBMI, useStringVBMI
	defer func() { useAVX512, useVBMI, useStringVBMI = saved512, savedVBMI, savedString }()
	if useBlocks {
		f()
		if useStringVBMI {
			useStringVBMI = false
			f()
		}
		if useVBMI {
			useVBMI = false
			f()
		}
		if useAVX512 {
			useAVX512 = false
			f()
		}
	}
	withWords(f)
}

// TestEveryScan runs the string scan tests once with each other scan this CPU can run, the ones
// it would not choose: scanBlocks alone (without scanStringVBMI first), the AVX2 and AVX-512
// classifiers on a CPU with VBMI, and the word scan of
// CPUs without AVX2 and of other architectures. The tests themselves run the one it chooses
// (running it again here took a fifth of the package's time under -race).
func TestEveryScan(t *testing.T) {
	chosen := scanName()
	forEachScan(func() {
		if scanName() == chosen {
			return
		}
		t.Run(scanName(), func(t *testing.T) {
			t.Run("AgreesWithCarefulScan", TestBlockScanAgreesWithCarefulScan)
			t.Run("BackslashRuns", TestBlockScanBackslashRuns)
			t.Run("CharacterAcrossBlocks", TestBlockScanCharacterAcrossBlocks)
			t.Run("UTF8", TestBlockScanUTF8)
			t.Run("ShortStrings", TestStringScanAgreesWithCarefulScan)
			t.Run("LeavesLittleToCarefulScan", TestBlockScanLeavesLittleToCarefulScan)
		})
	})
}

// scanName names the string scan in use.
func scanName() string {
	switch {
	case !useBlocks:
		return "words"
	case useStringVBMI:
		return "vbmi-string"
	case useVBMI:
		return "vbmi"
	case useAVX512:
		return "avx512"
	}
	return "avx2"
}

// TestBlockScanUTF8 compares the scans on random strings made of pieces of every kind of UTF-8,
// valid and not, among ASCII and escapes, long enough for several blocks.
func TestBlockScanUTF8(t *testing.T) {
	pieces := []string{"a", "bc", " ", "é", "ü", "ß", "\u07ff", "\u0800", "ࠀ", "\u0fff", "東", "京", "\ud7ff", "\ue000", "\uffff",
		"😀", "\U00010000", "\U00040000", "\U000a0000", "\U000fffff", "\U0010ffff", "\U00100000", "\\n", "\\\"", "\\u00e9", "\\\\",
		// invalid: overlong, surrogate, past U+10FFFF, truncated, stray continuation bytes, bad leads
		"\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xf0\x8f\xbf\xbf",
		"\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\xfe", "\x80", "\xbf", "\xc3", "\xe6\x9d", "\xf0\x9f\x98", "\xf2\x80\x80", "\xc3\xc3"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 30000 {
		at := rng.IntN(2 * blockSize) // where the string opens, against the input's blocks
		doc := append(bytes.Repeat([]byte{' '}, at), '"')
		bad := rng.IntN(4) == 0 // most strings valid, so that the scan gets far
		for len(doc) < 60+rng.IntN(250) {
			p := pieces[rng.IntN(len(pieces))]
			if !bad && (p[0] >= 0x80 && !utf8.ValidString(p)) {
				continue
			}
			doc = append(doc, p...)
		}
		doc = append(doc, '"')
		doc = append(doc, bytes.Repeat([]byte{' '}, rng.IntN(80))...)
		scanBothAt(t, doc, at)
	}
}

// TestBlockScanDocuments validates arrays of many strings with the block scan and with the word
// scan, an independent implementation: they must agree on validity and on the error.
func TestBlockScanDocuments(t *testing.T) {
	if !useBlocks {
		t.Skip("this CPU has no AVX2: the block scan is not used")
	}
	pieces := []string{"a", "bcdefgh", " ", "é", "東", "😀", "\\n", "\\\"", "\\\\", "\\u00e9", "\\ud83d\\ude00", "\\\\\\\"",
		"\xc3", "\xed\xa0\x80", "\x01", "\\x"}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 5000 {
		bad := rng.IntN(3) == 0
		doc := []byte{'['}
		for n := rng.IntN(40); n >= 0; n-- {
			doc = append(doc, '"')
			for k := rng.IntN(12); k >= 0; k-- {
				p := pieces[rng.IntN(len(pieces))]
				if !bad && (p[0] == '\\' && p[1] == 'x' || p[0] < 0x20 || p[0] >= 0x80 && !utf8.ValidString(p)) {
					continue
				}
				doc = append(doc, strings.Repeat(p, 1+rng.IntN(20))...)
			}
			doc = append(doc, `",`...)
			doc = append(doc, strings.Repeat(" ", rng.IntN(70))...)
		}
		doc = append(doc[:len(doc)-1], ']')
		var blocks, words Scanner
		blocks.Reset(doc, 10)
		blocks.SkipValue()
		withWords(func() {
			words.Reset(doc, 10)
			words.SkipValue()
		})
		if (blocks.Err() == nil) != (words.Err() == nil) || blocks.Err() != nil && *blocks.Err() != *words.Err() {
			t.Fatalf("%q: block scan %v, word scan %v", doc, blocks.Err(), words.Err())
		}
	}
}

package jsonscan

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// ---- reference walk ----

const (
	kNone = iota
	kBoundary
	kEscaped
	kHex
	kCont
	kClose
)

type refResult struct {
	ok      bool
	end     int // past closing quote
	errPos  int // where the walk stopped on failure
	flags   StrFlags
	kind    []uint8
	rem     []uint8 // for kCont: continuation bytes left including this one
	escAt   []bool  // escaped byte (esc state at this position)
	escSeen []int   // positions of escaped bytes (to know escapes before an offset)
}

func refWalk(d []byte, from int) *refResult {
	r := &refResult{kind: make([]uint8, len(d)+1), rem: make([]uint8, len(d)+1)}
	p := from
	for {
		if p >= len(d) {
			r.errPos = len(d)
			return r
		}
		c := d[p]
		switch {
		case c == '"':
			r.kind[p] = kClose
			r.ok, r.end = true, p+1
			return r
		case c == '\\':
			r.flags |= Escaped
			if p+1 >= len(d) {
				r.errPos = p
				return r
			}
			e := d[p+1]
			switch e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				r.kind[p], r.kind[p+1] = kBoundary, kEscaped
				r.escSeen = append(r.escSeen, p+1)
				p += 2
			case 'u':
				if p+6 > len(d) {
					r.errPos = p
					return r
				}
				var v int
				for k := 0; k < 4; k++ {
					h := d[p+2+k]
					var x int
					switch {
					case h >= '0' && h <= '9':
						x = int(h - '0')
					case h >= 'a' && h <= 'f':
						x = int(h-'a') + 10
					case h >= 'A' && h <= 'F':
						x = int(h-'A') + 10
					default:
						r.errPos = p
						return r
					}
					v = v<<4 | x
				}
				if v >= 0xD800 && v <= 0xDFFF {
					r.flags |= SurrogateEscape
				}
				r.kind[p], r.kind[p+1] = kBoundary, kEscaped
				r.escSeen = append(r.escSeen, p+1)
				for k := 2; k < 6; k++ {
					r.kind[p+k] = kHex
				}
				p += 6
			default:
				r.errPos = p
				return r
			}
		case c < 0x20:
			r.errPos = p
			return r
		case c < 0x80:
			r.kind[p] = kBoundary
			p++
		default:
			ru, size := utf8.DecodeRune(d[p:])
			if ru == utf8.RuneError && size <= 1 {
				r.errPos = p
				return r
			}
			r.kind[p] = kBoundary
			for k := 1; k < size; k++ {
				r.kind[p+k] = kCont
				r.rem[p+k] = uint8(size - k)
			}
			p += size
		}
	}
}

// stop is where the walk ended: the closing quote, or the error position.
func (r *refResult) stop() int {
	if r.ok {
		return r.end - 1
	}
	return r.errPos
}

func (r *refResult) escapesBefore(n int) bool {
	for _, e := range r.escSeen {
		if e < n {
			return true
		}
	}
	return false
}

// wantSafe is the last block start b from from on, with b+64 <= n and b < limit... (b <= the
// last block fully inside [0,n)), that nothing is carried into.
func (r *refResult) wantSafe(from, lim int) int {
	ws := from
	for b := from; b < lim && b+blockSize <= len(r.kind)-1; b += blockSize {
		if r.kind[b] != kEscaped && r.kind[b] != kCont {
			ws = b
		}
	}
	return ws
}

// ---- failure collection ----

type failures struct {
	t     *testing.T
	n     int
	kinds map[string]int
}

func (f *failures) add(kind string, format string, args ...any) {
	f.n++
	if f.kinds == nil {
		f.kinds = map[string]int{}
	}
	f.kinds[kind]++
	if f.kinds[kind] <= 3 {
		f.t.Errorf("[%s] %s", kind, fmt.Sprintf(format, args...))
	}
}

// ---- the checks for one document ----

func careful(doc []byte, at, from int) (StrFlags, bool, int, *SyntaxError) {
	var s Scanner
	s.Reset(doc, 10)
	s.pos = at
	fl, ok := s.scanStringCareful(from)
	return fl, ok, s.Pos(), s.Err()
}

func checkDoc(f *failures, doc []byte, at int, extraFrom []int) {
	cflags, cok, cend, cerr := careful(doc, at, at+1)
	ref := refWalk(doc, at+1)
	if ref.ok != cok || (cok && (ref.end != cend || ref.flags != cflags)) {
		f.add("ref-vs-careful", "%q at %d: ref ok=%v end=%d flags=%b; careful ok=%v end=%d flags=%b %v", doc, at, ref.ok, ref.end, ref.flags, cok, cend, cflags, cerr)
		return
	}
	forEachScan(func() {
		name := scanName()
		var s Scanner
		s.Reset(doc, 10)
		s.pos = at
		fl, ok := s.scanString()
		if ok != cok {
			f.add("scanString-ok/"+name, "%q at %d: scanString ok=%v (%v), careful ok=%v (%v)", doc, at, ok, s.Err(), cok, cerr)
			return
		}
		if !ok {
			if *s.Err() != *cerr {
				f.add("scanString-err/"+name, "%q at %d: scanString err %v, careful %v", doc, at, s.Err(), cerr)
			}
		} else if fl != cflags || s.Pos() != cend {
			f.add("scanString-end/"+name, "%q at %d: scanString flags %b end %d, careful flags %b end %d", doc, at, fl, s.Pos(), cflags, cend)
		}
		if !useBlocks {
			return
		}
		froms := append([]int{at + 1}, extraFrom...)
		for _, from := range froms {
			checkBlocks(f, name, doc, at, from)
		}
	})
	if useAVX512 {
		for _, vbmi := range []bool{false, true} {
			if vbmi && !useVBMI {
				continue
			}
			for _, from := range append([]int{at + 1}, extraFrom...) {
				checkAsm(f, doc, at, from, vbmi)
			}
		}
	}
}

func checkBlocks(f *failures, name string, doc []byte, at, from int) {
	ref := refWalk(doc, from)
	flags, end, ok := scanBlocks(doc, from)
	if ok {
		cov["blocks-ok"]++
		if !ref.ok || end != ref.end || flags != ref.flags {
			f.add("blocks-accept/"+name, "%q at %d from %d: scanBlocks ok end %d flags %b; ref ok=%v end %d err %d flags %b", doc, at, from, end, flags, ref.ok, ref.end, ref.errPos, ref.flags)
		}
		return
	}
	if end == from {
		cov["blocks-from"]++
		return
	}
	cov["blocks-restart"]++
	if end > from+blockSize {
		cov["blocks-restart-later"]++
	}
	if ref.kind[end] == kHex {
		cov["blocks-restart-hex"]++
	}
	if end < from || (end-from)%blockSize != 0 {
		f.add("blocks-restart-misaligned/"+name, "%q at %d from %d: restart %d", doc, at, from, end)
		return
	}
	if end > ref.stop() {
		f.add("blocks-restart-past-stop/"+name, "%q at %d from %d: restart %d, ref stop %d ok=%v", doc, at, from, end, ref.stop(), ref.ok)
		return
	}
	if k := ref.kind[end]; k != kBoundary && k != kHex && k != kClose {
		f.add("blocks-restart-inside/"+name, "%q at %d from %d: restart %d is kind %d (byte %#x)", doc, at, from, end, k, doc[end])
		return
	}
	if ws := ref.wantSafe(from, len(doc)); end != ws {
		f.add("blocks-restart-notlast/"+name, "%q at %d from %d: restart %d, want %d, len %d", doc, at, from, end, ws, len(doc))
	}
	// careful from the restart must finish the job.
	fl2, ok2, e2, err2 := careful(doc, at, end)
	_, rok, rend, rerr := careful(doc, at, from)
	if ok2 != rok || (ok2 && (e2 != rend || fl2|flags != ref.flags)) || (!ok2 && *err2 != *rerr) {
		f.add("blocks-restart-result/"+name, "%q at %d from %d: restart %d gives ok=%v end %d flags %b err %v; want ok=%v end %d flags %b err %v", doc, at, from, end, ok2, e2, fl2|flags, err2, rok, rend, ref.flags, rerr)
	}
}

var cov = map[string]int{}

func checkAsm(f *failures, doc []byte, at, from int, vbmi bool) {
	ref := refWalk(doc, from)
	c := blockCarry{safe: from}
	next, end := scanBlocksAVX512(&doc[0], from, len(doc), &c, vbmi)
	switch {
	case end != 0:
		cov["asm-settled"]++
		if end-from > blockSize {
			cov["asm-settled-multi"]++
		}
		if c.escapes != 0 {
			cov["asm-settled-escapes"]++
		}
	case next == from:
		cov["asm-first-block"]++
	default:
		cov["asm-handoff-later"]++
		if c.esc != 0 {
			cov["asm-handoff-esc"]++
		}
		if c.need != 0 {
			cov[fmt.Sprintf("asm-handoff-need%b", c.need)]++
		}
	}
	tag := fmt.Sprintf("asm(vbmi=%v)", vbmi)
	if end != 0 {
		if !ref.ok || end != ref.end || (c.escapes != 0) != (ref.flags&Escaped != 0) || ref.flags&SurrogateEscape != 0 {
			f.add("asm-accept/"+tag, "%q at %d from %d: asm end %d escapes %x; ref ok=%v end %d err %d flags %b", doc, at, from, end, c.escapes, ref.ok, ref.end, ref.errPos, ref.flags)
		}
		if (end-1-next) < 0 || end-1-next >= blockSize {
			f.add("asm-next/"+tag, "%q from %d: end %d next %d", doc, from, end, next)
		}
		return
	}
	if next < from || (next-from)%blockSize != 0 {
		f.add("asm-next-misaligned/"+tag, "%q from %d: next %d", doc, from, next)
		return
	}
	if next > ref.stop() {
		// the blocks before next were accepted; the stop is before them
		if !(ref.ok == false && ref.errPos >= next-3 && ref.errPos < len(doc) && doc[ref.errPos] >= 0x80) &&
			!(ref.ok == false && ref.errPos == next-1 && doc[ref.errPos] == '\\') {
			f.add("asm-passed-stop/"+tag, "%q at %d from %d: next %d, ref stop %d ok=%v", doc, at, from, next, ref.stop(), ref.ok)
		}
		return
	}
	if next == from {
		return
	}
	if next < len(doc) || next == len(doc) {
		wantEsc := uint64(0)
		if next < len(doc) && ref.kind[next] == kEscaped {
			wantEsc = 1
		}
		wantNeed := uint64(0)
		if next < len(doc) && ref.kind[next] == kCont {
			wantNeed = 1<<ref.rem[next] - 1
		}
		if c.esc != wantEsc || c.need != wantNeed {
			f.add("asm-carry/"+tag, "%q at %d from %d: next %d carry esc %d need %b, want %d %b", doc, at, from, next, c.esc, c.need, wantEsc, wantNeed)
		}
		if (c.escapes != 0) != ref.escapesBefore(next) {
			f.add("asm-escapes/"+tag, "%q at %d from %d: next %d escapes %x, want %v", doc, at, from, next, c.escapes, ref.escapesBefore(next))
		}
		wantSafe := ref.wantSafe(from, next+1)
		if c.safe != wantSafe {
			f.add("asm-safe/"+tag, "%q at %d from %d: next %d safe %d, want %d", doc, at, from, next, c.safe, wantSafe)
		}
	}
}

// ---- guarded memory: a page with nothing mapped after (or before) it ----

type guarded struct {
	mem  []byte
	page int
}

func newGuarded(t *testing.T) *guarded {
	page := os.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 4*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	// guard | data data | guard
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(mem[3*page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	return &guarded{mem: mem, page: page}
}

// atEnd copies doc so that it ends where the trailing guard starts.
func (g *guarded) atEnd(doc []byte) []byte {
	end := 3 * g.page
	d := g.mem[end-len(doc) : end : end]
	copy(d, doc)
	return d
}

// atStart copies doc so that it starts where the leading guard ends.
func (g *guarded) atStart(doc []byte) []byte {
	d := g.mem[g.page : g.page+len(doc) : g.page+len(doc)]
	copy(d, doc)
	return d
}

// ---- generators ----

var revPieces = []string{
	// escapes
	`\n`, `\"`, `\\`, `\/`, `\b`, `\t`, `\u0041`, `\u00e9`, `\uD800`, `\udfff`, `\udbff\udfff`, `\uFFFF`, `\u12`, `\u12G4`, `\x`, `\'`, `\U0041`,
	`\\\\`, `\\\"`, `\\\`, `\\\\\`,
	// valid UTF-8, odd leads included
	"\u0080", "é", "\u07ff", "\u0800", "東", "\ud7ff", "\ue000", "\uffff", "\U00010000", "😀", "\U000fffff", "\U00100000", "\U0010ffff",
	"\xe0\xa0\x80", "\xed\x9f\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xe0\xbf\xbf", "\xed\x80\x80",
	// invalid UTF-8
	"\xe0\x9f\xbf", "\xe0\x80\x80", "\xed\xa0\x80", "\xed\xbf\xbf", "\xf0\x8f\xbf\xbf", "\xf0\x80\x80\x80", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
	"\xc0\x80", "\xc1\xbf", "\xc2", "\xe1\x80", "\xf1\x80\x80", "\x80", "\xbf", "\xff", "\xfe", "\xf8\x88\x80\x80\x80", "\xc3\xc3\xa9", "\xe1\x80\xc3\xa9",
	// cut short by a quote
	"\xc3\"", "\xe0\xa0\"", "\xf0\x90\x80\"", "\xed\"", "\xf4\"",
	// escape + non-ASCII
	"\\\xc3\xa9", "\\\x80", "\\\xe2\x80\x99", "\\\xf4\x8f\xbf\xbf", "\\\xdc\x90",
	// controls
	"\x00", "\x01", "\x1f", "\x7f", "\t",
	// quote
	`"`,
	" ", "a", "abcdefgh",
}

func randFiller(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = "abcdefghijklmnopqrstuvwxyz0123456789 ,.;:-_ABCDEF"[rng.IntN(48)]
	}
	return b
}

func revTestN() int {
	if s := os.Getenv("REVIEW_N"); s != "" {
		var n int
		fmt.Sscan(s, &n)
		return n
	}
	return 20000
}

// TestReviewRandomStructured: docs built as pad + '"' + filler + piece (+filler +piece)... + tail.
func TestReviewRandomStructured(t *testing.T) {
	f := &failures{t: t}
	g := newGuarded(t)
	rng := rand.New(rand.NewPCG(11, uint64(revTestN())))
	for iter := 0; iter < revTestN(); iter++ {
		at := rng.IntN(128)
		doc := append(bytes.Repeat([]byte{' '}, at), '"')
		bodyLen := rng.IntN(330)
		npieces := 1 + rng.IntN(6)
		valid := rng.IntN(3) != 0
		for k := 0; k < npieces; k++ {
			// Put the piece so that it straddles a boundary relative to at+1 or to 0 often.
			target := at + 1 + rng.IntN(bodyLen+1)
			if rng.IntN(2) == 0 {
				base := (rng.IntN(5) + 1) * blockSize
				if rng.IntN(2) == 0 {
					base += at + 1
				}
				target = base - 4 + rng.IntN(9)
			}
			if target > len(doc) {
				doc = append(doc, randFiller(rng, target-len(doc))...)
			}
			p := revPieces[rng.IntN(len(revPieces))]
			if rng.IntN(4) == 0 { // backslash run
				p = strings.Repeat(`\`, 1+rng.IntN(9)) + []string{`"`, "n", "u0041", "ud800", "é", "\x80", "", `\`, "u12"}[rng.IntN(9)]
			}
			if valid {
				if r := refWalk([]byte(`"`+p+`"`), 1); !r.ok || r.end != len(p)+2 {
					continue
				}
			}
			doc = append(doc, p...)
		}
		if len(doc) < at+1+bodyLen {
			doc = append(doc, randFiller(rng, at+1+bodyLen-len(doc))...)
		}
		var tails [][]byte
		switch rng.IntN(3) {
		case 0:
			tails = [][]byte{nil}
		case 1:
			tails = [][]byte{[]byte(`"`)}
		default:
			tails = [][]byte{append([]byte(`"`), bytes.Repeat([]byte{' '}, rng.IntN(140))...)}
		}
		for _, tail := range tails {
			d := append(append([]byte{}, doc...), tail...)
			// Also make the string end exactly on a block boundary sometimes.
			if rng.IntN(4) == 0 {
				d = adjustToBoundary(d, at, rng)
			}
			var extra []int
			if ref := refWalk(d, at+1); true {
				// a random valid start point within the walk
				for tries := 0; tries < 4; tries++ {
					p := at + 1 + rng.IntN(max(1, ref.stop()-at))
					if p < len(d) && ref.kind[p] == kBoundary {
						extra = append(extra, p)
						break
					}
				}
			}
			if len(d) <= 2*g.page {
				checkDoc(f, g.atEnd(d), at, extra)
				if iter%4 == 0 {
					checkDoc(f, g.atStart(d), at, extra)
				}
			} else {
				checkDoc(f, d, at, extra)
			}
			if f.n > 60 {
				t.Fatalf("too many failures: %v", f.kinds)
			}
		}
	}
	if f.n > 0 {
		t.Logf("failure kinds: %v", f.kinds)
	}
}

// adjustToBoundary pads with filler before the first byte so that the closing quote (or input
// end) falls at a block boundary relative to at+1.
func adjustToBoundary(d []byte, at int, rng *rand.Rand) []byte {
	ref := refWalk(d, at+1)
	stop := ref.stop()
	rel := stop - (at + 1)
	want := (rel/blockSize+1)*blockSize - 1 + rng.IntN(3) // quote at bit 63, 0 or 1
	if want < rel {
		return d
	}
	ins := want - rel
	out := append([]byte{}, d[:at+1]...)
	out = append(out, bytes.Repeat([]byte{'x'}, ins)...)
	return append(out, d[at+1:]...)
}

// TestReviewBackslashRuns: every at 0..127, run lengths, run end around each boundary, followers
// and tails.
func TestReviewBackslashRuns(t *testing.T) {
	f := &failures{t: t}
	g := newGuarded(t)
	followers := []string{`"`, "n", "u0041", "ud800x", "u12", "é", "\x80", "\x01"}
	count := 0
	for at := 0; at < 128; at++ {
		for _, run := range []int{1, 2, 3, 4, 5, 62, 63, 64, 65, 66, 127, 128, 129} {
			for _, delta := range []int{-2, -1, 0, 1, 2} {
				for _, bnd := range []int{64, 128, 192} {
					// the run ends (last backslash) at at+1+bnd-1+delta
					start := at + 1 + bnd + delta - run
					if start < at+1 {
						continue
					}
					for _, fol := range followers {
						for _, tail := range []string{"", `"`, `"` + strings.Repeat(" ", 63), `"` + strings.Repeat(" ", 64), "tail\"" + strings.Repeat(" ", 70)} {
							d := []byte(strings.Repeat(" ", at) + `"` + strings.Repeat("a", start-at-1) + strings.Repeat(`\`, run) + fol + tail)
							count++
							if len(d) <= 2*g.page {
								d = g.atEnd(d)
							}
							checkDoc(f, d, at, nil)
							if f.n > 60 {
								t.Fatalf("too many failures: %v", f.kinds)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d docs; failure kinds: %v", count, f.kinds)
}

// TestReviewCharsAcrossBoundaries: each multibyte piece (valid and invalid, odd leads) at every
// offset around a boundary, combined with an escape right before/after, and tails.
func TestReviewCharsAcrossBoundaries(t *testing.T) {
	f := &failures{t: t}
	g := newGuarded(t)
	chars := []string{"é", "\u0080", "東", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "😀", "\U000fffff",
		"\xe0\x9f\xbf", "\xed\xa0\x80", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xc0\x80", "\xc1\xbf", "\xf5\x80\x80\x80", "\xc3", "\xe1\x80", "\xf1\x80\x80", "\x80"}
	around := []string{"", `\n`, `\\`, `\u0041`, `\ud800`, `"`, `\`, "é", "\xed\x9f\xbf"}
	count := 0
	for at := 0; at < 128; at += 1 {
		for _, bnd := range []int{64, 128} {
			for _, ch := range chars {
				for off := -len(ch) - 1; off <= 1; off++ {
					// ch starts at at+1+bnd+off
					for _, pre := range around {
						for _, post := range around {
							start := at + 1 + bnd + off - len(pre)
							if start < at+1 {
								continue
							}
							body := strings.Repeat("a", start-at-1) + pre + ch + post
							for _, tail := range []string{"", `"`, `"` + strings.Repeat(" ", 64)} {
								if at%8 != 0 && tail != `"` && post != "" {
									continue // keep it moderate
								}
								d := []byte(strings.Repeat(" ", at) + `"` + body + tail)
								count++
								if len(d) <= 2*g.page {
									d = g.atEnd(d)
								}
								checkDoc(f, d, at, nil)
								if f.n > 60 {
									t.Fatalf("too many failures: %v", f.kinds)
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d docs; failure kinds: %v", count, f.kinds)
}

// TestReviewUnicodeEscapeEdges: \u escapes whose digits cross a block boundary or the input end.
func TestReviewUnicodeEscapeEdges(t *testing.T) {
	f := &failures{t: t}
	g := newGuarded(t)
	escs := []string{`\u0041`, `\uD83D`, `\uDE00`, `\ud83d\ude00`, `\u12`, `\u1`, `\u`, `\u123`, `\u12g4`, `\u00"0`, `\\u0041`}
	count := 0
	for at := 0; at < 128; at++ {
		for _, bnd := range []int{64, 128} {
			for _, e := range escs {
				for off := -len(e) - 1; off <= 1; off++ {
					start := at + 1 + bnd + off
					if start < at+1 {
						continue
					}
					body := strings.Repeat("a", start-at-1) + e
					for _, tail := range []string{"", `"`, `x"`, `"` + strings.Repeat(" ", 64), strings.Repeat("b", 70) + `"`, strings.Repeat("b", 70)} {
						d := []byte(strings.Repeat(" ", at) + `"` + body + tail)
						count++
						if len(d) <= 2*g.page {
							d = g.atEnd(d)
						}
						checkDoc(f, d, at, nil)
						if f.n > 60 {
							t.Fatalf("too many failures: %v", f.kinds)
						}
					}
				}
			}
		}
	}
	t.Logf("%d docs; failure kinds: %v", count, f.kinds)
}

// TestReviewTailRestart: strings that run into the last <64 bytes with a carry into the last
// full block or the tail, all alignments.
func TestReviewZZCoverage(t *testing.T) { t.Logf("%v", cov) }

func TestReviewTailRestart(t *testing.T) {
	f := &failures{t: t}
	g := newGuarded(t)
	pieces := []string{`\`, `\\`, `\\\`, "\xc3", "\xe6\x9d", "\xf0\x9f\x98", `\u12`, `\u`, "é", `\n`, "\xe0", "\xed", "\xf4\x8f"}
	cont := []string{"", `"`, "\xa9\"", "\x9d\xb1\"", "\x80\"", `n"`, `"`, `u0041"`, `34"`, "\x80", "\x80\x80", "a"}
	count := 0
	for at := 0; at < 128; at++ {
		for nb := 1; nb <= 3; nb++ {
			for _, p := range pieces {
				for off := 0; off <= 4; off++ {
					for _, c := range cont {
						// piece ends at at+1+nb*64 - off
						start := at + 1 + nb*blockSize - off - len(p)
						if start < at+1 {
							continue
						}
						d := []byte(strings.Repeat(" ", at) + `"` + strings.Repeat("a", start-at-1) + p + c)
						count++
						if len(d) <= 2*g.page {
							d = g.atEnd(d)
						}
						checkDoc(f, d, at, nil)
						if f.n > 60 {
							t.Fatalf("too many failures: %v", f.kinds)
						}
					}
				}
			}
		}
	}
	t.Logf("%d docs; failure kinds: %v", count, f.kinds)
}

var revGuard *guarded

func FuzzReview(f *testing.F) {
	f.Add([]byte(strings.Repeat("a", 62)+`\\\"`+strings.Repeat("b", 70)+`"`), uint8(0), uint8(0))
	f.Add([]byte(strings.Repeat("a", 63)+"\xf0\x90\x80\x80"+strings.Repeat("東", 30)+`"`), uint8(1), uint8(70))
	f.Add([]byte(strings.Repeat("a", 60)+`\ud83d\ude00`+strings.Repeat("é", 40)), uint8(3), uint8(0))
	f.Add([]byte(strings.Repeat("é", 70)+`\`+strings.Repeat(`\\`, 30)+`"`), uint8(64), uint8(3))
	f.Add([]byte(strings.Repeat("\xed\x9f\xbf\\n", 40)+`"`), uint8(127), uint8(64))
	f.Fuzz(func(t *testing.T, body []byte, at, pad uint8) {
		if revGuard == nil {
			revGuard = newGuarded(t)
		}
		a := int(at) % 128
		doc := append(bytes.Repeat([]byte{' '}, a), '"')
		doc = append(doc, body...)
		doc = append(doc, bytes.Repeat([]byte{' '}, int(pad))...)
		fl := &failures{t: t}
		var extra []int
		ref := refWalk(doc, a+1)
		for p := a + 1 + int(pad)%64; p < ref.stop() && p < len(doc); p++ {
			if ref.kind[p] == kBoundary {
				extra = append(extra, p)
				break
			}
		}
		if len(doc) <= 2*revGuard.page {
			checkDoc(fl, revGuard.atEnd(doc), a, extra)
		} else {
			checkDoc(fl, doc, a, extra)
		}
	})
}

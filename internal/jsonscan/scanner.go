// Package jsonscan is the one-pass JSON reader under normalize: it validates RFC 8259 text
// (UTF-8 included) while it walks, and reports where values start and end instead of decoding
// them, so that values which pass through are copied as the exact bytes they arrived as.
//
// The caller drives the walk: ObjectStart/ObjectNext and ArrayStart/ArrayNext step through the
// containers whose members it cares about, and SkipValue validates everything else without
// building anything. Nesting is tracked without recursion, so depth costs no stack.
package jsonscan

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// Span is the half-open byte range [Start, End) of a value in the input. The zero Span means
// "absent": every present value is at least one byte long.
type Span struct{ Start, End int }

// Present reports whether the span holds a value.
func (s Span) Present() bool { return s.End > s.Start }

// Kind is the first byte of a value: '"', '{', '[', 't', 'f', 'n', or '0' for any number.
type Kind byte

// The kinds of JSON value.
const (
	String Kind = '"'
	Object Kind = '{'
	Array  Kind = '['
	True   Kind = 't'
	False  Kind = 'f'
	Null   Kind = 'n'
	Number Kind = '0'
	None   Kind = 0 // no value: end of input
)

// Describe names the kind with its article, for messages: "a string", "an object", "null".
func (k Kind) Describe() string {
	switch k {
	case String:
		return "a string"
	case Object:
		return "an object"
	case Array:
		return "an array"
	case True, False:
		return "a boolean"
	case Null:
		return "null"
	case Number:
		return "a number"
	}
	return "nothing"
}

// Name names the kind without an article: "string", "object", "null".
func (k Kind) Name() string {
	switch k {
	case String:
		return "string"
	case Object:
		return "object"
	case Array:
		return "array"
	case True, False:
		return "boolean"
	case Null:
		return "null"
	case Number:
		return "number"
	}
	return "nothing"
}

// StrFlags describe a scanned string.
type StrFlags uint8

const (
	// Escaped: the string holds at least one backslash escape.
	Escaped StrFlags = 1 << iota
	// SurrogateEscape: the string holds a \u escape in the surrogate range D800-DFFF, paired or not.
	SurrogateEscape
)

// SyntaxError is malformed input: what was wrong and the byte offset where it was found.
type SyntaxError struct {
	Offset int
	Reason string
	// Found: what the error was found at, when it is text of another kind than JSON.
	Found Found
	// JSONLines: the input is not one value but several, each on a line of its own, as a JSON
	// Lines file holds them; the layer above may say how to send such a file.
	JSONLines bool
	// TooDeep: the value nests deeper than the scanner's limit; an encoder writes such nesting
	// as readily as any other, so the fix is the structure or the limit, not the writing.
	TooDeep bool
	// TooManyDigits: an integer literal has more than MaxIntDigits digits, which the platform's
	// parser (CPython's json) does not read: valid JSON, so the fix is the value (a string),
	// not the writing.
	TooManyDigits bool
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s (byte offset %d)", e.Reason, e.Offset) }

// LineColumn places the error in data, the input it was found in, as Python's json module
// does (the platform's parser, whose message a porter compares ours with): the line counts
// '\n's before the offset, from 1, and the column counts characters (code points) since the
// line's start, from 1, not bytes (an editor shows "héllo 😀" as eight columns, not thirteen).
// It counts from the start of data, so it is for the error path only.
func (e *SyntaxError) LineColumn(data []byte) (line, column int) {
	before := data[:e.Offset]
	line = 1 + bytes.Count(before, []byte{'\n'})
	column = 1 + utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:])
	return line, column
}

// Scanner walks one JSON text. The zero Scanner is not usable; call Reset.
type Scanner struct {
	data     []byte
	pos      int
	depth    int
	maxDepth int
	ws       int // counts whitespace runs skipped, so callers can tell whether a value held any
	// wsMask has a bit set for each byte skipped as whitespace: wsBits, or all but '\n' for
	// a walk of one line (ResetLine), which a '\n' ends.
	wsMask uint64
	// runs are where the whitespace runs skipped start, in input order, while recording (see
	// ResetRecordingWS), so that AppendValue compacts a value without scanning it again;
	// recording stops, and the runs no longer count, past the bound maxRunBytes sets.
	recording bool
	runs      []int32
	maxRuns   int // the bound on len(runs)
	err       *SyntaxError
	stack     []bool // container kinds during SkipValue: true for object
	key       Span   // content of the last member key, without its quotes
	keyText   []byte // the same, as a slice of data: Key, called for nearly every key, only reads it
	keyFlags  StrFlags
	strFlags  StrFlags
	// wide: a string held a byte from 0x80 on, so scanStringVBMI starts in its UTF-8 loop.
	// Until then its ASCII loop leaves the checks out: Python's json.dumps, the platform's
	// writer, escapes every other character.
	wide bool
}

// Reset starts a walk over data, allowing at most maxDepth nested arrays and objects.
func (s *Scanner) Reset(data []byte, maxDepth int) {
	s.start(data, maxDepth, wsBits, false, 0)
}

// start clears the walk's state for a walk over data. It stores each field: a composite literal
// assigned to *s is built on the stack and copied, and the copy's 16-byte loads of 8-byte
// stores just made stall (8% of a 100-byte result's time).
func (s *Scanner) start(data []byte, maxDepth int, wsMask uint64, recording bool, maxRuns int) {
	s.data, s.pos, s.depth, s.maxDepth, s.ws, s.wsMask = data, 0, 0, maxDepth, 0, wsMask
	s.recording, s.runs, s.maxRuns, s.err = recording, s.runs[:0], maxRuns, nil
	s.stack, s.key, s.keyText, s.keyFlags, s.strFlags, s.wide = s.stack[:0], Span{}, nil, 0, 0, false
}

// Forget drops the walk's input and its error, for a Scanner kept (in a pool) until its
// next walk, which Reset starts; it costs less than a Reset, which clears every field.
func (s *Scanner) Forget() { s.data, s.keyText, s.err = nil, nil, nil }

// ResetRecordingWS is Reset for a walk that also records where the whitespace between tokens
// is, for AppendValue: Python's json.dumps puts a space after every ',' and ':', and a value
// written out compact was otherwise scanned a second time (a quarter of the time of such a
// result). The record costs nothing where there is no whitespace, and is bounded: past one
// run per maxRunBytes of input, AppendValue scans again instead.
func (s *Scanner) ResetRecordingWS(data []byte, maxDepth int) {
	s.start(data, maxDepth, wsBits, true, len(data)/maxRunBytes+16)
}

// ResetLine is ResetRecordingWS for a walk of the line at the start of data, which ends at
// the first '\n': a '\n' is not whitespace to it, so no value goes past one, and AtEnd
// takes it for the end of the input. A walk with no error went over the bytes of the line alone, and only once:
// JSON lines need not be cut apart before they are read.
func (s *Scanner) ResetLine(data []byte, maxDepth int) {
	s.ResetRecordingWS(data, maxDepth)
	s.wsMask = wsBits &^ (1 << '\n')
}

// Restart starts the walk over, from the start of its input, as the Reset it began with did.
func (s *Scanner) Restart() { s.start(s.data, s.maxDepth, s.wsMask, s.maxRuns > 0, s.maxRuns) }

// CutInput makes data[:n] the walk's input, as if the rest had never been there: once a walk
// begun with ResetLine is over, its line is the input.
func (s *Scanner) CutInput(n int) { s.data = s.data[:n] }

// maxRunBytes bounds the record of whitespace runs to a quarter of the input's size (4 bytes
// a run), which TestMemoryBound holds within PeakHeapRatio: a hostile input of one-byte
// tokens each followed by a space would otherwise have it take four times the input.
// Indented JSON has a run every 20 bytes or more, Python's every 10 to 30.
const maxRunBytes = 16

// Mark is a place in a walk, to come back to with Rewind. It is four words: the compiler
// builds a struct of more on the stack field by field and copies it with wider loads, which
// wait for those stores to retire (a message's reading took a Mark, and waited, every time).
type Mark struct {
	pos, depth, ws int
	runs           int // len(s.runs), or its complement when recording had stopped
}

// Mark returns the walk's place: a caller that learns, part way through a value, that it must
// read it another way rewinds to it and reads the value again.
func (s *Scanner) Mark() Mark {
	runs := len(s.runs)
	if !s.recording {
		runs = ^runs
	}
	return Mark{pos: s.pos, depth: s.depth, ws: s.ws, runs: runs}
}

// Rewind goes back to m, a Mark of this walk, as if nothing past it had been read. The walk
// must have met no error since: an error ends it.
func (s *Scanner) Rewind(m Mark) {
	runs, recording := m.runs, m.runs >= 0
	if !recording {
		runs = ^runs
	}
	s.pos, s.depth, s.ws, s.runs, s.recording = m.pos, m.depth, m.ws, s.runs[:runs], recording
}

// MaxDepth is the nesting limit of the walk.
func (s *Scanner) MaxDepth() int { return s.maxDepth }

// Data is the input being walked.
func (s *Scanner) Data() []byte { return s.data }

// Pos is the offset of the next unread byte.
func (s *Scanner) Pos() int { return s.pos }

// Err is the first syntax error met, or nil.
func (s *Scanner) Err() *SyntaxError { return s.err }

// WS counts the whitespace runs skipped so far. A value whose walk changed WS held whitespace
// between its tokens, and must be compacted to be written out in canonical form.
func (s *Scanner) WS() int { return s.ws }

// Key returns the raw content of the last member key (between its quotes) and its flags.
func (s *Scanner) Key() ([]byte, StrFlags) { return s.keyText, s.keyFlags }

// KeyToken is the span of the last member key including its quotes.
func (s *Scanner) KeyToken() Span { return Span{s.key.Start - 1, s.key.End + 1} }

// StrFlags are the flags of the last string scanned as a value.
func (s *Scanner) StrFlags() StrFlags { return s.strFlags }

// Fail records a syntax error at off, unless one was already recorded, and returns false.
func (s *Scanner) Fail(off int, format string, args ...any) bool {
	if s.err == nil {
		reason, found := fmt.Sprintf(format, args...), Found{}
		if off < 4 { // text in UTF-16 or UTF-32 fails in its first bytes, whatever it holds
			if h, f, ok := failWide(s.data); ok {
				reason, found = h, f
			}
		}
		s.err = &SyntaxError{Offset: off, Reason: reason, Found: found}
		s.pos = len(s.data) // stop every loop that is still walking
	}
	return false
}

// Peek skips whitespace and returns the kind of the next value, or None at the end of input.
// Anything that cannot start a value is returned as is, for SkipValue to reject.
func (s *Scanner) Peek() Kind {
	if i := s.pos; i < len(s.data) && s.data[i] > ' ' {
		return kindOf[s.data[i]]
	}
	return s.peekPastWS()
}

// ValueKind is Peek where ObjectStart or ObjectNext has just reported a member: the member's
// scan stepped over the whitespace after its ':', so its value's first byte is next, and the
// look inlines, where Peek (too big to inline after all) is a call.
func (s *Scanner) ValueKind() Kind {
	if s.pos < len(s.data) {
		return kindOf[s.data[s.pos]]
	}
	return None
}

// peekPastWS is Peek where whitespace, or the end of input, is next.
func (s *Scanner) peekPastWS() Kind {
	s.skipWS()
	if s.pos >= len(s.data) {
		return None
	}
	return kindOf[s.data[s.pos]]
}

// kindOf is the Kind a value that starts with byte c has: Number for '-' and digits, else c.
var kindOf = func() (k [256]Kind) {
	for c := range k {
		k[c] = Kind(c)
		if c == '-' || (c >= '0' && c <= '9') {
			k[c] = Number
		}
	}
	return k
}()

// AtEnd skips whitespace and reports whether the input is used up; if not, it records the
// trailing data as an error. A walk begun with ResetLine is at its end at a '\n' too, which
// is then Pos.
func (s *Scanner) AtEnd() bool {
	s.skipWS()
	if s.err != nil {
		return false
	}
	if s.pos < len(s.data) && (s.data[s.pos] != '\n' || s.wsMask&(1<<'\n') != 0) {
		return s.failTrailing(s.pos)
	}
	return true
}

func (s *Scanner) skipWS() {
	i := s.pos
	if i >= len(s.data) || s.data[i] > ' ' {
		return
	}
	s.skipRun()
}

// spaceRun skips the run at s.pos if it is one space: what Python's json.dumps leaves after
// every ',' and ':'. It reports whether it did, in line, where skipRun is a call; like
// skipRun, it is called past a check that a byte up to ' ' is next, which keeps compact JSON
// from paying for it.
func (s *Scanner) spaceRun() bool {
	i := s.pos
	if i+1 >= len(s.data) || s.data[i] != ' ' || s.data[i+1] <= ' ' {
		return false
	}
	s.ws++
	if s.recording {
		s.record()
	}
	s.pos = i + 1
	return true
}

// skipRun is skipWS past the check that inlines: it skips a run, if one starts at s.pos.
//
//go:noinline
func (s *Scanner) skipRun() {
	d, i, mask := s.data, s.pos, s.wsMask
	for i < len(d) && d[i] <= ' ' && mask>>d[i]&1 != 0 {
		i++
	}
	if i != s.pos {
		s.ws++
		if s.recording {
			s.record()
		}
		s.pos = i
	}
}

// wsBits has the bits of the four whitespace bytes set, for a test by shift.
const wsBits uint64 = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\r'

// record notes the whitespace run that starts at s.pos.
func (s *Scanner) record() {
	if len(s.runs) >= s.maxRuns {
		s.recording = false
		return
	}
	s.runs = append(s.runs, int32(s.pos))
}

// AppendValue appends the value at sp of the input, compacted when hasWS says it held
// whitespace between its tokens (a walk's WS changed over it): from the runs recorded when
// the walk began with ResetRecordingWS, else by scanning it again (AppendCompact).
func (s *Scanner) AppendValue(dst []byte, sp Span, hasWS bool) []byte {
	d := s.data
	if !hasWS {
		return append(dst, d[sp.Start:sp.End]...)
	}
	if !s.recording {
		return AppendCompact(dst, d[sp.Start:sp.End])
	}
	runs := s.runs
	lo, hi := 0, len(runs) // the first run from sp.Start on: a value starts at a token
	for lo < hi {
		if mid := int(uint(lo+hi) >> 1); int(runs[mid]) < sp.Start {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	at := sp.Start
	for _, r := range runs[lo:] {
		if int(r) >= sp.End {
			break
		}
		dst = append(dst, d[at:r]...)
		for at = int(r) + 1; at < sp.End && d[at] <= ' ' && wsBits>>d[at]&1 != 0; at++ {
		}
	}
	return append(dst, d[at:sp.End]...)
}

// enter steps into the container at s.pos, one level deeper; past the limit it fails. It is
// small enough to inline into open and scalarOrOpen.
func (s *Scanner) enter() bool {
	s.depth++
	if s.depth > s.maxDepth {
		return s.tooDeep()
	}
	s.pos++
	return true
}

// tooDeep is enter past the limit: it records the error, unless one was already recorded.
//
//go:noinline
func (s *Scanner) tooDeep() bool {
	if s.err == nil {
		s.failDepth()
	}
	return false
}

// failDepth records the error for the container at s.pos, one level past the limit. The
// default limit's message says where the number comes from, for a reader who would raise it.
func (s *Scanner) failDepth() {
	why := ""
	if s.maxDepth == DefaultMaxDepth {
		why = fmt.Sprintf(" (the default limit, a margin under Python's json, the platform's parser, which reads at most %d at its recursion limit, fewer the deeper it is called)", pythonMaxDepth)
	}
	s.Fail(s.pos, "nesting deeper than %d levels of arrays and objects%s", s.maxDepth, why)
	s.err.TooDeep = true
}

// ObjectStart consumes '{' and, when the object has a member, its key and ':'; it reports
// whether a member value follows. The caller must consume that value, then call ObjectNext.
func (s *Scanner) ObjectStart() bool {
	// The '{' and its first key's quote are next, as in compact JSON and Python's: no call to
	// open. (After an error s.pos is at the end of input, where open says false.)
	if i := s.pos; i+1 < len(s.data) && s.data[i] == '{' && s.data[i+1] == '"' && s.depth < s.maxDepth {
		s.depth++
		return s.member(i + 1)
	}
	return s.open('{') && s.member(s.pos)
}

// ObjectNext consumes ',' and the next key and ':', reporting true, or the closing '}',
// reporting false. It reports false on any error too.
func (s *Scanner) ObjectNext() bool { return s.ObjectNextAfter(Span{End: s.pos}) }

// ObjectNextAfter is ObjectNext after the member's value v, just read (by StringValue,
// NumberValue or SkipValue, whose End is the position): it takes the position from v, in a
// register, where ObjectNext loads it back from the store the value's scan just made, which
// every member's path waited for.
func (s *Scanner) ObjectNextAfter(v Span) bool {
	// The ',' or the '}' is next, as in compact JSON: no call to next. (After an error the
	// position is the end of input, where next says false.)
	if i := v.End; i < len(s.data) {
		switch s.data[i] {
		case ',':
			// The key's offset goes to member in a register: stored in s.pos and loaded
			// back there, it put a store's round trip on every member's path.
			if i++; i < len(s.data) && s.data[i] <= ' ' {
				if s.pos = i; !s.spaceRun() {
					s.skipRun()
				}
				i = s.pos
			}
			return s.member(i)
		case '}':
			s.pos = i + 1
			s.depth--
			return false
		}
	}
	return s.next(true) && s.member(s.pos)
}

// ArrayStart consumes '[' and reports whether an element follows.
func (s *Scanner) ArrayStart() bool {
	// As in ObjectStart: '[' and a byte that starts a value, no call to open.
	if i := s.pos; i+1 < len(s.data) && s.data[i] == '[' && s.data[i+1] > ' ' && s.data[i+1] != ']' && s.depth < s.maxDepth {
		s.depth++
		s.pos = i + 1
		return true
	}
	return s.open('[')
}

// ArrayNext consumes ',' and reports true, or the closing ']' and reports false.
func (s *Scanner) ArrayNext() bool {
	if i := s.pos; i < len(s.data) { // as in ObjectNext: no call to next
		switch s.data[i] {
		case ',':
			if s.pos = i + 1; s.pos < len(s.data) && s.data[s.pos] <= ' ' && !s.spaceRun() {
				s.skipRun()
			}
			return true
		case ']':
			s.pos = i + 1
			s.depth--
			return false
		}
	}
	return s.next(false)
}

// open consumes the opening byte c of an object or array, and reports whether it holds a
// member or element (false for an empty one, which it closes, and on error).
func (s *Scanner) open(c byte) bool {
	if s.err != nil {
		return false
	}
	if s.pos >= len(s.data) || s.data[s.pos] != c {
		return s.Fail(s.pos, "%s; expected '%c'", describeByte(s.data, s.pos), c)
	}
	if !s.enter() {
		return false
	}
	s.skipWS()
	if s.pos < len(s.data) && s.data[s.pos] == closer(c == '{') {
		s.pos++
		s.depth--
		return false
	}
	return true
}

// next consumes the ',' before the next member or element, reporting true, or the closing
// byte, reporting false (and false on error).
func (s *Scanner) next(obj bool) bool {
	s.skipWS()
	if s.err != nil {
		return false
	}
	if s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ',':
			if s.pos++; s.pos < len(s.data) && s.data[s.pos] <= ' ' {
				if !s.spaceRun() {
					s.skipRun()
				}
			}
			return true
		case closer(obj):
			s.pos++
			s.depth--
			return false
		}
	}
	return s.failSeparator(s.pos, obj)
}

// member consumes a member's key, which starts at i, and ':', and the whitespace after them;
// it sets s.pos past them (i is where the walk stands, whatever s.pos held).
func (s *Scanner) member(i int) bool {
	// Nearly every key is a plain word of up to 15 bytes with ':' right after it: one or two
	// words settle it here, where nothing is live across a call (memberLong's scanString
	// made every member save its registers first, a third of its instructions); memberWide
	// goes on with a longer key (metadata's).
	if d := s.data[i:]; len(d) >= 19 && d[0] == '"' {
		w := (*[19]byte)(d)
		k := 0
		m := special(binary.LittleEndian.Uint64(w[1:9]))
		if m == 0 {
			k, m = 8, special(binary.LittleEndian.Uint64(w[9:17]))
		}
		if k = (k + bits.TrailingZeros64(m)>>3) & 15; m != 0 && w[k+1] == '"' && w[k+2] == ':' {
			s.key, s.keyText, s.keyFlags = Span{i + 1, i + 1 + k}, w[1:1+k:1+k], 0
			s.pos = i + 3 + k
			if w[k+3] <= ' ' && !s.spaceRun() {
				s.skipRun()
			}
			return true
		}
		if m == 0 {
			return s.memberWide(i)
		}
	}
	return s.memberLong(i)
}

// memberWide is member for a key whose first 16 bytes are plain: two words more settle a
// key of up to 31 bytes. (In member, they cost the short keys' path a few moves.)
func (s *Scanner) memberWide(i int) bool {
	d := s.data
	if i+35 <= len(d) {
		w := (*[35]byte)(d[i : i+35])
		k := 16
		m := special(binary.LittleEndian.Uint64(w[17:25]))
		if m == 0 {
			k, m = 24, special(binary.LittleEndian.Uint64(w[25:33]))
		}
		if k = (k + bits.TrailingZeros64(m)>>3) & 31; m != 0 && w[k+1] == '"' && w[k+2] == ':' {
			s.key, s.keyText, s.keyFlags = Span{i + 1, i + 1 + k}, w[1:1+k:1+k], 0
			s.pos = i + 3 + k
			if w[k+3] <= ' ' && !s.spaceRun() {
				s.skipRun()
			}
			return true
		}
	}
	return s.memberLong(i)
}

// memberLong is member for the other keys: longer, escaped or invalid ones, a key followed
// by whitespace, and the last bytes of the input.
func (s *Scanner) memberLong(i int) bool {
	s.pos = i
	d, start := s.data, i+1
	if s.pos >= len(d) || d[s.pos] != '"' {
		return s.failKey(s.pos)
	}
	// Two words of the scan settle a short key here, without a call to scanString, and two
	// more a long one (metadata's keys).
	var flags StrFlags
	if start+16 <= len(d) {
		w := d[start : start+16]
		k := 0
		m := special(binary.LittleEndian.Uint64(w[:8]))
		if m == 0 {
			k, m = 8, special(binary.LittleEndian.Uint64(w[8:]))
		}
		if k += bits.TrailingZeros64(m) >> 3; m != 0 && w[k&15] == '"' {
			s.pos = start + k + 1
			goto scanned
		}
		// A longer plain key ("total_output_tokens"): two words more, or, in the input's
		// last 32 bytes (where the last key of metadata, sent last, often is), a byte at a
		// time up to its end: scanString's words and blocks do not fit there either.
		if m == 0 && start+32 <= len(d) {
			w := d[start+16 : start+32]
			k, m = 0, special(binary.LittleEndian.Uint64(w[:8]))
			if m == 0 {
				k, m = 8, special(binary.LittleEndian.Uint64(w[8:]))
			}
			if k += bits.TrailingZeros64(m) >> 3; m != 0 && w[k&15] == '"' {
				s.pos = start + 16 + k + 1
				goto scanned
			}
		} else if m == 0 {
			for k := start + 16; k < len(d); k++ {
				if c := d[k]; c == '"' {
					s.pos = k + 1
					goto scanned
				} else if c < 0x20 || c == '\\' || c >= 0x80 {
					break
				}
			}
		}
	}
	if f, _, ok := s.scanString(); !ok {
		return false
	} else {
		flags = f
	}
scanned:
	s.key, s.keyText, s.keyFlags = Span{start, s.pos - 1}, d[start:s.pos-1:s.pos-1], flags
	if s.pos < len(d) && d[s.pos] == ':' {
		s.pos++
	} else {
		s.skipWS()
		if s.pos >= len(d) || d[s.pos] != ':' {
			return s.Fail(s.pos, "%s after an object key; expected ':'", describeByte(d, s.pos))
		}
		s.pos++
	}
	if s.pos < len(d) && d[s.pos] <= ' ' {
		if !s.spaceRun() {
			s.skipRun()
		}
	}
	return true
}

// StringValue scans the string at the current position and returns its span, quotes included.
// Its flags are then in StrFlags.
func (s *Scanner) StringValue() Span {
	start := s.pos
	var end int
	s.strFlags, end, _ = s.scanString() // end is s.pos, in a register (see ObjectNextAfter)
	return Span{start, end}
}

// NumberValue scans the number at the current position (which must start with '-' or a
// digit) and returns its span.
func (s *Scanner) NumberValue() Span {
	start := s.pos
	s.scanNumber()
	return Span{start, s.pos}
}

// SkipValue validates the value at the current position, whatever it holds, and returns its span.
func (s *Scanner) SkipValue() Span {
	start := s.pos
	base := s.depth
	s.stack = s.stack[:0]
	for s.err == nil {
		if !s.scalarOrOpen() {
			break
		}
		// After a complete value: close containers and step to the next member or element.
		for s.depth > base && s.err == nil {
			s.skipWS()
			if s.pos >= len(s.data) {
				s.Fail(s.pos, "unexpected end of input inside %s", containerName(s.stack[len(s.stack)-1]))
				break
			}
			obj := s.stack[len(s.stack)-1]
			c := s.data[s.pos]
			if c == ',' {
				if s.pos++; s.pos < len(s.data) && s.data[s.pos] <= ' ' {
					if !s.spaceRun() {
						s.skipRun()
					}
				}
				if obj {
					s.member(s.pos)
				}
				break
			}
			if (obj && c == '}') || (!obj && c == ']') {
				s.pos++
				s.depth--
				s.stack = s.stack[:len(s.stack)-1]
				continue
			}
			s.failSeparator(s.pos, obj)
		}
		if s.depth == base {
			break
		}
	}
	return Span{start, s.pos}
}

// scalarOrOpen consumes a scalar, or opens a container; it returns true when a complete value
// was consumed (a scalar or an empty container), false when a container was opened and its
// first member or element is next, or on error (s.err is set then).
func (s *Scanner) scalarOrOpen() bool {
	for {
		if s.pos >= len(s.data) {
			return s.Fail(s.pos, "unexpected end of input; expected a value")
		}
		switch c := s.data[s.pos]; c {
		case '"':
			_, _, ok := s.scanString()
			return ok
		case '{', '[':
			obj := c == '{'
			if !s.enter() {
				return false
			}
			s.skipWS()
			if s.pos < len(s.data) && s.data[s.pos] == closer(obj) {
				s.pos++
				s.depth--
				return true
			}
			s.stack = append(s.stack, obj)
			if obj && !s.member(s.pos) {
				return false
			}
			continue // the first member's value or the first element is next
		// The words compared with constants are a load and a compare each; literal's
		// comparison with its parameter is a call of memequal.
		case 't':
			if i := s.pos; i+4 <= len(s.data) && string(s.data[i:i+4]) == "true" {
				s.pos = i + 4
				return true
			}
			return s.literal("true")
		case 'f':
			if i := s.pos; i+5 <= len(s.data) && string(s.data[i:i+5]) == "false" {
				s.pos = i + 5
				return true
			}
			return s.literal("false")
		case 'n':
			if i := s.pos; i+4 <= len(s.data) && string(s.data[i:i+4]) == "null" {
				s.pos = i + 4
				return true
			}
			return s.literal("null")
		default:
			if c == '-' || (c >= '0' && c <= '9') {
				return s.scanNumber()
			}
			return s.failValue(s.pos)
		}
	}
}

func containerName(obj bool) string {
	if obj {
		return "an object"
	}
	return "an array"
}

func elementName(obj bool) string {
	if obj {
		return "an object member"
	}
	return "an array element"
}

func closer(obj bool) byte {
	if obj {
		return '}'
	}
	return ']'
}

func (s *Scanner) literal(word string) bool {
	end := s.pos + len(word)
	if end > len(s.data) || string(s.data[s.pos:end]) != word {
		if w := wordAt(s.data, s.pos); w != "" && !strings.HasPrefix(word, w) {
			return s.failValue(s.pos) // another word: None, nan, or prose
		}
		return s.Fail(s.pos, "invalid literal; expected %q", word)
	}
	s.pos = end
	return true
}

func (s *Scanner) scanNumber() bool {
	d, i := s.data, s.pos
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		j := digits(d, i+1)
		if j-i > MaxIntDigits && !fracOrExp(d, j) { // an integer literal, a Python int
			return s.failDigits(j - i)
		}
		i = j
	default:
		if h, f := wrongText(d, i); h != "" { // -Infinity
			return s.failFound(i, f, h)
		}
		return s.Fail(i, "%s in a number; expected a digit", describeByte(d, i))
	}
	if i < len(d) && d[i] == '.' {
		j := digits(d, i+1)
		if j == i+1 {
			return s.Fail(j, "%s after a decimal point; expected a digit", describeByte(d, j))
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			return s.Fail(j, "%s in an exponent; expected a digit", describeByte(d, j))
		}
		i = j
	}
	s.pos = i
	return true
}

// fracOrExp reports whether a fraction or an exponent follows the integer part that ends at
// d[i]: whether the number is a float to Python.
func fracOrExp(d []byte, i int) bool {
	return i < len(d) && (d[i] == '.' || d[i] == 'e' || d[i] == 'E')
}

// failDigits records the error for the integer literal at s.pos, of n digits, past
// MaxIntDigits. The platform's parser says only "Exceeds the limit (4300 digits) for integer
// string conversion", and where it failed not at all. It stays out of line: inlined into
// scanNumber, this cold code made the scan of number-dense input measurably slower.
//
//go:noinline
func (s *Scanner) failDigits(n int) bool {
	if s.err == nil {
		s.Fail(s.pos, "an integer of %d digits; Python's json, the platform's parser, reads at most %d (sys.get_int_max_str_digits()): send a number this long as a string", n, MaxIntDigits)
		s.err.TooManyDigits = true
	}
	return false
}

// IsNumber reports whether b is exactly one JSON number that the platform's parser reads: an
// integer literal is at most MaxIntDigits digits.
func IsNumber(b []byte) bool {
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return false
	}
	var s Scanner
	s.Reset(b, 1)
	return s.scanNumber() && s.pos == len(b)
}

func digits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// special marks, in each byte's top bit, the bytes of x that end a plain run in a string: '"',
// '\\', a control character, or a non-ASCII byte. Only the lowest marked byte is exact (borrows
// can mark bytes above it), which is the only one the caller uses. The usual zero-byte test,
// (v-lsb)&^v, needs no &^v here: below the lowest special byte every byte is ASCII, so q, b
// and x hold no top bit there; and a non-ASCII byte keeps its top bit in q-1 or b-1, since
// only 0xA2 and 0xDC lose it, one in each (five operations less, on every word of every
// string).
func special(x uint64) uint64 {
	q := x ^ (lsb * '"')
	b := x ^ (lsb * '\\')
	return ((q - lsb) | (b - lsb) | (x - lsb*0x20)) & msb
}

// plainRun reports whether run, a part of a string between escapes, is fine as it is: no
// control character and valid UTF-8. It checks sixteen bytes at a time where they are ASCII.
func plainRun(run []byte) bool {
	// hasless(x, 0x20) per word, ORed together, is nonzero exactly when some byte is below 0x20.
	// Words overlap where a non-ASCII sequence moved the window, which only checks bytes twice.
	var ctl uint64
	k := 0
	for k+16 <= len(run) {
		x := binary.LittleEndian.Uint64(run[k : k+8])
		y := binary.LittleEndian.Uint64(run[k+8 : k+16])
		ctl |= (x-lsb*0x20)&^x | (y-lsb*0x20)&^y
		if (x|y)&msb == 0 {
			k += 16
			continue
		}
		if x&msb == 0 {
			k, x = k+8, y
		}
		k += bits.TrailingZeros64(x&msb) >> 3
		n := utf8Len(run, k)
		if n == 0 {
			return false
		}
		k += n
	}
	return ctl&msb == 0 && plainTail(run[k:])
}

// plainTail is plainRun a byte at a time, for the last few bytes and for short runs.
func plainTail(run []byte) bool {
	for k := 0; k < len(run); {
		c := run[k]
		if c < 0x20 {
			return false
		}
		if c < utf8.RuneSelf {
			k++
			continue
		}
		n := utf8Len(run, k)
		if n == 0 {
			return false
		}
		k += n
	}
	return true
}

// scanString consumes the string at s.pos (which must be '"') and validates it: escapes,
// control characters and UTF-8. A short string is settled by one word; a longer one is scanned
// a block at a time by scanStringVBMI where the CPU has AVX512-VBMI, then (when that leaves it)
// by scanBlocks where the CPU has AVX2, else by scanWords; the last bytes of the input, and
// anything wrong, go to the careful scan, which says exactly what and where.
func (s *Scanner) scanString() (flags StrFlags, end int, ok bool) {
	d := s.data
	i := s.pos + 1
	// Most strings are keys and short values: up to four words (measured best against two and
	// eight) settle them without a block. What they found plain is not scanned again: the rest
	// starts at from, which is no escaped byte and no continuation byte, since none came before.
	from := i
	if w := d[i:]; len(w) >= 32 { // the words of one array: no bounds check of their own
		w := (*[32]byte)(w)
		k := 0
		m := special(binary.LittleEndian.Uint64(w[0:8]))
		if m == 0 {
			k, m = 8, special(binary.LittleEndian.Uint64(w[8:16]))
			if m == 0 {
				k, m = 16, special(binary.LittleEndian.Uint64(w[16:24]))
				if m == 0 {
					k, m = 24, special(binary.LittleEndian.Uint64(w[24:32]))
				}
			}
		}
		if m == 0 {
			from = i + 32
		} else {
			if k = (k + bits.TrailingZeros64(m)>>3) & 31; w[k] == '"' {
				s.pos = i + k + 1
				return 0, i + k + 1, true
			}
			from = i + k
		}
	} else {
		for k := i; k < i+32 && k+8 <= len(d); k += 8 {
			m := special(binary.LittleEndian.Uint64(d[k : k+8]))
			if m == 0 {
				from = k + 8
				continue
			}
			if k += bits.TrailingZeros64(m) >> 3; d[k] == '"' {
				s.pos = k + 1
				return 0, k + 1, true
			}
			from = k
			break
		}
	}
	if !useBlocks {
		flags, ok = s.scanWords(from)
		return flags, s.pos, ok
	}
	if useStringVBMI { // anything but a valid string is left to scanBlocks, which reports it
		if end, flags := scanStringVBMI(&d[0], from, len(d), !s.wide); end != 0 {
			s.pos, s.wide = end, flags&stringWide != 0
			return StrFlags(flags &^ stringWide), end, true
		}
	}
	if flags, end, ok = scanBlocks(d, from); ok {
		s.pos = end
		return flags, end, true
	}
	more, ok := s.scanStringCareful(end)
	return flags | more, s.pos, ok
}

// scanWords is the string scan without AVX2: for a string without escapes, the closing quote
// is found with bytes.IndexByte (vectorised in the standard library) and the run checked by
// plainRun; from the first escape on, the careful scan takes over.
func (s *Scanner) scanWords(i int) (StrFlags, bool) {
	d := s.data
	q := indexFrom(d, i, '"') // the first raw quote: the end, unless an escape comes first
	if q < 0 {
		return s.scanStringCareful(i)
	}
	end := q
	if b := bytes.IndexByte(d[i:q], '\\'); b >= 0 {
		end = i + b
	}
	if !plainRun(d[i:end]) {
		return s.scanStringCareful(i)
	}
	if end == q {
		s.pos = q + 1
		return 0, true
	}
	// Escapes: prose has one every line or so, and the word-at-a-time scan handles them in
	// line, cheaper than a search per escape.
	return s.scanStringCareful(end)
}

func indexFrom(d []byte, i int, c byte) int {
	if j := bytes.IndexByte(d[i:], c); j >= 0 {
		return i + j
	}
	return -1
}

// scanStringCareful scans the string that opens at s.pos from offset from on (what lies before
// was checked), byte by byte or eight at a time where nothing happens: escapes, control
// characters and UTF-8 are checked where they are, and errors say exactly where.
func (s *Scanner) scanStringCareful(from int) (StrFlags, bool) {
	d := s.data
	i := from
	var flags StrFlags
	for {
		for i+16 <= len(d) {
			m := special(binary.LittleEndian.Uint64(d[i : i+8]))
			if m == 0 {
				if m = special(binary.LittleEndian.Uint64(d[i+8 : i+16])); m == 0 {
					i += 16
					continue
				}
				i += 8
			}
			i += bits.TrailingZeros64(m) >> 3
			break
		}
		for i+8 <= len(d) && i+16 > len(d) {
			if m := special(binary.LittleEndian.Uint64(d[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(d) {
			return flags, s.Fail(len(d), "unexpected end of input inside the string that starts at byte offset %d", s.pos)
		}
		switch c := d[i]; {
		case c == '"':
			s.pos = i + 1
			return flags, true
		case c == '\\':
			flags |= Escaped
			if i+1 < len(d) && simpleEscape[d[i+1]] {
				i += 2
				continue
			}
			n, surrogate := escapeLen(d, i)
			if n == 0 && i+1 >= len(d) {
				return flags, s.Fail(len(d), "unexpected end of input inside the string that starts at byte offset %d", s.pos)
			}
			if n == 0 {
				return flags, s.Fail(i, "invalid escape %s in a string; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", quoteEscape(d, i))
			}
			if surrogate {
				flags |= SurrogateEscape
			}
			i += n
		case c < 0x20:
			return flags, s.Fail(i, "control character U+%04X inside a string; it must be escaped, e.g. as \\u%04x", c, c)
		case c < utf8.RuneSelf:
			i++
		default:
			// Non-ASCII characters come in runs (a word of Japanese, an accented name).
			for {
				n := utf8Len(d, i)
				if n == 0 {
					return flags, s.Fail(i, "invalid UTF-8 byte 0x%02X inside a string; the input must be UTF-8", d[i])
				}
				if i += n; i >= len(d) || d[i] < utf8.RuneSelf {
					break
				}
			}
		}
	}
}

// simpleEscape marks the characters that make a two-byte escape after a backslash.
var simpleEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

// utf8Len returns the length of the valid UTF-8 sequence that starts with the non-ASCII byte
// d[i], or 0 if it is not valid (overlong forms, surrogates and values past U+10FFFF are not).
// It is utf8.DecodeRune without the decoding, which the scan does not need.
func utf8Len(d []byte, i int) int {
	c := d[i]
	switch {
	case c < 0xC2:
		return 0
	case c < 0xE0:
		if i+1 < len(d) && d[i+1]&0xC0 == 0x80 {
			return 2
		}
	case c < 0xF0:
		if i+2 >= len(d) {
			return 0
		}
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
		if b := d[i+1]; b >= lo && b <= hi && d[i+2]&0xC0 == 0x80 {
			return 3
		}
	case c < 0xF5:
		if i+3 >= len(d) {
			return 0
		}
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
		if b := d[i+1]; b >= lo && b <= hi && d[i+2]&0xC0 == 0x80 && d[i+3]&0xC0 == 0x80 {
			return 4
		}
	}
	return 0
}

// escapeLen returns the length of the escape at d[i] (a backslash), 0 if it is invalid, and
// whether it is a \u escape in the surrogate range.
func escapeLen(d []byte, i int) (int, bool) {
	if i+1 >= len(d) {
		return 0, false
	}
	switch d[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, false
	case 'u':
		v, ok := Hex4(d, i+2)
		if !ok {
			return 0, false
		}
		return 6, v >= 0xD800 && v <= 0xDFFF
	}
	return 0, false
}

// Hex4 decodes the four hex digits at d[i:i+4].
func Hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var v rune
	for _, c := range d[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | rune(c)
	}
	return v, true
}

// quoteEscape shows the invalid escape at d[i] as written: the backslash and what follows it
// (up to the four characters of a \u escape), printable ASCII only.
func quoteEscape(d []byte, i int) string {
	end := i + 2
	if end < len(d) && d[i+1] == 'u' {
		end = i + 6
	}
	end = min(end, len(d))
	out := make([]byte, 0, end-i)
	for _, c := range d[i:end] {
		if c < 0x20 || c >= 0x7f || c == '"' {
			break
		}
		out = append(out, c)
	}
	return "'" + string(out) + "'"
}

// describeByte names the byte at d[i] for an error message.
func describeByte(d []byte, i int) string {
	if i >= len(d) {
		return "unexpected end of input"
	}
	c := d[i]
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("unexpected character '%c'", c)
	}
	if c >= utf8.RuneSelf {
		if r, n := utf8.DecodeRune(d[i:]); r != utf8.RuneError || n > 1 {
			if r == 0xFEFF {
				return "unexpected byte order mark U+FEFF (send UTF-8 without a BOM)"
			}
			return fmt.Sprintf("unexpected character %q (U+%04X)", r, r)
		}
		return fmt.Sprintf("invalid UTF-8 byte 0x%02X", c)
	}
	return fmt.Sprintf("unexpected byte 0x%02X", c)
}

// KeyName returns the text of the last member key, unescaped. It aliases the input unless the
// key holds escapes.
func (s *Scanner) KeyName() []byte {
	name, _ := s.UnescapedKey()
	return name
}

// UnescapedKey is KeyName and the key's flags. It inlines: nearly every key has no escape,
// and needs no call.
func (s *Scanner) UnescapedKey() ([]byte, StrFlags) {
	if s.keyFlags&Escaped == 0 {
		return s.keyText, s.keyFlags
	}
	return AppendUnescaped(nil, s.keyText), s.keyFlags
}

// StringText returns the text of the string token at sp (quotes included), unescaped. It aliases
// the input unless the string holds escapes.
func StringText(data []byte, sp Span) []byte {
	content := data[sp.Start+1 : sp.End-1]
	for _, c := range content {
		if c == '\\' {
			return AppendUnescaped(nil, content)
		}
	}
	return content
}

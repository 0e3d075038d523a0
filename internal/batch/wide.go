package batch

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// Input in UTF-16 or UTF-32 is not JSON text for the contract (UTF-8 only), and cut at "\n"
// bytes it falls apart: UTF-16LE writes a line feed as 0A 00, so every line after the first
// would start with the 00 of the one before and look like UTF-16BE, and a last line of that
// lone 00 would be one output line too many. So the reader looks at the first bytes of the
// input once, and when they show UTF-16 or UTF-32 it cuts the lines where that encoding ends
// one, the code unit U+000A (a U+000D before it belongs to the terminator, as "\r" does in
// "\r\n"): output line N answers the line N an editor shows. Every line that is not empty gets
// the same error, which names the input's encoding and how to convert it; nothing is decoded,
// since the contract repairs nothing.
//
// The decision holds for the whole stream, so a guess must never cost valid UTF-8 lines: a
// byte order mark decides at once, but NUL bytes around the first two characters only when
// the first 0A byte of the input, after those two, is that encoding's line feed too, a whole
// code unit on a code-unit boundary (0A 00 at an even offset for UTF-16LE, 00 0A at an odd one for UTF-16BE,
// 0A 00 00 00 and 00 00 00 0A for UTF-32), and the code unit after it, as far as it was read,
// starts a line with an ASCII character as the encoding writes one. Anything else is cut at
// "\n" as UTF-8 is. Valid UTF-8 JSON pays for a look at its first two bytes.
//
// The reader looks no further than it must, and never waits for bytes it does not need: until
// the first 0A byte arrives no line could be handed on anyway, so it reads on; once one is
// read it decides from what was read with it, and bytes still missing count as UTF-8 (a lone
// "\n" from a program that waits for its answer is answered at once).

// sniffWide reads the start of the input, as far as sniffing needs and no further, and returns
// the wide encoding it is in, or nil.
func sniffWide(br *bufio.Reader) (*jsonscan.Wide, error) {
	for n := 1; ; n = br.Buffered() + 1 {
		_, err := br.Peek(n)
		final := err != nil // the end of the input, or of the buffer: nothing more to look at
		if final && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
		d, _ := br.Peek(br.Buffered())
		if w, decided := decideWide(d, final); decided {
			return w, nil
		}
	}
}

// decideWide tells from d, the first bytes of a stream, whether it is in UTF-16 or UTF-32
// (a non-nil encoding) or cut as UTF-8 (nil). It reports false when more bytes are needed and
// may be read: final says no more will come, and once d holds a 0A byte none are waited for.
func decideWide(d []byte, final bool) (*jsonscan.Wide, bool) {
	lf := bytes.IndexByte(d, '\n')
	w, ok := jsonscan.DetectWide(d)
	more := lf < 0 && !final // more may be read without delaying the first line
	switch {
	case more && jsonscan.WideNeedsMore(d): // FF FE may be the start of UTF-32LE's mark
		return nil, false
	case ok && w.BOM():
		return &w, true
	case more && ok: // NUL bytes around the first two characters: wait for the first line feed
		return nil, false
	case ok && wideLineFeed(d, lf, w):
		return &w, true
	}
	return nil, true
}

// wideLineFeed reports whether the first 0A byte of d, at lf, is w's line feed: a whole code
// unit, its other bytes NUL, and the code unit after it (as far as d holds it) that of an
// ASCII character, as the next line starts. A big-endian line feed ends in its 0A byte, so
// there the NUL byte after it must have been read too: NUL bytes on both sides of the 0A, as
// in 0A 00 for little-endian. (A reader cannot tell the end of the input from a pause without
// waiting; cut at "\n", big-endian text keeps its lines anyway, each with a stray NUL byte at
// its end, and one line, whatever its encoding, is one line.)
func wideLineFeed(d []byte, lf int, w jsonscan.Wide) bool {
	unit, low := w.Unit(), 0
	if w.BigEndian() {
		low = w.Unit() - 1
	}
	start := lf - low
	// Two characters at least before it, those the NUL bytes were seen around: a stream that
	// starts with line feeds in NUL bytes is as likely broken UTF-8 as text (00 0A 00 0A), and
	// the lines after it may be valid.
	if lf < 0 || start%unit != 0 || start < 2*unit || start+unit > len(d) {
		return false
	}
	for i, c := range d[start : start+unit] {
		if i != low && c != 0 {
			return false
		}
	}
	next := d[start+unit : min(start+2*unit, len(d))]
	if w.BigEndian() && len(next) == 0 {
		return false
	}
	for i, c := range next {
		if i != low && c != 0 {
			return false
		}
	}
	return true
}

// wideError is the error object of every line of an input in UTF-16 or UTF-32 but the empty
// ones: it is about the whole line, so it points at its first byte. reason words the
// encoding (Options.WideReason).
func wideError(w *jsonscan.Wide, reason func(jsonscan.Wide) string) *normalize.InvalidJSONError {
	if reason == nil {
		reason = jsonscan.Wide.Reason
	}
	return &normalize.InvalidJSONError{Line: 1, Column: 1, Offset: 0, Reason: jsonscan.NotUTF8Line + reason(*w),
		Found: normalize.Found{Kind: normalize.FoundWide, Wide: *w}}
}

// wideReader reads the lines of an input in UTF-16 or UTF-32 into chunks. Their bytes are
// never looked at again (every line gets the same error), so none are kept: a line is read
// past, counting its bytes and noting whether it is empty, however long it is.
type wideReader struct {
	br     *bufio.Reader
	max    int64 // <= 0: no limit
	unit   int   // bytes per code unit
	lf, cr []byte
}

func newWideReader(br *bufio.Reader, w *jsonscan.Wide, max int64) *wideReader {
	wr := &wideReader{br: br, max: max, unit: w.Unit()}
	wr.lf, wr.cr = make([]byte, wr.unit), make([]byte, wr.unit)
	low := 0 // where the low byte of a code unit is
	if w.BigEndian() {
		low = wr.unit - 1
	}
	wr.lf[low], wr.cr[low] = '\n', '\r'
	return wr
}

// next adds the next line to c. It reports false at the end of the input. Bytes left over at
// the end that do not make a whole code unit belong to the last line.
func (wr *wideReader) next(c *chunk) (bool, error) {
	var (
		raw int64 // bytes of the line read so far, terminator included
		cr  bool  // the last code unit read was U+000D
	)
	for {
		if _, err := wr.br.Peek(wr.unit); err != nil { // less than a code unit is left
			if !errors.Is(err, io.EOF) {
				return false, err
			}
			rest := wr.br.Buffered()
			if raw == 0 && rest == 0 {
				return false, nil
			}
			raw += int64(rest)
			_, _ = wr.br.Discard(rest)
			addWideLine(c, raw, raw, wr.max)
			return true, nil
		}
		buf, _ := wr.br.Peek(wr.br.Buffered() / wr.unit * wr.unit)
		for i := 0; i < len(buf); i += wr.unit {
			u := buf[i : i+wr.unit]
			if bytes.Equal(u, wr.lf) {
				raw += int64(i + wr.unit)
				_, _ = wr.br.Discard(i + wr.unit)
				size := raw - int64(wr.unit)
				if cr {
					size -= int64(wr.unit)
				}
				addWideLine(c, raw, size, wr.max)
				return true, nil
			}
			cr = bytes.Equal(u, wr.cr)
		}
		raw += int64(len(buf))
		_, _ = wr.br.Discard(len(buf))
	}
}

// addWideLine records a line of a wide input, raw bytes read, size of them the line's own: no
// bytes are kept, so end-off says only whether the line is empty (0) or not (1).
func addWideLine(c *chunk, raw, size, max int64) {
	if max > 0 && size > max {
		c.lines = append(c.lines, line{tooLarge: size, raw: raw})
		return
	}
	c.lines = append(c.lines, line{end: int(min(size, 1)), raw: raw})
}

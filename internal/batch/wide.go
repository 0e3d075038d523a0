package batch

import (
	"bufio"
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
// since the contract repairs nothing. Valid input pays for one look at its first two bytes.

// sniffWide reads no more of the input than it must to tell UTF-8 from UTF-16 or UTF-32 (two
// bytes for any UTF-8 JSON text, at most eight) and returns the wide encoding it is in, or nil.
func sniffWide(br *bufio.Reader) (*jsonscan.Wide, error) {
	for n := 1; ; n++ {
		d, err := br.Peek(n)
		switch {
		case err != nil && !errors.Is(err, io.EOF):
			return nil, err
		case err == nil && jsonscan.WideNeedsMore(d):
			continue
		}
		if w, ok := jsonscan.DetectWide(d); ok {
			return &w, nil
		}
		return nil, nil
	}
}

// wideError is the error object of every line of an input in UTF-16 or UTF-32 but the empty
// ones: it is about the whole line, so it points at its first byte.
func wideError(w *jsonscan.Wide) *normalize.InvalidJSONError {
	return &normalize.InvalidJSONError{Line: 1, Column: 1, Offset: 0, Reason: w.LineReason()}
}

// wideReader reads the lines of an input in UTF-16 or UTF-32 into chunks, holding at most
// max bytes of any one line, as lineReader does for UTF-8.
type wideReader struct {
	br     *bufio.Reader
	max    int64 // <= 0: no limit
	unit   int   // bytes per code unit
	lf, cr string
}

func newWideReader(br *bufio.Reader, w *jsonscan.Wide, max int64) *wideReader {
	wr := &wideReader{br: br, max: max, unit: w.Unit()}
	lf, cr := make([]byte, wr.unit), make([]byte, wr.unit)
	low := 0 // where the low byte of a code unit is
	if w.BigEndian() {
		low = wr.unit - 1
	}
	lf[low], cr[low] = '\n', '\r'
	wr.lf, wr.cr = string(lf), string(cr)
	return wr
}

// next appends the next line to c. It reports false at the end of the input. Bytes left over
// at the end that do not make a whole code unit belong to the last line.
func (wr *wideReader) next(c *chunk) (bool, error) {
	start := len(c.in)
	var (
		raw     int64 // bytes of the line read so far, terminator included
		skipped bool  // the line went over the limit and is no longer kept
		cr      bool  // the last code unit read was U+000D
	)
	keep := func(b []byte) {
		if skipped {
			return
		}
		c.in = append(c.in, b...)
		// One code unit of slack: a U+000D that turns out to end the line does not count.
		if wr.max > 0 && int64(len(c.in)-start) > wr.max+int64(wr.unit) {
			c.in = c.in[:start]
			skipped = true
		}
	}
	for {
		if _, err := wr.br.Peek(wr.unit); err != nil { // less than a code unit is left
			if !errors.Is(err, io.EOF) {
				c.in = c.in[:start]
				return false, err
			}
			rest := wr.br.Buffered()
			if raw == 0 && rest == 0 {
				return false, nil
			}
			tail, _ := wr.br.Peek(rest)
			keep(tail)
			raw += int64(rest)
			_, _ = wr.br.Discard(rest)
			addLine(c, start, raw, raw, skipped, wr.max)
			return true, nil
		}
		buf, _ := wr.br.Peek(wr.br.Buffered() / wr.unit * wr.unit)
		for i := 0; i < len(buf); i += wr.unit {
			u := string(buf[i : i+wr.unit])
			if u == wr.lf {
				keep(buf[:i])
				raw += int64(i + wr.unit)
				_, _ = wr.br.Discard(i + wr.unit)
				size := raw - int64(wr.unit)
				if cr {
					size -= int64(wr.unit)
				}
				addLine(c, start, raw, size, skipped, wr.max)
				return true, nil
			}
			cr = u == wr.cr
		}
		keep(buf)
		raw += int64(len(buf))
		_, _ = wr.br.Discard(len(buf))
	}
}

package batch

import (
	"bufio"
	"errors"
	"io"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// chunk is a run of whole input lines and, once a worker has been at it, their outputs.
type chunk struct {
	seq   int64
	in    []byte // the lines' bytes, terminators removed, back to back
	lines []line
	out   []byte // one output line per input line, each ending in "\n"
	stats Stats
	// wide is the error of every line that is not empty when the input is in UTF-16 or
	// UTF-32 (wide.go); nil for UTF-8.
	wide *normalize.InvalidJSONError
}

// line is one input line: in[off:end], or, when tooLarge > 0, a line of that many bytes
// that was read past and not kept. In a chunk of a wide input (wide set) no line is kept:
// end-off is 0 for an empty line and 1 for any other (wide.go).
type line struct {
	off, end int
	tooLarge int64
	raw      int64 // bytes read for the line, terminator included
}

func (c *chunk) reset(seq int64) {
	c.seq = seq
	c.in = c.in[:0]
	c.lines = c.lines[:0]
	c.out = c.out[:0]
	c.stats = Stats{}
	c.wide = nil
}

// process normalizes every line of c into c.out and counts the outcomes in c.stats.
// A line over the limit is rejected here, as the Normalizer would reject it had it been read.
func (c *chunk) process(n *normalize.Normalizer, limit int64) {
	if c.wide != nil {
		c.processWide(n, limit)
		return
	}
	for _, l := range c.lines {
		c.stats.Lines++
		c.stats.BytesIn += l.raw
		start := len(c.out)
		var o Outcome
		if l.tooLarge > 0 {
			c.out, o = AppendError(c.out, &normalize.PayloadTooLargeError{Size: l.tooLarge, Limit: limit})
		} else {
			c.out, o = AppendLine(c.out, n, c.in[l.off:l.end])
		}
		c.stats.count(o)
		c.stats.BytesOut += int64(len(c.out) - start)
	}
}

// processWide is process for the lines of an input in UTF-16 or UTF-32: each gets c.wide,
// but an empty line gets what any empty line gets, and a line over the limit PayloadTooLarge.
func (c *chunk) processWide(n *normalize.Normalizer, limit int64) {
	for _, l := range c.lines {
		c.stats.Lines++
		c.stats.BytesIn += l.raw
		start := len(c.out)
		var o Outcome
		switch {
		case l.tooLarge > 0:
			c.out, o = AppendError(c.out, &normalize.PayloadTooLargeError{Size: l.tooLarge, Limit: limit})
		case l.end == l.off:
			c.out, o = AppendLine(c.out, n, nil)
		default:
			c.out, o = AppendError(c.out, c.wide)
		}
		c.stats.count(o)
		c.stats.BytesOut += int64(len(c.out) - start)
	}
}

// lineReader reads lines into chunks, holding at most max bytes of any one line.
type lineReader struct {
	br  *bufio.Reader
	max int64 // <= 0: no limit
}

// next appends the next line to c. It reports false at the end of the input.
func (lr *lineReader) next(c *chunk) (bool, error) {
	start := len(c.in)
	var (
		raw     int64 // bytes of the line read so far, terminator included
		skipped bool  // the line went over the limit and is no longer kept
		ended   bool  // a "\n" was read
		last    byte  // the last byte of the line before the "\n"
	)
	for {
		frag, err := lr.br.ReadSlice('\n')
		raw += int64(len(frag))
		if n := len(frag); n > 0 && frag[n-1] == '\n' {
			ended = true
			frag = frag[:n-1]
		}
		if len(frag) > 0 {
			last = frag[len(frag)-1]
		}
		if !skipped {
			c.in = append(c.in, frag...)
			// One byte of slack: a "\r" that turns out to be part of "\r\n" does not count.
			if lr.max > 0 && int64(len(c.in)-start) > lr.max+1 {
				c.in = c.in[:start]
				skipped = true
			}
		}
		switch {
		case err == nil || ended:
			lr.finish(c, start, raw, skipped, ended && last == '\r', ended)
			return true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if raw == 0 {
				return false, nil
			}
			lr.finish(c, start, raw, skipped, ended && last == '\r', ended)
			return true, nil
		default:
			c.in = c.in[:start]
			return false, err
		}
	}
}

// finish records the line just read, dropping a "\r" before the "\n" (crlf).
func (lr *lineReader) finish(c *chunk, start int, raw int64, skipped, crlf, ended bool) {
	size := raw
	if ended {
		size--
	}
	if crlf {
		size--
	}
	addLine(c, start, raw, size, skipped, lr.max)
}

// addLine records the line just read into c.in[start:]: raw bytes of input, size of them the
// line's own (its terminator dropped), over the limit max when skipped (and no longer kept)
// or when size says so.
func addLine(c *chunk, start int, raw, size int64, skipped bool, max int64) {
	if skipped {
		c.lines = append(c.lines, line{tooLarge: size, raw: raw})
		return
	}
	end := start + int(size)
	c.in = c.in[:end]
	if max > 0 && size > max {
		c.in = c.in[:start]
		c.lines = append(c.lines, line{tooLarge: size, raw: raw})
		return
	}
	c.lines = append(c.lines, line{off: start, end: end, raw: raw})
}

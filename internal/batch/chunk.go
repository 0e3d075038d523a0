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
}

// line is one input line: in[off:end], or, when tooLarge > 0, a line of that many bytes
// that was read past and not kept.
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
}

// process normalizes every line of c into c.out and counts the outcomes in c.stats.
// A line over the limit is rejected here, as the Normalizer would reject it had it been read.
func (c *chunk) process(n *normalize.Normalizer, limit int64) {
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
	if skipped {
		c.lines = append(c.lines, line{tooLarge: size, raw: raw})
		return
	}
	end := start + int(size)
	c.in = c.in[:end]
	if lr.max > 0 && size > lr.max {
		c.in = c.in[:start]
		c.lines = append(c.lines, line{tooLarge: size, raw: raw})
		return
	}
	c.lines = append(c.lines, line{off: start, end: end, raw: raw})
}

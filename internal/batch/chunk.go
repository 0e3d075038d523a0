package batch

import (
	"bytes"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// chunk is a run of whole input lines and, once a worker has been at it, their outputs.
type chunk struct {
	seq int64
	// in holds the lines of a UTF-8 input, each ending in "\n" but for the input's last
	// line, as they were read. The worker finds where each ends as it normalizes it
	// (NormalizeLine): the reader finds only the chunk's last "\n", since what it reads no
	// other goroutine can share, and every byte read there was read again by the worker.
	in       []byte
	borrowed bool // in is the caller's memory (RunBytes), not the chunk's buffer
	// tooLarge, when its raw is not 0, is a line after those of in that was over the limit
	// and read past without being kept.
	tooLarge line
	lines    []line // the lines of a wide input (wide set), which keeps no bytes
	out      []byte // one output line per input line, each ending in "\n"
	// outBuf is the buffer out was taken as, which out leaves when an append outgrows it
	outBuf []byte
	stats  Stats
	// wide is the error of every line that is not empty when the input is in UTF-16 or
	// UTF-32 (wide.go); nil for UTF-8.
	wide *normalize.InvalidJSONError
	err  error // the input could not be read (RunBytes: a fault); nothing is written
	// more is set while the worker waits for the writer to write the lines of the chunk it
	// has so far, maxChunkLines of them, before it goes on with the rest (flush); resume
	// tells it the writer has, or, false, that the run is over.
	more   bool
	resume chan bool
}

// line is a line of a wide input, or a line over the limit: when tooLarge > 0 a line of that
// many bytes that was read past and not kept; else, in a chunk of a wide input, end-off is 0
// for an empty line and 1 for any other (no bytes are kept, wide.go).
type line struct {
	off, end int
	tooLarge int64
	raw      int64 // bytes read for the line, terminator included
}

func (c *chunk) reset(seq int64) {
	c.seq = seq
	c.in, c.borrowed = nil, false
	c.tooLarge = line{}
	c.lines = c.lines[:0]
	c.out = nil
	c.stats = Stats{}
	c.wide = nil
	c.err = nil
}

// release gives the chunk's buffers back to bufs for the next chunks; memory that is not its
// own (RunBytes) is only let go.
func (c *chunk) release(bufs *buffers) {
	if !c.borrowed {
		bufs.put(c.in)
	}
	bufs.put(c.out)
	if c.outBuf != nil && !sameArray(c.out, c.outBuf) { // an append outgrew it
		bufs.drop(c.outBuf)
	}
	c.in, c.borrowed, c.out, c.outBuf = nil, false, nil, nil
}

// outBytes is the room a chunk's output is given at first: a record is about as long as its
// input line, a little longer with warnings, and an error object a hundred bytes or so.
func outBytes(in, lines int) int {
	return in + in/8 + 128*lines + 4096
}

// process normalizes every line of c into c.out and counts the outcomes in c.stats.
// A line over the limit is rejected here, as the Normalizer would reject it had it been read.
// After maxChunkLines lines, with more to go, it hands those written so far to flush, which
// returns once they are written, and goes on into the same buffer: the output of a chunk of
// many short lines (an error object for each empty one) stays a few hundred KB. When flush
// returns false the run is over and so is process.
func (c *chunk) process(n *normalize.Normalizer, limit int64, render Render, bufs *buffers, flush func(*chunk) bool) {
	c.out = bufs.get(outBytes(len(c.in), len(c.lines)))
	c.outBuf = c.out
	if c.wide != nil {
		c.processWide(n, limit, render)
		return
	}
	in := c.in
	for start, lines := 0, 0; start < len(in); lines++ {
		if lines == maxChunkLines {
			if !flush(c) {
				return
			}
			lines = 0
		}
		if render == nil {
			start = c.normalizeLine(n, limit, start)
			continue
		}
		end := len(in) // the last line of the input may have no terminator
		if i := bytes.IndexByte(in[start:], '\n'); i >= 0 {
			end = start + i
		}
		start = c.emitLine(n, limit, render, start, end)
	}
	if l := c.tooLarge; l.raw > 0 {
		c.emit(n, render, Line{Raw: l.raw, Size: l.tooLarge, Err: &normalize.PayloadTooLargeError{Size: l.tooLarge, Limit: limit}})
	}
}

// normalizeLine normalizes the line of c.in at start, which NormalizeLine finds as it reads it,
// into c.out, counts it, and returns where the next line starts. A line over the limit is not
// read past the limit, but for its end.
func (c *chunk) normalizeLine(n *normalize.Normalizer, limit int64, start int) int {
	rest := c.in[start:]
	window := rest
	if limit > 0 && int64(len(window)) > limit+2 { // room for the limit's bytes and "\r\n"
		window = window[:limit+2]
	}
	res, end, err := n.NormalizeLine(window)
	over := end == len(window) && len(window) < len(rest) // no "\n" in the window
	if over {
		res.Release()
		if i := bytes.IndexByte(rest[end:], '\n'); i >= 0 {
			end += i
		} else {
			end = len(rest)
		}
	}
	size, next := lineEnd(rest, end)
	if over || limit > 0 && int64(size) > limit {
		if !over {
			res.Release()
		}
		c.emit(n, nil, Line{Raw: int64(next), Size: int64(size), Err: &normalize.PayloadTooLargeError{Size: int64(size), Limit: limit}})
		return start + next
	}
	from := len(c.out)
	var o Outcome
	c.out, o = appendResult(c.out, res, err)
	c.counted(int64(next), from, o)
	return start + next
}

// lineEnd returns, for a line of in that ends at end (its "\n", or the end of in), the size of
// the line without its terminator and where the next line starts. A "\r" before the "\n" is
// part of the terminator, as the single-input command and Python's splitlines have it.
func lineEnd(in []byte, end int) (size, next int) {
	if end == len(in) {
		return end, end
	}
	if end > 0 && in[end-1] == '\r' {
		return end - 1, end + 1
	}
	return end, end + 1
}

// emitLine emits the line of c.in at start that ends at end (its "\n", or the end of c.in),
// and returns where the next line starts.
func (c *chunk) emitLine(n *normalize.Normalizer, limit int64, render Render, start, end int) int {
	size, next := lineEnd(c.in[start:], end-start)
	l := c.in[start : start+size]
	line := Line{Bytes: l, Raw: int64(next), Size: int64(size)}
	if limit > 0 && line.Size > limit {
		line.Bytes, line.Err = nil, &normalize.PayloadTooLargeError{Size: line.Size, Limit: limit}
	}
	c.emit(n, render, line)
	return start + next
}

// processWide is process for the lines of an input in UTF-16 or UTF-32: each gets c.wide,
// but an empty line gets what any empty line gets, and a line over the limit PayloadTooLarge.
// No bytes are kept: a line's Size is its Raw.
func (c *chunk) processWide(n *normalize.Normalizer, limit int64, render Render) {
	for _, l := range c.lines {
		line := Line{Raw: l.raw, Size: l.raw}
		switch {
		case l.tooLarge > 0:
			line.Size, line.Err = l.tooLarge, &normalize.PayloadTooLargeError{Size: l.tooLarge, Limit: limit}
		case l.end == l.off:
			line.Size = 0 // empty: normalized as any empty line is
		default:
			line.Err = c.wide
		}
		c.emit(n, render, line)
	}
}

// emit writes the output of one line, with render when it is set, and counts it.
func (c *chunk) emit(n *normalize.Normalizer, render Render, l Line) {
	start := len(c.out)
	var o Outcome
	switch {
	case render != nil:
		c.out, o = render(c.out, n, l)
	case l.Err != nil:
		c.out, o = AppendError(c.out, l.Err)
	default:
		c.out, o = AppendLine(c.out, n, l.Bytes)
	}
	c.counted(l.Raw, start, o)
}

// counted counts a line of raw input bytes whose output starts at from in c.out.
func (c *chunk) counted(raw int64, from int, o Outcome) {
	c.stats.Lines++
	c.stats.BytesIn += raw
	c.stats.count(o)
	c.stats.BytesOut += int64(len(c.out) - from)
}

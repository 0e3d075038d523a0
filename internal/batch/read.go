package batch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
)

// readBytes is the least room a read into a chunk is given: the chunk's buffer is the read
// buffer, so each input byte is copied once, by the reader, and only the start of the line
// after the chunk's last whole line is copied again, into the next chunk.
const readBytes = 256 << 10

// read cuts r into chunks and sends them to the workers, in order.
func (p *pipeline) read(ctx context.Context, r io.Reader) error {
	sticky := &stickyEOF{r: r}
	br := bufio.NewReaderSize(sticky, readBufferBytes)
	w, err := sniffWide(br)
	if err != nil {
		return err
	}
	if w != nil {
		p.wide, p.wideErr = w, wideError(w, p.opts.WideReason)
		return p.readWide(ctx, br, newWideReader(br, w, p.opts.MaxLineBytes))
	}
	_, inPlace := r.(inPlaceReader)
	sr := &streamReader{p: p, src: &drained{br: br, r: sticky}, max: p.opts.MaxLineBytes, inPlace: inPlace}
	return sr.run(ctx)
}

// drained reads what br holds, then from r directly, into the caller's buffer.
type drained struct {
	br *bufio.Reader
	r  io.Reader
}

func (d *drained) Read(b []byte) (int, error) {
	if d.br.Buffered() > 0 {
		return d.br.Read(b)
	}
	return d.r.Read(b)
}

// streamReader cuts a stream of UTF-8 lines into chunks. It reads into the chunk's own
// buffer; the chunk is sent once its whole lines make ChunkBytes, or once a
// read ends at the end of a line: a program that writes a line and waits for its answer gets
// it. Not sooner (a read that ends inside a line waits for the line's end): sending at every
// read that ends inside a line made chunks of a few lines where reads are small, as a pipe's
// are.
type streamReader struct {
	p   *pipeline
	src io.Reader
	max int64 // <= 0: no limit
	// inPlace: src reads with ReadInPlace, whose failed read may still write into the buffer
	inPlace bool
	seq     int64
	c       *chunk // the chunk being filled
	whole   int    // c.in[:whole] are whole lines, each ending in "\n" (c.ends)
}

func (r *streamReader) run(ctx context.Context) error {
	if err := r.next(ctx, nil); err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			r.p.put(r.c)
			return err
		}
		n, err := r.read()
		r.took(len(r.c.in)-n, n)
		if cerr := r.cut(ctx); cerr != nil {
			return cerr
		}
		// One byte of slack: a "\r" that turns out to be part of "\r\n" does not count.
		if err == nil && r.max > 0 && int64(len(r.c.in)-r.whole) > r.max+1 {
			if err = r.skip(ctx); err == nil || errors.Is(err, io.EOF) {
				if cerr := r.cut(ctx); cerr != nil {
					return cerr
				}
			}
		}
		switch {
		case err == nil:
		case errors.Is(err, io.EOF): // what is left is the last line, with no terminator
			if len(r.c.in) == 0 && r.c.tooLarge.raw == 0 {
				r.p.put(r.c)
				return nil
			}
			r.p.work <- r.c
			return nil
		default:
			if r.c != nil {
				if r.inPlace && stopped(err) { // an abandoned read may still write into it
					r.p.bufs.forget(r.c.in)
					r.c.in = nil
				}
				r.p.put(r.c)
			}
			return err
		}
	}
}

// read reads up to readBytes into the room after c.in, making some first. No more: the start
// of a line read past the chunk's end is copied into the next chunk, and a file's read fills
// all the room it is given.
func (r *streamReader) read() (int, error) {
	c := r.c
	if cap(c.in)-len(c.in) < readBytes/4 {
		c.in = r.p.bufs.grow(c.in, readBytes)
	}
	room := c.in[len(c.in):min(cap(c.in), len(c.in)+readBytes)]
	for range 100 {
		n, err := r.src.Read(room)
		if n > 0 || err != nil {
			c.in = c.in[:len(c.in)+n]
			return n, err
		}
	}
	return 0, io.ErrNoProgress
}

// took finds the last line ended in the n bytes just read into c.in at off: the lines before
// it the worker finds, as it normalizes them.
func (r *streamReader) took(off, n int) {
	if i := lastLineEnd(r.c.in[off : off+n]); i >= 0 {
		r.whole = off + i + 1
	}
}

// lastLineEnd is where the last "\n" of b is, or -1. It looks at b from its end a window at
// a time: bytes.LastIndexByte goes byte by byte, and the last "\n" can be megabytes back.
func lastLineEnd(b []byte) int {
	const window = 256
	for end := len(b); end > 0; {
		start := max(0, end-window)
		if bytes.IndexByte(b[start:end], '\n') >= 0 {
			return start + bytes.LastIndexByte(b[start:end], '\n')
		}
		end = start
	}
	return -1
}

// cut sends the chunk's whole lines when they are due, the start of the next line, if read,
// going into the next chunk.
func (r *streamReader) cut(ctx context.Context) error {
	for r.whole > 0 && (r.whole >= r.p.opts.ChunkBytes || r.whole == len(r.c.in)) {
		if err := r.send(ctx); err != nil {
			return err
		}
	}
	return nil
}

// send sends the chunk's whole lines and starts the next chunk with the rest.
func (r *streamReader) send(ctx context.Context) error {
	c := r.c
	end := r.whole
	if err := r.next(ctx, c.in[end:]); err != nil {
		r.p.put(c)
		return err
	}
	c.in = c.in[:end]
	r.p.work <- c
	return nil
}

// next takes a free chunk and starts it with rest, the start of its lines.
func (r *streamReader) next(ctx context.Context, rest []byte) error {
	c, err := r.p.get(ctx, r.seq)
	if err != nil {
		r.c = nil
		return err
	}
	r.seq++
	c.in = append(r.p.bufs.get(max(r.p.opts.ChunkBytes, len(rest))+readBytes), rest...)
	r.c, r.whole = c, 0
	r.took(0, len(rest))
	return nil
}

// skip reads past the line that starts at c.in[whole:], which is over the limit, without
// keeping it: the chunk ends with it, as a line of its size, and the next chunk starts with
// what follows it. It returns io.EOF when the input ends with the line.
func (r *streamReader) skip(ctx context.Context) error {
	c := r.c
	raw := int64(len(c.in) - r.whole)
	last := c.in[len(c.in)-1]
	c.in = c.in[:r.whole]
	buf := c.in[r.whole:cap(c.in)] // the room after the lines, for reads that are dropped
	for {
		n, err := r.src.Read(buf)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			raw += int64(i + 1)
			size := raw - 1
			if i > 0 {
				last = buf[i-1]
			}
			if last == '\r' {
				size--
			}
			c.tooLarge = line{tooLarge: size, raw: raw}
			if serr := r.next(ctx, buf[i+1:n]); serr != nil {
				r.p.put(c)
				return serr
			}
			r.p.work <- c
			return err
		}
		raw += int64(n)
		if n > 0 {
			last = buf[n-1]
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				c.tooLarge = line{tooLarge: raw, raw: raw}
			}
			return err
		}
	}
}

// readWide sends the lines of an input in UTF-16 or UTF-32 in chunks, which hold no bytes.
func (p *pipeline) readWide(ctx context.Context, br *bufio.Reader, wr *wideReader) error {
	var seq int64
	c, err := p.get(ctx, seq)
	if err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			p.put(c)
			return err
		}
		more, err := wr.next(c)
		if err != nil {
			p.put(c)
			return err
		}
		if !more {
			break
		}
		// Sent once nothing is buffered, as streamReader sends UTF-8 lines.
		if len(c.lines) >= maxChunkLines || br.Buffered() == 0 {
			p.work <- c
			seq++
			if c, err = p.get(ctx, seq); err != nil {
				return err
			}
		}
	}
	if len(c.lines) == 0 {
		p.put(c)
		return nil
	}
	p.work <- c
	return nil
}

// readBytes cuts data into chunks of whole lines and sends them to the workers, in order; the
// chunks refer to data, which is not copied.
func (p *pipeline) readBytes(ctx context.Context, data []byte) error {
	// What sniffWide decides from a reader of data: it reads up to readBufferBytes at once.
	if w, _ := decideWide(data[:min(len(data), readBufferBytes)], true); w != nil {
		return p.read(ctx, bytes.NewReader(data)) // wide lines are never held
	}
	var seq int64
	size := p.opts.ChunkBytes
	for start := 0; start < len(data); seq++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		c, err := p.get(ctx, seq)
		if err != nil {
			return err
		}
		end := chunkEnd(data, start, size)
		c.in, c.borrowed = data[start:end], true
		p.work <- c
		size = grownChunk(size, end-start-size, p.opts.ChunkBytes)
		start = end
	}
	return nil
}

// grownChunk is the size of readBytes's next chunk after one of size that ended past bytes
// past its size. A line that went far past it was read through by the reader, alone, to find
// its end, and is read again by its worker: chunks grow, never shrink, up to maxChunkGrowth
// times the configured size, so that fewer of their ends fall inside such lines. The bound
// keeps a chunk's output buffer near the cache, which the worker writes while it is warm.
func grownChunk(size, past, configured int) int {
	if past > size/2 {
		size = min(max(size, 2*past), maxChunkGrowth*configured)
	}
	return size
}

// maxChunkGrowth bounds how much larger than ChunkBytes readBytes makes chunks.
const maxChunkGrowth = 4

// chunkEnd is where the chunk of data that starts at start ends: after the first "\n" at or
// past start+size, or at the end of data. Only that much of data is read here, by the one
// reader; the chunk's lines are found by the worker that normalizes them.
func chunkEnd(data []byte, start, size int) int {
	if size >= len(data)-start {
		return len(data)
	}
	i := bytes.IndexByte(data[start+size:], '\n')
	if i < 0 {
		return len(data)
	}
	return start + size + i + 1
}

// errFault is the error of a fault while reading a mapped input.
var errFault = errors.New("the input file changed while it was read (cut short?)")

// recoverFault turns a memory fault in the calling goroutine, which must have called
// debug.SetPanicOnFault(true), into errFault in *err.
func recoverFault(err *error) {
	if v := recover(); v != nil {
		if _, ok := v.(interface{ Addr() uintptr }); !ok {
			panic(v)
		}
		*err = errFault
	}
}

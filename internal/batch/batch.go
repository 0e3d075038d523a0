// Package batch normalizes a stream of JSON lines, one raw handler result per line, on every
// core, and writes one output line per input line in input order.
//
// # Pipeline
//
// One reader cuts the input into chunks of whole lines (about 256 KiB each), workers
// normalize whole chunks with one shared Normalizer, and one writer puts the chunks' outputs
// back in input order. The number of chunks in flight is bounded, and chunk buffers are
// reused, so memory stays flat however long the input is: it holds at most a few chunks and,
// per chunk, one line of at most MaxLineBytes.
//
// # Lines
//
// A line ends at "\n"; a "\r" before it is part of the terminator, so CRLF files work. The
// last line needs no terminator. Every line, empty ones included, gives exactly one output
// line, so output line N always answers input line N: an empty or blank line is an
// InvalidJSON error object. A line longer than MaxLineBytes is read past without being held
// in memory and becomes a PayloadTooLarge error object that gives its exact size.
//
// Input whose first bytes show UTF-16 or UTF-32 (a byte order mark, or NUL bytes around its
// first two characters and its first 0A byte that encoding's line feed) is not cut at "\n"
// bytes, which in those encodings fall inside characters: its lines end where the encoding ends a line, and every line that is not empty
// is an InvalidJSON error object naming the input's encoding (wide.go).
package batch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// Options configure Run. The zero value is usable: GOMAXPROCS workers, no line limit beyond
// the Normalizer's own.
type Options struct {
	// Workers is the number of goroutines normalizing chunks; <= 0 means GOMAXPROCS.
	Workers int
	// MaxLineBytes is the longest line, without its terminator, that is read into memory;
	// a longer line becomes a PayloadTooLarge error object. <= 0 means no limit. Give the
	// Normalizer the same limit so that a line is judged the same way in both places.
	MaxLineBytes int64
	// ChunkBytes is the size at which the reader hands a chunk to the workers; <= 0 means
	// DefaultChunkBytes.
	ChunkBytes int
	// Progress, if set, is called by the writer after each chunk is written with the totals
	// so far. It must be quick: it runs on the output path.
	Progress func(Stats)
	// WideReason words the reason of the error each line of an input in UTF-16 or UTF-32
	// gets, after jsonscan.NotUTF8Line; nil means jsonscan's Wide.Reason, which says what the
	// bytes are and names no program. The command line passes porting.WideReason.
	WideReason func(jsonscan.Wide) string
}

// DefaultChunkBytes is the size of a chunk of input lines handed to one worker at a time:
// big enough that the hand-off costs little per line, small enough to spread work evenly.
const DefaultChunkBytes = 256 << 10

// maxChunkLines bounds a chunk of many short (or empty) lines.
const maxChunkLines = 8192

// readBufferBytes is the bufio.Reader size. When the reader has nothing buffered it hands
// over the chunk it holds before it reads again, so a slow pipe sees its lines promptly.
const readBufferBytes = 1 << 20

// Run reads lines from r until EOF, normalizes each with n and writes the outputs to w, each
// followed by "\n". It returns the totals and the first read or write error; rejected lines
// are not errors. When ctx is cancelled it stops reading and returns ctx.Err() after writing
// what was already read.
func Run(ctx context.Context, r io.Reader, w io.Writer, n *normalize.Normalizer, opts Options) (Stats, error) {
	p := newPipeline(n, opts)
	return p.run(ctx, r, w)
}

type pipeline struct {
	n        *normalize.Normalizer
	opts     Options
	wide     *jsonscan.Wide              // the input's encoding when it is UTF-16 or UTF-32, set by the reader before its first chunk
	wideErr  *normalize.InvalidJSONError // the error of each of its lines
	pool     sync.Pool
	work     chan *chunk
	done     chan *chunk
	inflight chan struct{} // a token per chunk between reader and writer
}

func newPipeline(n *normalize.Normalizer, opts Options) *pipeline {
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.ChunkBytes <= 0 {
		opts.ChunkBytes = DefaultChunkBytes
	}
	p := &pipeline{
		n:        n,
		opts:     opts,
		work:     make(chan *chunk, opts.Workers),
		done:     make(chan *chunk, opts.Workers),
		inflight: make(chan struct{}, 2*opts.Workers+2),
	}
	p.pool.New = func() any { return new(chunk) }
	return p
}

func (p *pipeline) run(ctx context.Context, r io.Reader, w io.Writer) (Stats, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var workers sync.WaitGroup
	for range p.opts.Workers {
		workers.Go(func() {
			for c := range p.work {
				c.process(p.n, p.opts.MaxLineBytes)
				p.done <- c
			}
		})
	}
	readErr := make(chan error, 1)
	go func() {
		readErr <- p.read(ctx, r)
		close(p.work)
		workers.Wait()
		close(p.done)
	}()

	stats, writeErr := p.write(w)
	if writeErr != nil {
		cancel()                // stop the reader
		for c := range p.done { // let the workers finish and the reader see the cancel
			p.release(c)
		}
	}
	err := <-readErr
	stats.NotUTF8 = p.wide // the reader is done with it
	switch {
	case writeErr != nil:
		return stats, fmt.Errorf("write output: %w", writeErr)
	case err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		return stats, err
	case err != nil:
		return stats, fmt.Errorf("read input: %w", err)
	}
	return stats, nil
}

// read cuts r into chunks and sends them to the workers, in order.
func (p *pipeline) read(ctx context.Context, r io.Reader) error {
	br := bufio.NewReaderSize(&stickyEOF{r: r}, readBufferBytes)
	next, err := p.lineSource(br)
	if err != nil {
		return err
	}
	var seq int64
	c := p.get(seq)
	send := func() bool {
		select {
		case p.inflight <- struct{}{}:
		case <-ctx.Done():
			return false
		}
		p.work <- c
		seq++
		c = p.get(seq)
		return true
	}
	for {
		if err := ctx.Err(); err != nil {
			p.release(c)
			return err
		}
		more, err := next(c)
		if err != nil {
			p.release(c)
			return err
		}
		if !more {
			break
		}
		// Sent once nothing is buffered: a program that writes a line and waits for its answer
		// gets it. Not sooner (a line with part of the next behind it waits for the next's end):
		// sending at every read that ends inside a line made chunks of a few lines where reads
		// are small (4 KiB: 30% slower).
		if len(c.in) >= p.opts.ChunkBytes || len(c.lines) >= maxChunkLines || br.Buffered() == 0 {
			if !send() {
				p.release(c)
				return ctx.Err()
			}
		}
	}
	if len(c.lines) == 0 {
		p.release(c)
		return nil
	}
	if !send() {
		p.release(c)
		return ctx.Err()
	}
	return nil
}

// write puts finished chunks back in input order and writes them out.
func (p *pipeline) write(w io.Writer) (Stats, error) {
	var (
		stats   Stats
		next    int64
		pending = map[int64]*chunk{}
	)
	for c := range p.done {
		pending[c.seq] = c
		for {
			c, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			_, err := w.Write(c.out)
			stats.add(&c.stats)
			p.release(c)
			<-p.inflight
			if err != nil {
				for _, c := range pending {
					p.release(c)
				}
				return stats, err
			}
			if p.opts.Progress != nil {
				p.opts.Progress(stats)
			}
		}
	}
	return stats, nil
}

// lineSource picks how the input is cut into lines, from its first bytes: at "\n" for UTF-8,
// at the code unit U+000A for UTF-16 and UTF-32 (wide.go).
func (p *pipeline) lineSource(br *bufio.Reader) (func(*chunk) (bool, error), error) {
	w, err := sniffWide(br)
	if err != nil || w == nil {
		lr := &lineReader{br: br, max: p.opts.MaxLineBytes}
		return lr.next, err
	}
	p.wide, p.wideErr = w, wideError(w, p.opts.WideReason)
	return newWideReader(br, w, p.opts.MaxLineBytes).next, nil
}

func (p *pipeline) get(seq int64) *chunk {
	c := p.pool.Get().(*chunk)
	c.reset(seq)
	c.wide = p.wideErr
	return c
}

// stickyEOF keeps answering io.EOF once r has: the first bytes are peeked at before the lines
// are read, and a terminal would otherwise be read again after its Ctrl-D.
type stickyEOF struct {
	r   io.Reader
	eof bool
}

func (s *stickyEOF) Read(b []byte) (int, error) {
	if s.eof {
		return 0, io.EOF
	}
	n, err := s.r.Read(b)
	s.eof = err == io.EOF
	return n, err
}

// maxPooledBytes keeps a chunk that once held a huge line from pinning its buffers.
const maxPooledBytes = 4 << 20

func (p *pipeline) release(c *chunk) {
	if cap(c.in) > maxPooledBytes || cap(c.out) > maxPooledBytes {
		return
	}
	p.pool.Put(c)
}

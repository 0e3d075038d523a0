// Package batch normalizes a stream of JSON lines, one raw handler result per line, on every
// core, and writes one output line per input line in input order.
//
// # Pipeline
//
// One reader cuts the input into chunks of whole lines (about 1 MiB each), workers cut the
// chunks into lines and normalize them with one shared Normalizer, and one writer puts the
// chunks' outputs back in input order. The chunks are made once per run, one per worker and
// two more (one more for an input in memory), and their buffers, input and output, come from
// one store shared by the chunks and go back to it once written (buffers.go), and the store
// to the next run once this one is over (a file's runs and a stream's apart, since they need
// buffers of different kinds):
// memory that is new to the process costs a page fault per page, the most costly part of a
// run when buffers were new each time, so memory stays flat however long the input is, two
// buffers per chunk at most, each as large as the longest lines seen. The reader reads into
// a chunk's buffer, so each byte is copied once (a ctxio.Reader's and ctxio.Writer's own
// copies are skipped: ReadInPlace, WriteInPlace);
// RunBytes reads an input already in memory, such as a mapped file (MapFile), with no copy.
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
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
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
	// Render, if set, writes each line's output in place of the record or error object
	// AppendLine and AppendError write: an index of the input (package viewer) writes a
	// summary of each line, with its place in the input, instead of the record.
	Render Render
}

// Render appends the output of line l, normalized with n unless l.Err already rejects it,
// and says what became of it. It runs on the workers, many at once; the writer writes what
// it appended in input order, as it writes records.
type Render func(dst []byte, n *normalize.Normalizer, l Line) ([]byte, Outcome)

// Line is one input line as a Render sees it.
type Line struct {
	// Bytes is the line without its terminator ("\n" or "\r\n"), valid only during the
	// call; empty when the line was not kept (Err is set).
	Bytes []byte
	// Raw is the bytes the line took in the input, terminator included: a line's offset in
	// the input is the sum of Raw over the lines before it.
	Raw int64
	// Size is the line's length without its terminator: len(Bytes), or for a line over the
	// limit its size. A line of an input in UTF-16 or UTF-32, whose bytes are not kept, has
	// its Raw as its Size, or 0 when empty.
	Size int64
	// Err is the rejection the pipeline gave the line without normalizing it: a
	// PayloadTooLargeError for a line over MaxLineBytes, an InvalidJSONError for a line of an
	// input in UTF-16 or UTF-32.
	Err error
}

// DefaultChunkBytes is the size of a chunk of input lines handed to one worker at a time:
// big enough that the hand-off costs little per line, small enough to spread work evenly.
// Each chunk costs the reader, a worker and the writer a wake-up each, which at a quarter of
// this size took a good part of -j 1's time, and -j 2 gained nothing from smaller chunks.
const DefaultChunkBytes = 1 << 20

// maxChunkLines bounds the lines whose output a chunk holds at once: a chunk of more, short or
// empty lines (an error object each), is written in parts (chunk.process).
const maxChunkLines = 8192

// readBufferBytes is the bufio.Reader size: the first bytes are read into it to tell UTF-16
// and UTF-32 from UTF-8 (wide.go), and a wide input is read through it. UTF-8 lines are read
// into the chunks' own buffers (read.go).
const readBufferBytes = 1 << 20

// Run reads lines from r until EOF, normalizes each with n and writes the outputs to w, each
// followed by "\n". It returns the totals and the first read or write error; rejected lines
// are not errors. When ctx is cancelled it stops reading and returns ctx.Err() after writing
// what was already read.
func Run(ctx context.Context, r io.Reader, w io.Writer, n *normalize.Normalizer, opts Options) (Stats, error) {
	bufs := streamStores.Get().(*buffers)
	defer streamStores.Put(bufs)
	p := newPipeline(n, opts, bufs, streamSpare)
	return p.run(ctx, func(ctx context.Context) error { return p.read(ctx, r) }, w)
}

// RunBytes is Run for an input that is all in memory, such as a mapped file (MapFile): its
// lines are normalized where they lie, with no copy. A fault while reading data (a mapped file
// cut short meanwhile) ends the run with an error, as a read error would.
func RunBytes(ctx context.Context, data []byte, w io.Writer, n *normalize.Normalizer, opts Options) (Stats, error) {
	bufs := bytesStores.Get().(*buffers)
	defer bytesStores.Put(bufs)
	p := newPipeline(n, opts, bufs, memorySpare)
	p.mapped = true
	return p.run(ctx, func(ctx context.Context) error { return p.readBytes(ctx, data) }, w)
}

type pipeline struct {
	n       *normalize.Normalizer
	opts    Options
	wide    *jsonscan.Wide              // the input's encoding when it is UTF-16 or UTF-32, set by the reader before its first chunk
	wideErr *normalize.InvalidJSONError // the error of each of its lines
	mapped  bool                        // RunBytes: faults reading the input are errors
	chunks  []*chunk                    // every chunk of the run, made once
	bufs    *buffers                    // the chunks' buffers, reused
	free    chan *chunk                 // chunks neither being filled nor in flight
	work    chan *chunk
	done    chan *chunk
}

// streamStores and bytesStores keep the buffers of finished runs for the next ones: a caller
// that runs batch after batch in one process (a corpus of files) would otherwise fault its
// buffers' pages in anew each run, which costs more than normalizing them. A store goes back
// once its run is over, every goroutine of it stopped; the pool lets go of it if no run takes
// it within two collections. Run and RunBytes keep theirs apart: a stream's store, with its
// input buffers, would give a file's run after it more buffers than it uses, and colder ones.
var (
	streamStores = sync.Pool{New: func() any { return new(buffers) }}
	bytesStores  = sync.Pool{New: func() any { return new(buffers) }}
)

// The chunks a run has besides one per worker. A stream's run has one the reader fills and
// one the writer writes: fewer would leave a worker waiting on the reader's reads. An input in
// memory (RunBytes) has only the one the writer writes: the reader hands a chunk over as soon
// as one is free, with no read, and every chunk more is one more output buffer that the
// workers' writes cycle through, out of the cache, its pages new to the process: with two
// workers a run over 150 MB of the corpus mix took 5,000 page faults with two spare chunks,
// 4,000 with one.
const (
	streamSpare = 2
	memorySpare = 1
)

func newPipeline(n *normalize.Normalizer, opts Options, bufs *buffers, spare int) *pipeline {
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.ChunkBytes <= 0 {
		opts.ChunkBytes = DefaultChunkBytes
	}
	// The count bounds the run's memory: two buffers per chunk at most.
	count := opts.Workers + spare
	p := &pipeline{
		n:    n,
		opts: opts,
		bufs: bufs,
		free: make(chan *chunk, count),
		work: make(chan *chunk, opts.Workers),
		done: make(chan *chunk, count),
	}
	for range count {
		c := &chunk{resume: make(chan bool, 1)}
		p.chunks = append(p.chunks, c)
		p.free <- c
	}
	return p
}

// run reads with read, which sends chunks to p.work in order, normalizes them on the workers
// and writes them to w in order.
func (p *pipeline) run(ctx context.Context, read func(ctx context.Context) error, w io.Writer) (Stats, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var workers sync.WaitGroup
	for range p.opts.Workers {
		workers.Go(func() {
			// RunBytes: a mapped file cut short is an error, not a crash. Only there: any
			// other fault is a bug, and must crash as one.
			debug.SetPanicOnFault(p.mapped)
			for c := range p.work {
				p.process(c)
				p.done <- c
			}
		})
	}
	readErr := make(chan error, 1)
	go func() {
		readErr <- p.guarded(ctx, read)
		close(p.work)
		workers.Wait()
		close(p.done)
	}()

	stats, writeErr := p.write(w)
	var inputErr error
	if errors.As(writeErr, new(*chunkError)) {
		inputErr, writeErr = writeErr, nil
		cancel()
	}
	if writeErr != nil || inputErr != nil {
		cancel()                // stop the reader
		for c := range p.done { // let the workers finish and the reader see the cancel
			p.drop(c)
		}
	}
	err := <-readErr
	if inputErr != nil {
		err = inputErr
	}
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

// write puts finished chunks back in input order and writes them out.
func (p *pipeline) write(w io.Writer) (Stats, error) {
	var (
		stats   Stats
		next    int64
		pending = map[int64]*chunk{}
	)
	write := w.Write
	ip, inPlace := w.(inPlaceWriter)
	if inPlace {
		write = ip.WriteInPlace
	}
	for c := range p.done {
		pending[c.seq] = c
		for {
			c, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if !c.more { // else the worker goes on with the chunk's lines, under the same seq
				next++
			}
			var err error
			if c.err != nil {
				err = &chunkError{c.err}
			} else {
				_, err = write(c.out)
				stats.add(&c.stats)
			}
			if err != nil {
				if c.err == nil && inPlace && stopped(err) { // an abandoned write may still read it
					p.bufs.forget(c.out)
					c.out = nil
				}
				p.drop(c)
				for _, c := range pending {
					p.drop(c)
				}
				return stats, err
			}
			if c.more {
				c.resume <- true
			} else {
				p.put(c)
			}
			if p.opts.Progress != nil {
				p.opts.Progress(stats)
			}
		}
	}
	return stats, nil
}

// drop lets go of a chunk that will not be written: its worker, if it waits to go on with
// it, stops and sends it back to be put.
func (p *pipeline) drop(c *chunk) {
	if c.more {
		c.resume <- false
		return
	}
	p.put(c)
}

// flush hands the writer the lines c holds so far and waits until they are written; false
// when the run is over instead. c goes on with the rest of its lines into the same buffer.
func (p *pipeline) flush(c *chunk) bool {
	c.more = true
	p.done <- c
	ok := <-c.resume
	c.more = false
	if ok {
		c.out, c.stats = c.out[:0], Stats{}
	}
	return ok
}

// process normalizes c on a worker; a fault reading the input becomes c.err.
func (p *pipeline) process(c *chunk) {
	defer recoverFault(&c.err)
	c.process(p.n, p.opts.MaxLineBytes, p.opts.Render, p.bufs, p.flush)
}

// guarded runs read with faults reading the input turned into errors.
func (p *pipeline) guarded(ctx context.Context, read func(context.Context) error) (err error) {
	debug.SetPanicOnFault(p.mapped)
	defer recoverFault(&err)
	return read(ctx)
}

// chunkError is the error of a chunk whose input could not be read.
type chunkError struct{ err error }

func (e *chunkError) Error() string { return e.err.Error() }
func (e *chunkError) Unwrap() error { return e.err }

// get takes a free chunk for the reader to fill, waiting while every chunk is in flight.
func (p *pipeline) get(ctx context.Context, seq int64) (*chunk, error) {
	select {
	case c := <-p.free:
		c.reset(seq)
		c.wide = p.wideErr
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// put gives a chunk back once its output is written (or dropped), and its buffers.
func (p *pipeline) put(c *chunk) {
	c.release(p.bufs)
	p.free <- c
}

// inPlaceWriter writes from the caller's buffer itself, with no copy; when it has failed with
// a context's error (stopped), the write it abandoned may still read that buffer, which is
// then never changed again (ctxio.Writer).
type inPlaceWriter interface {
	WriteInPlace(p []byte) (int, error)
}

// inPlaceReader reads into the caller's buffer itself, with no copy; when it has failed with
// a context's error (stopped), the read it abandoned may still write into that buffer, which
// is then never used again (ctxio.Reader).
type inPlaceReader interface {
	ReadInPlace(p []byte) (int, error)
}

// stopped says err is a context's: the error of an in-place read or write that ctxio
// abandoned, or did not start, once the context was done.
func stopped(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
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
	var n int
	var err error
	if ip, ok := s.r.(inPlaceReader); ok {
		n, err = ip.ReadInPlace(b)
	} else {
		n, err = s.r.Read(b)
	}
	s.eof = err == io.EOF
	return n, err
}

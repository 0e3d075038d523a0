// Package ctxio gives reads, writes and opens that end when a context is done, even while the
// system call under them blocks: a read from a terminal, a pipe or a FIFO whose writer never
// writes, a write into a pipe that nobody reads, the open of a FIFO that no writer opens.
//
// Such a call cannot be cancelled from Go: an *os.File is interrupted (a deadline, Close) only
// through the runtime's poller, for a descriptor in non-blocking mode, and setting that mode
// on standard input sets it for every process that shares the terminal or the pipe, the shell
// included. So the call runs in a goroutine of its own, and when the context is done first the
// call is abandoned: its goroutine stays blocked until the call returns or the process exits,
// and the Reader or Writer answers the context's error from then on. That suits a command that
// exits once interrupted; a long-running process would keep one goroutine per abandoned call.
// The data passes through a buffer the goroutine owns, so an abandoned call never touches the
// caller's slices; ReadInPlace and WriteInPlace skip that copy for a caller that gives its
// buffer up when a call is abandoned (the batch pipeline drops the chunk buffer it read into
// or wrote from).
//
// A regular file is read and written in the caller's goroutine, the context checked before
// each call: its calls do not wait for another program.
package ctxio

import (
	"context"
	"io"
	"os"
)

// Reader reads from r until the context is done. Once it is, Read returns the context's error
// (context.Canceled or context.DeadlineExceeded, errors.Is tells) and reads no more.
type Reader struct {
	ctx  context.Context
	r    io.Reader
	fast bool // r is a regular file: read it directly
	buf  []byte
	done chan result
	err  error // the context's error, once it was seen
}

type result struct {
	n   int
	err error
}

// NewReader returns a Reader of r that ends when ctx is done.
func NewReader(ctx context.Context, r io.Reader) *Reader {
	return &Reader{ctx: ctx, r: r, fast: isRegular(r), done: make(chan result, 1)}
}

// Read reads from the underlying reader into p, or returns the context's error once the
// context is done, before or while the underlying read blocks.
func (r *Reader) Read(p []byte) (int, error) {
	if err := r.stopped(); err != nil {
		return 0, err
	}
	if r.fast || len(p) == 0 {
		return r.r.Read(p)
	}
	if cap(r.buf) < len(p) {
		r.buf = make([]byte, max(len(p), 2*cap(r.buf))) // grown a few times, not for every larger p
	}
	buf := r.buf[:len(p)]
	n, abandoned, err := r.await(buf)
	if abandoned {
		r.buf = nil // the abandoned read owns it
		return 0, r.stopped()
	}
	return copy(p, buf[:n]), err
}

// ReadInPlace is Read straight into p, without the copy through the Reader's own buffer, for
// a caller that can give p up: when the context is done before the read returns, the
// abandoned read may still write into p later, so once ReadInPlace has returned the context's
// error the caller must never use p (its array, not only those bytes) again.
func (r *Reader) ReadInPlace(p []byte) (int, error) {
	if err := r.stopped(); err != nil {
		return 0, err
	}
	if r.fast || len(p) == 0 {
		return r.r.Read(p)
	}
	n, abandoned, err := r.await(p)
	if abandoned {
		return 0, r.stopped()
	}
	return n, err
}

// await reads into buf in a goroutine and waits for it or the context; abandoned says the
// context was done first, and the read still owns buf.
func (r *Reader) await(buf []byte) (n int, abandoned bool, err error) {
	go func() {
		n, err := r.r.Read(buf)
		r.done <- result{n, err}
	}()
	select {
	case res := <-r.done:
		return res.n, false, res.err
	case <-r.ctx.Done():
		return 0, true, nil
	}
}

// File is the regular file r reads directly, or nil when r reads something else (a pipe, a
// terminal) in the background.
func (r *Reader) File() *os.File {
	if f, ok := r.r.(*os.File); ok && r.fast {
		return f
	}
	return nil
}

// Source is the reader r reads from.
func (r *Reader) Source() io.Reader { return r.r }

func (r *Reader) stopped() error {
	if r.err == nil {
		r.err = r.ctx.Err()
	}
	return r.err
}

// Writer writes to w until the context is done. Once it is, Write returns the context's error
// and writes no more; a write abandoned while it blocked may have written part of its bytes.
type Writer struct {
	ctx  context.Context
	w    io.Writer
	fast bool // w is a regular file: write it directly
	buf  []byte
	done chan result
	err  error
}

// NewWriter returns a Writer to w that ends when ctx is done.
func NewWriter(ctx context.Context, w io.Writer) *Writer {
	return &Writer{ctx: ctx, w: w, fast: isRegular(w), done: make(chan result, 1)}
}

// Write writes p to the underlying writer, or returns the context's error once the context is
// done, before or while the underlying write blocks.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err == nil {
		w.err = w.ctx.Err()
	}
	if w.err != nil {
		return 0, w.err
	}
	if w.fast || len(p) == 0 {
		return w.w.Write(p)
	}
	w.buf = append(w.buf[:0], p...)
	n, abandoned, err := w.await(w.buf)
	if abandoned {
		w.buf = nil // the abandoned write owns it
	}
	return n, err
}

// WriteInPlace is Write straight from p, without the copy into the Writer's own buffer, for a
// caller that can give p up: when the context is done before the write returns, the abandoned
// write may still read p later, so once WriteInPlace has returned the context's error the
// caller must never change p (its array, not only those bytes) again.
func (w *Writer) WriteInPlace(p []byte) (int, error) {
	if w.err == nil {
		w.err = w.ctx.Err()
	}
	if w.err != nil {
		return 0, w.err
	}
	if w.fast || len(p) == 0 {
		return w.w.Write(p)
	}
	n, _, err := w.await(p)
	return n, err
}

// await writes buf in a goroutine and waits for it or the context; when the context is done
// first it answers the context's error, and abandoned says the write still reads buf.
func (w *Writer) await(buf []byte) (n int, abandoned bool, err error) {
	go func() {
		n, err := w.w.Write(buf)
		w.done <- result{n, err}
	}()
	select {
	case res := <-w.done:
		return res.n, false, res.err
	case <-w.ctx.Done():
		w.err = w.ctx.Err()
		return 0, true, w.err
	}
}

// Open opens the named file for reading, as os.Open does, or returns the context's error once
// the context is done while the open blocks (a FIFO's open waits for a writer). A file that
// the abandoned open opens later is closed.
func Open(ctx context.Context, name string) (*os.File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := osOpen(name)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// osOpen is os.Open; a test sees through it when the open has started.
var osOpen = os.Open

// isRegular reports whether v is an *os.File open on a regular file.
func isRegular(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode().IsRegular()
}

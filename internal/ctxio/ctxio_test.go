package ctxio

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// backstop bounds every wait: only a call that does not end on its context reaches it.
const backstop = 30 * time.Second

// entered tells when the call it wraps has been made: the next step blocks.
type entered struct {
	r  io.Reader
	w  io.Writer
	in chan struct{}
}

func newEntered() *entered { return &entered{in: make(chan struct{}, 16)} }

func (e *entered) Read(p []byte) (int, error) {
	e.in <- struct{}{}
	return e.r.Read(p)
}

func (e *entered) Write(p []byte) (int, error) {
	e.in <- struct{}{}
	return e.w.Write(p)
}

func pipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// await returns what done delivers, failing the test if nothing comes within the backstop.
func await[T any](t *testing.T, done <-chan T) T {
	t.Helper()
	select {
	case v := <-done:
		return v
	case <-time.After(backstop):
		t.Fatalf("still blocked after %s", backstop)
		var zero T
		return zero
	}
}

type readResult struct {
	n   int
	err error
}

func TestReaderPassesData(t *testing.T) {
	r, w := pipe(t)
	cr := NewReader(context.Background(), r)
	_, err := w.WriteString("hello")
	require.NoError(t, err)
	require.NoError(t, w.Close())
	got, err := io.ReadAll(cr)
	require.NoError(t, err)
	assert.Equal(t, "hello", string(got))
}

// TestReaderEndsBlockedRead: a read of a pipe that nothing writes to ends when the context
// is cancelled, and every later read answers the context's error without reading: bytes
// written afterwards stay in the pipe or in the abandoned read's own buffer, never in p.
func TestReaderEndsBlockedRead(t *testing.T) {
	r, w := pipe(t)
	ctx, cancel := context.WithCancel(context.Background())
	src := newEntered()
	src.r = r
	cr := NewReader(ctx, src)
	p := make([]byte, 8)
	done := make(chan readResult, 1)
	go func() {
		n, err := cr.Read(p)
		done <- readResult{n, err}
	}()
	await(t, src.in) // the read of the pipe has started: it blocks until the cancel
	cancel()
	res := await(t, done)
	assert.Equal(t, 0, res.n)
	require.ErrorIs(t, res.err, context.Canceled)

	_, err := w.WriteString("late")
	require.NoError(t, err)
	n, err := cr.Read(p)
	assert.Equal(t, 0, n)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, make([]byte, 8), p, "nothing was copied into the caller's buffer")
	assert.Empty(t, src.in, "no read after the cancel")
}

// TestReaderRegularFile: a regular file is read directly; after the cancel, reads stop.
func TestReaderRegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(path, []byte("abcdef"), 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cr := NewReader(ctx, f)
	assert.True(t, cr.fast)
	p := make([]byte, 3)
	n, err := cr.Read(p)
	require.NoError(t, err)
	assert.Equal(t, "abc", string(p[:n]))
	cancel()
	_, err = cr.Read(p)
	require.ErrorIs(t, err, context.Canceled)
}

// TestWriterEndsBlockedWrite: a write into a pipe that nobody reads ends when the context is
// cancelled, and later writes write nothing.
func TestWriterEndsBlockedWrite(t *testing.T) {
	r, w := pipe(t)
	ctx, cancel := context.WithCancel(context.Background())
	dst := newEntered()
	dst.w = w
	cw := NewWriter(ctx, dst)
	big := make([]byte, 4<<20) // more than any pipe holds: the write blocks
	done := make(chan readResult, 1)
	go func() {
		n, err := cw.Write(big)
		done <- readResult{n, err}
	}()
	await(t, dst.in)
	cancel()
	res := await(t, done)
	require.ErrorIs(t, res.err, context.Canceled)
	_, err := cw.Write([]byte("x"))
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, dst.in, "no write after the cancel")
	r.Close() // the abandoned write fails with EPIPE and its goroutine ends
}

func TestWriterPassesData(t *testing.T) {
	r, w := pipe(t)
	cw := NewWriter(context.Background(), w)
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	buf := []byte("hello")
	n, err := cw.Write(buf)
	require.NoError(t, err)
	assert.Equal(t, 5, n)
	buf[0] = 'j' // the caller may reuse its slice as soon as Write returns
	_, err = cw.Write([]byte(", world"))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	assert.Equal(t, "hello, world", string(await(t, got)))
}

// TestOpenEndsBlockedOpen: the open of a FIFO that no writer opens ends on the cancel; once a
// writer comes, the abandoned open's file is closed (the writer sees no reader left).
func TestOpenEndsBlockedOpen(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Open(ctx, fifo)
	require.ErrorIs(t, err, context.Canceled)

	started := make(chan struct{}, 1)
	osOpen = func(name string) (*os.File, error) {
		started <- struct{}{}
		return os.Open(name)
	}
	defer func() { osOpen = os.Open }()
	ctx, cancel = context.WithCancel(context.Background())
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := Open(ctx, fifo)
		done <- opened{f, err}
	}()
	await(t, started) // the open has started: with no writer, it blocks
	cancel()
	o := await(t, done)
	require.ErrorIs(t, o.err, context.Canceled)
	assert.Nil(t, o.f)
	// The writer's open returns once a reader has the FIFO open: the abandoned open's.
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer w.Close()
	// Once the abandoned open's file is closed, a write has no reader: EPIPE.
	for {
		if _, err := w.Write([]byte("x")); err != nil {
			require.ErrorIs(t, err, syscall.EPIPE)
			break
		}
	}
}

func TestOpenRegular(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(path, []byte("x"), 0o644))
	f, err := Open(context.Background(), path)
	require.NoError(t, err)
	defer f.Close()
	_, err = Open(context.Background(), filepath.Join(t.TempDir(), "missing"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

// sameArray records whether each call was given the caller's own array.
type sameArray struct {
	r    io.Reader
	w    io.Writer
	want *byte
	got  []bool
}

func (s *sameArray) Read(p []byte) (int, error) {
	s.got = append(s.got, len(p) > 0 && &p[0] == s.want)
	return s.r.Read(p)
}

func (s *sameArray) Write(p []byte) (int, error) {
	s.got = append(s.got, len(p) > 0 && &p[0] == s.want)
	return s.w.Write(p)
}

// TestReadInPlace: ReadInPlace reads a pipe into the caller's own buffer, where Read goes
// through the Reader's; both deliver the bytes.
func TestReadInPlace(t *testing.T) {
	r, w := pipe(t)
	p := make([]byte, 16)
	src := &sameArray{r: r, want: &p[0]}
	cr := NewReader(context.Background(), src)
	_, err := w.WriteString("hello")
	require.NoError(t, err)
	n, err := cr.ReadInPlace(p)
	require.NoError(t, err)
	assert.Equal(t, "hello", string(p[:n]))
	_, err = w.WriteString("world")
	require.NoError(t, err)
	n, err = cr.Read(p)
	require.NoError(t, err)
	assert.Equal(t, "world", string(p[:n]))
	assert.Equal(t, []bool{true, false}, src.got, "in place, then through the Reader's buffer")
}

// TestReadInPlaceEndsBlockedRead: ReadInPlace ends on the context as Read does.
func TestReadInPlaceEndsBlockedRead(t *testing.T) {
	r, _ := pipe(t)
	ctx, cancel := context.WithCancel(context.Background())
	src := newEntered()
	src.r = r
	cr := NewReader(ctx, src)
	done := make(chan readResult, 1)
	go func() {
		n, err := cr.ReadInPlace(make([]byte, 8)) // given up: the abandoned read keeps it
		done <- readResult{n, err}
	}()
	await(t, src.in)
	cancel()
	res := await(t, done)
	assert.Equal(t, 0, res.n)
	require.ErrorIs(t, res.err, context.Canceled)
	_, err := cr.ReadInPlace(make([]byte, 8))
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, src.in, "no read after the cancel")
}

// TestWriteInPlace: WriteInPlace writes from the caller's own array, where Write copies it
// first; both deliver the bytes in order.
func TestWriteInPlace(t *testing.T) {
	r, w := pipe(t)
	buf := []byte("hello")
	dst := &sameArray{w: w, want: &buf[0]}
	cw := NewWriter(context.Background(), dst)
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	n, err := cw.WriteInPlace(buf)
	require.NoError(t, err)
	assert.Equal(t, 5, n)
	_, err = cw.Write(buf)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	assert.Equal(t, "hellohello", string(await(t, got)))
	assert.Equal(t, []bool{true, false}, dst.got)
}

// TestWriteInPlaceEndsBlockedWrite: WriteInPlace ends on the context as Write does.
func TestWriteInPlaceEndsBlockedWrite(t *testing.T) {
	r, w := pipe(t)
	ctx, cancel := context.WithCancel(context.Background())
	dst := newEntered()
	dst.w = w
	cw := NewWriter(ctx, dst)
	done := make(chan readResult, 1)
	go func() {
		n, err := cw.WriteInPlace(make([]byte, 4<<20)) // more than any pipe holds
		done <- readResult{n, err}
	}()
	await(t, dst.in)
	cancel()
	res := await(t, done)
	require.ErrorIs(t, res.err, context.Canceled)
	_, err := cw.WriteInPlace([]byte("x"))
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, dst.in, "no write after the cancel")
	r.Close() // the abandoned write fails with EPIPE and its goroutine ends
}

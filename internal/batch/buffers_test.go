package batch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// readLine grows buf as streamReader.read does until it holds size bytes.
func readLine(b *buffers, buf []byte, size int) []byte {
	for len(buf) < size {
		if cap(buf)-len(buf) < readBytes/4 {
			buf = b.grow(buf, readBytes)
		}
		buf = buf[:min(size, cap(buf))]
	}
	return buf
}

// A long line grows its buffer geometrically the first time, and a buffer that must grow
// later jumps to the largest size made: the second long line, in another chunk, takes the
// first one's buffer or one as large, not the steps again.
func TestBuffersGrowOnce(t *testing.T) {
	var b buffers
	const line = 3 << 20
	// 640 KiB (a quarter more than asked), then 1.25, 2.5 and 5 MiB; outside the Go heap,
	// from 1 MiB on, each size rounded up to 2 MiB steps: 2 and 4 MiB.
	steps, last := 4, 5<<20
	if mapped(t) {
		steps, last = 3, 4<<20
	}
	first := readLine(&b, b.get(512<<10), line)
	assert.Equal(t, steps, b.made)
	assert.Equal(t, last, cap(first))
	assert.Empty(t, b.free, "each smaller one let go")

	// Another chunk's buffer, made while the first is still held, grows for a long line to
	// the first one's size at once.
	second := b.get(512 << 10)
	second = readLine(&b, second, line)
	assert.Equal(t, cap(first), cap(second), "one step to the largest size made")
	assert.Equal(t, steps+2, b.made)

	// Both given back, two chunks take them, whatever their lines: nothing is made.
	b.put(first)
	b.put(second)
	x := b.get(512 << 10)
	y := readLine(&b, b.get(512<<10), line)
	assert.Equal(t, steps+2, b.made)
	assert.Empty(t, b.free)
	b.put(x)
	b.put(y)
	assert.Equal(t, 2*last, b.held())
	if mapped(t) {
		assert.Len(t, b.regions.m, 2, "the smaller ones given back to the system")
	}
}

// mapped says whether buffers of mappedBytes or more are made outside the Go heap here.
func mapped(t *testing.T) bool {
	m := mapRegion(1)
	if m == nil {
		return false
	}
	t.Cleanup(func() { unmapRegion(m) })
	return true
}

// The buffers never outnumber what was held at once: a buffer made when none fits replaces
// the largest free one that was too small.
func TestBuffersBounded(t *testing.T) {
	var b buffers
	held := [][]byte{b.get(100), b.get(100)}
	for _, h := range held {
		b.put(h)
	}
	for size := 200; size < 1<<20; size *= 2 {
		got := b.get(size)
		require.GreaterOrEqual(t, cap(got), size)
		grown := b.grow(got[:cap(got)], size)
		b.put(grown)
		assert.LessOrEqual(t, len(b.free), 2, "at most the two buffers held at once")
	}
}

// A buffer grown past maxKeptBytes is not kept; a nil one (dropped by its chunk) is no buffer.
func TestBuffersNotKept(t *testing.T) {
	var b buffers
	b.put(make([]byte, 0, maxKeptBytes+1))
	b.put(nil)
	assert.Empty(t, b.free)
	assert.LessOrEqual(t, b.largest, maxKeptBytes)
	big := b.get(maxKeptBytes + 1)
	assert.Equal(t, 0, b.largest, "a size past what is kept sets no size for the next ones")
	b.put(big)
	assert.Empty(t, b.free)
	if mapped(t) {
		assert.Empty(t, b.regions.m, "given back to the system")
	}
}

// A store's buffers made outside the Go heap go back to the system once the store is let go,
// but for one that an abandoned read or write may still use, which is never given back.
func TestBuffersUnmappedWithTheirStore(t *testing.T) {
	if !mapped(t) {
		t.Skip("no buffers outside the Go heap on this system")
	}
	b := new(buffers)
	kept, abandoned := b.get(mappedBytes), b.get(mappedBytes)
	b.put(kept)
	b.forget(abandoned)
	require.Len(t, b.regions.m, 1)
	done := make(chan struct{})
	b.regions.unmapped = func() { close(done) }
	b = nil
	for i := 0; ; i++ {
		require.Less(t, i, 100, "the store's cleanup did not run in 100 collections")
		runtime.GC()
		select {
		case <-done:
		default:
			continue
		}
		break
	}
	abandoned = append(abandoned, "still writable"...) // would fault were it unmapped
	assert.Equal(t, "still writable", string(abandoned))
	unmapRegion(abandoned)
}

// A chunk whose output outgrows the buffer it was given (a Render that writes more than the
// lines it reads) gives that buffer back all the same: the store holds no region but its free
// buffers once the run is over, run after run.
func TestBuffersOutgrownGivenBack(t *testing.T) {
	if !mapped(t) {
		t.Skip("no buffers outside the Go heap on this system")
	}
	wide := func(dst []byte, _ *normalize.Normalizer, l Line) ([]byte, Outcome) {
		return append(append(dst, bytes.Repeat([]byte("x"), 40*len(l.Bytes))...), '\n'), Outcome{}
	}
	in := bytes.Repeat([]byte(`{"final_response":"a"}`+"\n"), 3<<20/23)
	b := new(buffers)
	for range 3 {
		p := newPipeline(normalize.New(), Options{Workers: 1, Render: wide}, b, memorySpare)
		_, err := p.run(context.Background(), func(ctx context.Context) error { return p.readBytes(ctx, in) }, io.Discard)
		require.NoError(t, err)
		require.NotNil(t, b.regions, "no buffer was made outside the Go heap")
		free := map[*byte]bool{}
		for _, f := range b.free {
			free[unsafe.SliceData(f[:1])] = true
		}
		for base := range b.regions.m {
			assert.True(t, free[base], "a region that is no free buffer: lost")
		}
	}
}

// inPlaceFailer fails every write with err, and keeps the array it was asked to write.
type inPlaceFailer struct {
	err  error
	buf  *byte
	read bool // the write was in place
}

func (w *inPlaceFailer) Write(p []byte) (int, error) { return 0, w.err }

func (w *inPlaceFailer) WriteInPlace(p []byte) (int, error) {
	w.buf, w.read = unsafe.SliceData(p[:1]), true
	return 0, w.err
}

// A buffer whose in-place write failed goes back to the store, unless the write failed with
// a context's error: ctxio abandoned it then, and it may still read the buffer, which is
// forgotten (never unmapped, never used again).
func TestBuffersForgottenOnlyWhenAbandoned(t *testing.T) {
	if !mapped(t) {
		t.Skip("no buffers outside the Go heap on this system")
	}
	in := bytes.Repeat([]byte(`{"final_response":"a"}`+"\n"), 3<<20/23)
	for _, tc := range []struct {
		err       error
		forgotten bool
	}{{errors.New("disk full"), false}, {context.Canceled, true}, {context.DeadlineExceeded, true}} {
		b := new(buffers)
		w := &inPlaceFailer{err: tc.err}
		p := newPipeline(normalize.New(), Options{Workers: 1}, b, memorySpare)
		_, err := p.run(context.Background(), func(ctx context.Context) error { return p.readBytes(ctx, in) }, w)
		require.ErrorIs(t, err, tc.err)
		require.True(t, w.read)
		_, tracked := b.regions.m[w.buf]
		free := false
		for _, f := range b.free {
			free = free || unsafe.SliceData(f[:1]) == w.buf
		}
		assert.Equal(t, !tc.forgotten, tracked, "%v: tracked", tc.err)
		assert.Equal(t, !tc.forgotten, free, "%v: given back", tc.err)
	}
}

package batch

import (
	"runtime"
	"sync"
	"unsafe"
)

// buffers are the byte buffers of a run's chunks, their input (a stream's lines) and their
// output, shared by all of them: a chunk takes buffers when it is filled and processed and
// gives them back once written. Memory new to the process costs a page fault per page (on a
// virtual machine about 0.5 ms per MiB, as much as normalizing it), so a run makes as few as it
// can: a buffer that must grow takes a free one that is large enough, or is made as large as
// the largest made so far (the longest lines seen come again) and at least twice as large, so
// one line of 3 MB grows a buffer a few times in a run, not every chunk's in steps. A buffer
// is asked for with the size its chunk needs, and made a quarter larger.
//
// A new buffer replaces one that is let go, the one that grew or else the largest free one that
// was too small: the run holds no more buffers than its chunks held at once, two per chunk,
// each at most maxKeptBytes once given back.
//
// A buffer of mappedBytes or more is memory of its own outside the Go heap (mapRegion), given
// back to the system when it is let go, and when the store is: in the Go heap, the buffers a
// run replaces as its lines grow would be counted towards the next collection, and the memory
// they leave zeroed again when reused.
type buffers struct {
	mu      sync.Mutex
	free    [][]byte // empty, for any chunk
	largest int      // the largest capacity made, up to maxKeptBytes
	made    int      // buffers made
	regions *regions // the buffers made outside the Go heap, nil until one is
}

// mappedBytes is the smallest buffer made outside the Go heap: a chunk's buffers are at least
// a chunk's size, the few smaller ones an input's last lines.
const mappedBytes = 1 << 20

// regions are a store's buffers made outside the Go heap, by their first byte.
type regions struct {
	m        map[*byte][]byte
	unmapped func() // for tests: called once unmapAll has run
}

// unmapAll gives back every region, once their store is unreachable and so are they.
func (r *regions) unmapAll() {
	for _, m := range r.m {
		unmapRegion(m)
	}
	if r.unmapped != nil {
		r.unmapped()
	}
}

// maxKeptBytes keeps a buffer grown for a huge line from being kept for the next chunks.
const maxKeptBytes = 8 << 20

// get returns an empty buffer with room for n bytes. One that is made has a quarter more, so
// that the next chunks' slightly larger needs find it large enough.
func (b *buffers) get(n int) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.take(n, n+n/4, true)[:0]
}

// grow returns buf with room for n more bytes: buf itself when it has it, else a buffer with
// buf's bytes copied in, and buf goes back to the free ones.
func (b *buffers) grow(buf []byte, n int) []byte {
	if cap(buf)-len(buf) >= n {
		return buf
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	made := b.made
	nb := b.take(len(buf)+n, max(2*cap(buf), b.largest), false)
	nb = append(nb[:0], buf...)
	if b.made == made { // a free one: buf takes its place
		b.keep(buf)
	} else {
		b.letGo(buf)
	}
	return nb
}

// put gives buf back for another chunk.
func (b *buffers) put(buf []byte) {
	if buf == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.keep(buf)
}

// take removes from the free buffers the smallest with room for n bytes, or makes one of
// max(n, size) bytes, in place of the largest free one if replace. b.mu is held.
func (b *buffers) take(n, size int, replace bool) []byte {
	fit, under := -1, -1
	for i, f := range b.free {
		switch {
		case cap(f) >= n && (fit < 0 || cap(f) < cap(b.free[fit])):
			fit = i
		case cap(f) < n && (under < 0 || cap(f) > cap(b.free[under])):
			under = i
		}
	}
	if fit < 0 {
		if replace && under >= 0 {
			b.letGo(b.free[under])
			b.remove(under)
		}
		b.made++
		size = max(n, size)
		if size <= maxKeptBytes {
			b.largest = max(b.largest, size)
		}
		return b.newBuffer(size)
	}
	f := b.free[fit]
	b.remove(fit)
	return f
}

func (b *buffers) remove(i int) {
	last := len(b.free) - 1
	b.free[i] = b.free[last]
	b.free[last] = nil
	b.free = b.free[:last]
}

// keep adds buf to the free buffers unless it grew past maxKeptBytes. b.mu is held.
func (b *buffers) keep(buf []byte) {
	if cap(buf) > 0 && cap(buf) <= maxKeptBytes {
		b.free = append(b.free, buf[:0])
		return
	}
	b.letGo(buf)
}

// newBuffer makes an empty buffer of size bytes or more. b.mu is held.
func (b *buffers) newBuffer(size int) []byte {
	if size >= mappedBytes {
		if m := mapRegion(size); m != nil {
			if b.regions == nil {
				b.regions = &regions{m: map[*byte][]byte{}}
				runtime.AddCleanup(b, (*regions).unmapAll, b.regions)
			}
			b.regions.m[unsafe.SliceData(m)] = m
			return m[:0]
		}
	}
	return make([]byte, 0, size)
}

// letGo drops buf, which nothing uses any more: made outside the Go heap, it goes back to the
// system, else to the collector. b.mu is held.
func (b *buffers) letGo(buf []byte) {
	if m := b.untrack(buf); m != nil {
		unmapRegion(m)
	}
}

// drop lets go of buf, which nothing uses any more and which is not among the free ones.
func (b *buffers) drop(buf []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.letGo(buf)
}

// forget drops buf, which an abandoned read or write may still use (ctxio's ReadInPlace and
// WriteInPlace): made outside the Go heap, it is never given back, as ctxio's goroutine that
// still uses it is never stopped, in a process that is meant to exit once interrupted.
func (b *buffers) forget(buf []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.untrack(buf)
}

// untrack takes the region buf was made in out of the store's and returns it, or nil when
// buf was made in the Go heap. b.mu is held.
func (b *buffers) untrack(buf []byte) []byte {
	if b.regions == nil || cap(buf) == 0 {
		return nil
	}
	base := unsafe.SliceData(buf[:1])
	m := b.regions.m[base]
	delete(b.regions.m, base)
	return m
}

// held is the capacity of the free buffers, which are all the run's once it is over.
func (b *buffers) held() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, f := range b.free {
		n += cap(f)
	}
	return n
}

// sameArray says a and b start at the same byte of memory (both empty with no array counts).
func sameArray(a, b []byte) bool {
	return unsafe.SliceData(a[:cap(a)]) == unsafe.SliceData(b[:cap(b)])
}

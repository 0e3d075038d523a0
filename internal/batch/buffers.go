package batch

import "sync"

// buffers are the byte buffers of a run's chunks, their input (a stream's lines) and their
// output, shared by all of them: a chunk takes buffers when it is filled and processed and
// gives them back once written. Memory new to the process costs a page fault per page (on a
// virtual machine about 3 ms per MB, more than normalizing it), so a run makes as few as it
// can: a buffer that must grow takes a free one that is large enough, or is made as large as
// the largest made so far (the longest lines seen come again) and at least twice as large, so
// one line of 3 MB grows a buffer a few times in a run, not every chunk's in steps. A buffer
// is asked for with the size its chunk needs, and made a quarter larger.
//
// A new buffer replaces one that is let go, the one that grew or else the largest free one that
// was too small: the run holds no more buffers than its chunks held at once, two per chunk,
// each at most maxKeptBytes once given back.
type buffers struct {
	mu      sync.Mutex
	free    [][]byte // empty, for any chunk
	largest int      // the largest capacity made, up to maxKeptBytes
	made    int      // buffers made
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
			b.remove(under)
		}
		b.made++
		size = max(n, size)
		if size <= maxKeptBytes {
			b.largest = max(b.largest, size)
		}
		return make([]byte, 0, size)
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
	}
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

//go:build unix

package batch

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// Mapped is the rest of a regular file mapped into memory, read-only, for RunBytes: its lines
// are read where the page cache holds them, with no copy into the process.
type Mapped struct {
	f       *os.File
	m       []byte // the mapping, from a page boundary
	skip    int    // bytes of m before the file's offset
	end     int64  // the file's offset after what was mapped
	dropped int    // bytes of m already dropped
}

// MapFile maps what is left of the regular file f, from its current offset to its end. It
// fails for anything but a regular file, and where mapping is not supported.
func MapFile(f *os.File) (*Mapped, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("map %s: not a regular file", f.Name())
	}
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, err
	}
	mp := &Mapped{f: f, end: st.Size()}
	size := st.Size() - off
	if size <= 0 {
		return mp, nil
	}
	if int64(int(size)) != size {
		return nil, fmt.Errorf("map %s: %w", f.Name(), errors.ErrUnsupported)
	}
	page := int64(os.Getpagesize())
	start := off / page * page // a mapping starts on a page
	m, err := unix.Mmap(int(f.Fd()), start, int(off-start+size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", f.Name(), err)
	}
	_ = unix.Madvise(m, unix.MADV_SEQUENTIAL) // read once, front to back
	mp.m, mp.skip = m, int(off-start)
	return mp, nil
}

// Bytes is the mapped rest of the file.
func (mp *Mapped) Bytes() []byte {
	if mp.m == nil {
		return nil
	}
	return mp.m[mp.skip:]
}

// Drop takes the pages of the first n bytes of Bytes out of the process, once they are no
// longer read, so that its resident memory stays flat however large the file is (the pages
// stay in the page cache). A later read of them would fault them in again.
func (mp *Mapped) Drop(n int64) {
	page := os.Getpagesize()
	upTo := (mp.skip + int(n)) / page * page
	if upTo-mp.dropped < 16<<20 { // a call per 16 MiB
		return
	}
	_ = unix.Madvise(mp.m[mp.dropped:upTo], unix.MADV_DONTNEED)
	mp.dropped = upTo
}

// Close unmaps the file and moves its offset past what was mapped, as reading it would have.
func (mp *Mapped) Close() error {
	_, serr := mp.f.Seek(mp.end, io.SeekStart)
	if mp.m == nil {
		return serr
	}
	return errors.Join(unix.Munmap(mp.m), serr)
}

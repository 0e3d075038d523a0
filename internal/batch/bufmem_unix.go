//go:build unix

package batch

import (
	"math"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page where the system has them (amd64 and
// arm64 Linux with 4 KiB pages): a region aligned to it can be backed by huge pages.
const hugePage = 2 << 20

// mapRegion returns at least size bytes of zeroed memory of their own, outside the Go heap,
// a multiple of hugePage long and aligned to one, or nil when the system refuses. Linux is
// asked to back them with huge pages (adviseHuge), and where it does, a buffer of several MB
// costs a page fault per 2 MiB when first touched instead of one per 4 KiB.
func mapRegion(size int) []byte {
	if size > math.MaxInt-2*hugePage {
		return nil
	}
	size = (size + hugePage - 1) / hugePage * hugePage
	p, err := unix.MmapPtr(-1, 0, nil, uintptr(size+hugePage), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil
	}
	// The aligned size bytes inside are kept, the rest given back.
	head := int(-uintptr(p) & (hugePage - 1))
	if head > 0 {
		_ = unix.MunmapPtr(p, uintptr(head))
	}
	if tail := hugePage - head; tail > 0 {
		_ = unix.MunmapPtr(unsafe.Add(p, head+size), uintptr(tail))
	}
	m := unsafe.Slice((*byte)(unsafe.Add(p, head)), size)
	adviseHuge(m)
	return m
}

// unmapRegion gives back a region of mapRegion, which nothing may use again.
func unmapRegion(m []byte) {
	_ = unix.MunmapPtr(unsafe.Pointer(unsafe.SliceData(m)), uintptr(cap(m)))
}

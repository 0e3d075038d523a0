//go:build unix

package batch

import (
	"math"
	"unsafe"

	"golang.org/x/sys/unix"
)

// regionStep is what a region's size is rounded up to: a page the buffer never writes costs
// nothing, and sizes in few steps let more chunks reuse a buffer instead of making one.
const regionStep = 2 << 20

// mapRegion returns at least size bytes of zeroed memory of their own, outside the Go heap, a
// multiple of regionStep long, or nil when the system refuses.
//
// It does not ask for transparent huge pages (MADV_HUGEPAGE), which fault once per 2 MiB
// instead of 512 times: on a virtual machine whose guest reports free memory to its host
// (virtio-balloon free page reporting), a huge page first touched after the host took it back
// costs 2.4-3.2 ms per MiB against 0.5-0.6 for 4 KiB pages, so a run started after a pause (the
// way the command is run) took longer with them; see docs/performance.md. A system whose THP
// setting is "always" still backs them with huge pages: its administrator chose them.
func mapRegion(size int) []byte {
	if size > math.MaxInt-regionStep {
		return nil
	}
	size = (size + regionStep - 1) / regionStep * regionStep
	p, err := unix.MmapPtr(-1, 0, nil, uintptr(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil
	}
	return unsafe.Slice((*byte)(p), size)
}

// unmapRegion gives back a region of mapRegion, which nothing may use again.
func unmapRegion(m []byte) {
	_ = unix.MunmapPtr(unsafe.Pointer(unsafe.SliceData(m)), uintptr(cap(m)))
}

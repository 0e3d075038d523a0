package batch

import "golang.org/x/sys/unix"

// adviseHuge asks for m to be backed by transparent huge pages, which the kernel does where
// they are enabled for the regions that ask ("madvise", the usual setting) or for all.
func adviseHuge(m []byte) {
	_ = unix.Madvise(m, unix.MADV_HUGEPAGE) // a hint: where refused, 4 KiB pages
}

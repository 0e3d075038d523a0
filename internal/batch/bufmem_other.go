//go:build !unix

package batch

// hugePage is the size the buffers' regions would be rounded to; on this system buffers are
// made in the Go heap (mapRegion returns nil).
const hugePage = 2 << 20

func mapRegion(size int) []byte { return nil }

func unmapRegion(m []byte) {}

//go:build unix && !linux

package batch

// adviseHuge does nothing where Linux's transparent huge pages are not.
func adviseHuge(m []byte) {}

//go:build !amd64

package jsonscan

// blockMasks classifies the 64 bytes of b into m; see classifyGeneric.
func blockMasks(b *[blockSize]byte, m *blockInfo) { classifyGeneric(b, m) }

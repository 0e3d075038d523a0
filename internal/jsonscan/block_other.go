//go:build !amd64

package jsonscan

// useAVX2 is false off amd64, so that the compiler drops the call below.
const useAVX2 = false

func classifyAVX2(b *[blockSize]byte, m *blockInfo) { classifyGeneric(b, m) }

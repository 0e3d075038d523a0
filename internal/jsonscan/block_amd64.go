package jsonscan

import "golang.org/x/sys/cpu"

// blockMasks classifies the 64 bytes of b into m: with AVX2 where the CPU has it (32 bytes per
// instruction), else in portable Go. Both must agree with naiveClassify in the tests.
func blockMasks(b *[blockSize]byte, m *blockInfo) {
	if useAVX2 {
		classifyAVX2(b, m)
		return
	}
	classifyGeneric(b, m)
}

var useAVX2 = cpu.X86.HasAVX2

//go:noescape
func classifyAVX2(b *[blockSize]byte, m *blockInfo)

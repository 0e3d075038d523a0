package jsonscan

import "golang.org/x/sys/cpu"

// useAVX2 selects classifyAVX2 over classifyGeneric; tests turn it off to run the portable code.
var useAVX2 = cpu.X86.HasAVX2

// classifyAVX2 is classifyGeneric with AVX2, 32 bytes per instruction. Both must agree with
// naiveClassify in the tests.
//
//go:noescape
func classifyAVX2(b *[blockSize]byte, m *blockInfo)

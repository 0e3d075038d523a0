package jsonscan

import "golang.org/x/sys/cpu"

// useAVX2 chooses scanBlocks over scanWords for strings; tests turn it off to run the other.
var useAVX2 = cpu.X86.HasAVX2

// classifyAVX2 fills m for the 64 bytes of b, 32 bytes per instruction; it must agree with
// naiveClassify in the tests.
//
//go:noescape
func classifyAVX2(b *[blockSize]byte, m *blockInfo)

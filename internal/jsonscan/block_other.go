//go:build !amd64

package jsonscan

// useBlocks is false off amd64: strings are scanned by scanWords (tests may not turn it on).
var useBlocks, useAVX512, useVBMI, useStringVBMI, useEscapeASCII = false, false, false, false, false

func classifyAVX2(b *[blockSize]byte, m *blockInfo)   { panic("jsonscan: no AVX2 off amd64") }
func classifyAVX512(b *[blockSize]byte, m *blockInfo) { panic("jsonscan: no AVX-512 off amd64") }
func classifyVBMI(b *[blockSize]byte, m *blockInfo)   { panic("jsonscan: no AVX-512 off amd64") }
func scanBlocksAVX512(d *byte, i, n int, c *blockCarry, vbmi bool) (next, end int) {
	panic("jsonscan: no AVX-512 off amd64")
}
func scanBlocksAVX2(d *byte, i, n int, c *blockCarry) (next, end int) {
	panic("jsonscan: no AVX2 off amd64")
}
func scanStringVBMI(d *byte, i, n int, ascii bool) (end int, flags uint64) {
	panic("jsonscan: no AVX-512 off amd64")
}

const stringWide = 4

func escapeASCII(dst *byte, room int, s *byte, n int) (read, written int) {
	panic("jsonscan: no AVX-512 off amd64")
}

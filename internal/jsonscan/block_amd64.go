package jsonscan

import "golang.org/x/sys/cpu"

// useBlocks chooses scanBlocks over scanWords for strings, which needs AVX2 (and BMI1's ANDN,
// which every AVX2 processor has, but a virtual machine may hide), and useAVX512
// classifyAVX512 over classifyAVX2 in it; tests turn them off to run the others. (x/sys/cpu
// reports AVX2 and AVX-512 only where the operating system saves their registers.)
var (
	useBlocks = cpu.X86.HasAVX2 && cpu.X86.HasBMI1
	useAVX512 = useBlocks && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW
	useVBMI   = useAVX512 && cpu.X86.HasAVX512VBMI
	// useStringVBMI tries scanStringVBMI before scanBlocks.
	useStringVBMI = useVBMI
	// useEscapeASCII has AppendStringContent start with escapeASCII.
	useEscapeASCII = useVBMI && cpu.X86.HasAVX512VBMI2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT
)

// classifyAVX2 fills m for the 64 bytes of b, 32 bytes per instruction, and classifyAVX512 with
// one; both must agree with naiveClassify in the tests.
//
//go:noescape
func classifyAVX2(b *[blockSize]byte, m *blockInfo)

//go:noescape
func classifyAVX512(b *[blockSize]byte, m *blockInfo)

// classifyVBMI is classifyAVX512 with a table lookup for most of the classes.
//
//go:noescape
func classifyVBMI(b *[blockSize]byte, m *blockInfo)

// scanBlocksAVX512 is scanBlocks' loop, in assembly, for the blocks in which nothing rare
// happens, classified by classifyVBMI's lookup when vbmi is set, else by classifyAVX512's
// compares.
//
//go:noescape
func scanBlocksAVX512(d *byte, i, n int, c *blockCarry, vbmi bool) (next, end int)

// scanBlocksAVX2 is scanBlocksAVX512 with AVX2.
//
//go:noescape
func scanBlocksAVX2(d *byte, i, n int, c *blockCarry) (next, end int)

// scanStringVBMI is the string scan's first try where the CPU has AVX512-VBMI: it returns where
// the string whose content starts at d[i] ends, just past its closing quote, and its flags
// (Escaped, SurrogateEscape, and stringWide once it has met a byte from 0x80 on), or end 0 when
// scanBlocks must scan it from i (something wrong or rare, or fewer than 64 bytes left before
// n). i must be no continuation byte and not escaped. With ascii set it leaves the UTF-8 checks
// out until it meets a byte from 0x80 on.
//
//go:noescape
func scanStringVBMI(d *byte, i, n int, ascii bool) (end int, flags uint64)

// stringWide is the bit of scanStringVBMI's flags that says it met a byte from 0x80 on, or
// was called with ascii unset: the Scanner's next strings start in its UTF-8 loop.
const stringWide = 4

// escapeASCII is AppendStringContent for s[:n] as long as it is printable ASCII, a chunk of 32
// bytes at a time, into dst, which has room for room bytes: it returns how much of s it read
// and how much of dst it wrote, stopping at a chunk that holds another byte or whose escaped
// form does not fit.
//
//go:noescape
func escapeASCII(dst *byte, room int, s *byte, n int) (read, written int)

#include "go_asm.h"
#include "textflag.h"

// Each constant is one byte repeated over 64: AVX-512 compares take them straight from memory,
// AVX2 loads their first 32 bytes.
#define BYTES64(name, w) \
	DATA name<>+0(SB)/8, $w; \
	DATA name<>+8(SB)/8, $w; \
	DATA name<>+16(SB)/8, $w; \
	DATA name<>+24(SB)/8, $w; \
	DATA name<>+32(SB)/8, $w; \
	DATA name<>+40(SB)/8, $w; \
	DATA name<>+48(SB)/8, $w; \
	DATA name<>+56(SB)/8, $w; \
	GLOBL name<>(SB), RODATA|NOPTR, $64

BYTES64(z01, 0x0101010101010101)
BYTES64(z02, 0x0202020202020202)
BYTES64(z06, 0x0606060606060606)
BYTES64(z04, 0x0404040404040404)
BYTES64(z08, 0x0808080808080808)
BYTES64(z10, 0x1010101010101010)
BYTES64(z20, 0x2020202020202020)
BYTES64(z22, 0x2222222222222222)
BYTES64(z2f, 0x2f2f2f2f2f2f2f2f)
BYTES64(z30, 0x3030303030303030)
BYTES64(z37, 0x3737373737373737)
BYTES64(z38, 0x3838383838383838)
BYTES64(z39, 0x3939393939393939)
BYTES64(z40, 0x4040404040404040)
BYTES64(z48, 0x4848484848484848)
BYTES64(z80, 0x8080808080808080)
BYTES64(z3a, 0x3a3a3a3a3a3a3a3a)
BYTES64(z5c, 0x5c5c5c5c5c5c5c5c)
BYTES64(z60, 0x6060606060606060)
BYTES64(z61, 0x6161616161616161)
BYTES64(z62, 0x6262626262626262)
BYTES64(z64, 0x6464646464646464)
BYTES64(z66, 0x6666666666666666)
BYTES64(z67, 0x6767676767676767)
BYTES64(z6e, 0x6e6e6e6e6e6e6e6e)
BYTES64(z72, 0x7272727272727272)
BYTES64(z74, 0x7474747474747474)
BYTES64(z75, 0x7575757575757575)
BYTES64(z90, 0x9090909090909090)
BYTES64(za0, 0xa0a0a0a0a0a0a0a0)
BYTES64(zbf, 0xbfbfbfbfbfbfbfbf)
BYTES64(zc0, 0xc0c0c0c0c0c0c0c0)
BYTES64(zc2, 0xc2c2c2c2c2c2c2c2)
BYTES64(zdf, 0xdfdfdfdfdfdfdfdf)
BYTES64(ze0, 0xe0e0e0e0e0e0e0e0)
BYTES64(zed, 0xedededededededed)
BYTES64(zef, 0xefefefefefefefef)
BYTES64(zf0, 0xf0f0f0f0f0f0f0f0)
BYTES64(zf3, 0xf3f3f3f3f3f3f3f3)
BYTES64(zf4, 0xf4f4f4f4f4f4f4f4)
BYTES64(zf5, 0xf5f5f5f5f5f5f5f5)
BYTES64(zfe, 0xfefefefefefefefe)

// MASK64 stores the top bits of the bytes of Y2 (low half) and Y3 (high half) as the uint64 at
// off(DI).
#define MASK64(off) \
	VPMOVMSKB Y2, AX; \
	VPMOVMSKB Y3, BX; \
	SHLQ      $32, BX; \
	ORQ       BX, AX; \
	MOVQ      AX, off(DI)

// ESCOR ORs the bytes equal to const into Y2 (low half) and Y3 (high half).
#define ESCOR(const) \
	VMOVDQU  const<>(SB), Y4; \
	VPCMPEQB Y4, Y0, Y5; \
	VPCMPEQB Y4, Y1, Y6; \
	VPOR     Y5, Y2, Y2; \
	VPOR     Y6, Y3, Y3

// CMPGT64 stores the mask of the bytes greater than const (as signed bytes) at off(DI).
#define CMPGT64(const, off) \
	VMOVDQU  const<>(SB), Y4; \
	VPCMPGTB Y4, Y0, Y2; \
	VPCMPGTB Y4, Y1, Y3; \
	MASK64(off)

// func classifyAVX2(b *[blockSize]byte, m *blockInfo)
//
// The masks go to m's fields (offsets from go_asm.h). geC0 to odd are only written when high
// is not zero.
TEXT ·classifyAVX2(SB), NOSPLIT, $0-16
	MOVQ    b+0(FP), SI
	MOVQ    m+8(FP), DI
	PREFETCHT0 512(SI) // as in classifyAVX512
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1

	VMOVDQU  z22<>(SB), Y4
	VPCMPEQB Y4, Y0, Y2
	VPCMPEQB Y4, Y1, Y3
	MASK64(blockInfo_quote)

	VMOVDQU  z5c<>(SB), Y4
	VPCMPEQB Y4, Y0, Y2
	VPCMPEQB Y4, Y1, Y3
	MASK64(blockInfo_bslash)

	// The letters a backslash may stand before: " \ / b f n r t, and u.
	VMOVDQU  z22<>(SB), Y4
	VPCMPEQB Y4, Y0, Y2
	VPCMPEQB Y4, Y1, Y3
	ESCOR(z5c)
	ESCOR(z2f)
	ESCOR(z62)
	ESCOR(z66)
	ESCOR(z6e)
	ESCOR(z72)
	ESCOR(z74)
	MASK64(blockInfo_escSimple)
	VMOVDQU  z75<>(SB), Y4
	VPCMPEQB Y4, Y0, Y2
	VPCMPEQB Y4, Y1, Y3
	MASK64(blockInfo_escU)

	// 0x20 > x as signed bytes: a control character, or a byte from 0x80 on (negative), which
	// the top bits (high, at 24) then take out.
	VMOVDQA   Y0, Y2
	VMOVDQA   Y1, Y3
	MASK64(blockInfo_high)
	MOVQ      AX, R8
	VMOVDQU   z20<>(SB), Y4
	VPCMPGTB  Y0, Y4, Y2
	VPCMPGTB  Y1, Y4, Y3
	VPMOVMSKB Y2, AX
	VPMOVMSKB Y3, BX
	SHLQ      $32, BX
	ORQ       BX, AX
	MOVQ      R8, CX
	NOTQ      CX
	ANDQ      CX, AX
	MOVQ      AX, blockInfo_ctl(DI)
	TESTQ     R8, R8
	JZ        done

	// Signed, ASCII is greater than all of these; the caller keeps the non-ASCII bits only.
	CMPGT64(zbf, blockInfo_geC0)
	CMPGT64(zdf, blockInfo_geE0)
	CMPGT64(zef, blockInfo_geF0)

	// Lead bytes that need the second byte checked, or are never valid: C0 C1 E0 ED F0 F4-FF.
	VMOVDQU  zf3<>(SB), Y4
	VPCMPGTB Y4, Y0, Y2
	VPCMPGTB Y4, Y1, Y3
	VMOVDQU  zfe<>(SB), Y4
	VPAND    Y4, Y0, Y5
	VPAND    Y4, Y1, Y6
	VMOVDQU  zc0<>(SB), Y4
	VPCMPEQB Y4, Y5, Y5
	VPCMPEQB Y4, Y6, Y6
	VPOR     Y5, Y2, Y2
	VPOR     Y6, Y3, Y3
	VMOVDQU  ze0<>(SB), Y4
	VPCMPEQB Y4, Y0, Y5
	VPCMPEQB Y4, Y1, Y6
	VPOR     Y5, Y2, Y2
	VPOR     Y6, Y3, Y3
	VMOVDQU  zed<>(SB), Y4
	VPCMPEQB Y4, Y0, Y5
	VPCMPEQB Y4, Y1, Y6
	VPOR     Y5, Y2, Y2
	VPOR     Y6, Y3, Y3
	VMOVDQU  zf0<>(SB), Y4
	VPCMPEQB Y4, Y0, Y5
	VPCMPEQB Y4, Y1, Y6
	VPOR     Y5, Y2, Y2
	VPOR     Y6, Y3, Y3
	MASK64(blockInfo_odd)

done:
	VZEROUPPER
	RET


// func classifyAVX512(b *[blockSize]byte, m *blockInfo)
//
// classifyAVX2 with AVX-512BW: one load for the block, and compares that give the 64-bit masks
// directly, unsigned where that helps. Same offsets into m.
TEXT ·classifyAVX512(SB), NOSPLIT, $0-16
	MOVQ      b+0(FP), SI
	MOVQ      m+8(FP), DI
	// Blocks are scanned in order, each a call after the last, and the load is most of a
	// call's time: ask for the block eight ahead now (prefetches past the input are harmless).
	PREFETCHT0 512(SI)
	VMOVDQU64  (SI), Z0

	VPCMPEQB z22<>(SB), Z0, K1
	KMOVQ    K1, blockInfo_quote(DI)
	VPCMPEQB z5c<>(SB), Z0, K1
	KMOVQ    K1, AX
	MOVQ     AX, blockInfo_bslash(DI)

	// The letters a backslash may stand before: " \ / b f n r t, and u.
	VPCMPEQB z22<>(SB), Z0, K2
	VPCMPEQB z5c<>(SB), Z0, K3
	KORQ     K3, K2, K2
	VPCMPEQB z2f<>(SB), Z0, K3
	KORQ     K3, K2, K2
	VPCMPEQB z62<>(SB), Z0, K3
	KORQ     K3, K2, K2
	VPCMPEQB z66<>(SB), Z0, K3
	KORQ     K3, K2, K2
	VPCMPEQB z6e<>(SB), Z0, K3
	KORQ     K3, K2, K2
	VPCMPEQB z72<>(SB), Z0, K3
	KORQ     K3, K2, K2
	VPCMPEQB z74<>(SB), Z0, K3
	KORQ     K3, K2, K2
	KMOVQ    K2, blockInfo_escSimple(DI)
	VPCMPEQB z75<>(SB), Z0, K2
	KMOVQ    K2, blockInfo_escU(DI)

	VPCMPUB  $1, z20<>(SB), Z0, K1 // below 0x20
	KMOVQ    K1, blockInfo_ctl(DI)
	VPMOVB2M Z0, K1
	KMOVQ    K1, AX
	MOVQ     AX, blockInfo_high(DI)

	VPCMPUB $5, zc0<>(SB), Z0, K1 // from 0xC0 on
	KMOVQ   K1, blockInfo_geC0(DI)
	VPCMPUB $5, ze0<>(SB), Z0, K2
	KMOVQ   K2, blockInfo_geE0(DI)
	VPCMPUB $5, zf0<>(SB), Z0, K3
	KMOVQ   K3, blockInfo_geF0(DI)

	// odd: C0 C1 (from C0 on but not from C2 on), E0, ED, F0, and from F4 on.
	VPCMPUB  $5, zc2<>(SB), Z0, K4
	KANDNQ   K1, K4, K4
	VPCMPEQB ze0<>(SB), Z0, K5
	KORQ     K5, K4, K4
	VPCMPEQB zed<>(SB), Z0, K5
	KORQ     K5, K4, K4
	VPCMPEQB zf0<>(SB), Z0, K5
	KORQ     K5, K4, K4
	VPCMPUB  $5, zf4<>(SB), Z0, K5
	KORQ     K5, K4, K4
	KMOVQ    K4, blockInfo_odd(DI)

	VZEROUPPER
	RET

// classes maps each byte, by its low seven bits, to what it is, one bit each: for a byte below
// 0x80 (bit 0) a control character, (bit 1) a letter of a two-byte escape, (bit 2) u; for the
// byte 0x80 higher (bit 3) from C0 on, (bit 4) from E0 on, (bit 5) from F0 on, (bit 6) an odd
// lead byte (C0 C1 E0 ED F0 F4-FF), and for a byte below 0x80 again (bit 7) a hex digit, which
// only scanBlocksAVX512 reads. Generated from those definitions; TestBlockMasks checks bits 0
// to 6, and the scans' tests (bad hex digits in every place, non-ASCII bytes there whose low
// seven bits are hex digits) bit 7.
DATA classes<>+0(SB)/8, $0x0101010101010101
DATA classes<>+8(SB)/8, $0x0101010101010101
DATA classes<>+16(SB)/8, $0x0101010101010101
DATA classes<>+24(SB)/8, $0x0101010101010101
DATA classes<>+32(SB)/8, $0x0000000000020000
DATA classes<>+40(SB)/8, $0x0200000000000000
DATA classes<>+48(SB)/8, $0x8080808080808080
DATA classes<>+56(SB)/8, $0x0000000000008080
DATA classes<>+64(SB)/8, $0x088888888888c848
DATA classes<>+72(SB)/8, $0x0808080808080808
DATA classes<>+80(SB)/8, $0x0808080808080808
DATA classes<>+88(SB)/8, $0x0808080a08080808
DATA classes<>+96(SB)/8, $0x189a9898989a9858
DATA classes<>+104(SB)/8, $0x181a581818181818
DATA classes<>+112(SB)/8, $0x78787c7a383a3878
DATA classes<>+120(SB)/8, $0x7878787878787878
GLOBL classes<>(SB), RODATA|NOPTR, $128


// func classifyVBMI(b *[blockSize]byte, m *blockInfo)
//
// classifyAVX512 with one table lookup (AVX512-VBMI's VPERMI2B over the 128 bytes of classes)
// in place of most of its compares: the lookup gives every byte its class bits, and a test per
// bit turns them into masks. The classes meant for ASCII bytes are taken off the non-ASCII ones,
// which share their low seven bits.
TEXT ·classifyVBMI(SB), NOSPLIT, $0-16
	MOVQ       b+0(FP), SI
	MOVQ       m+8(FP), DI
	PREFETCHT0 512(SI) // as in classifyAVX512
	VMOVDQU64  (SI), Z0

	VPCMPEQB z22<>(SB), Z0, K1
	KMOVQ    K1, blockInfo_quote(DI)
	VPCMPEQB z5c<>(SB), Z0, K1
	KMOVQ    K1, blockInfo_bslash(DI)
	VPMOVB2M Z0, K6
	KMOVQ    K6, blockInfo_high(DI)

	VMOVDQA64 Z0, Z1
	VMOVDQU64 classes<>+0(SB), Z2
	VPERMI2B  classes<>+64(SB), Z2, Z1 // Z1 = the class of each byte

	VPTESTMB z01<>(SB), Z1, K1
	KANDNQ   K1, K6, K1
	KMOVQ    K1, blockInfo_ctl(DI)
	VPTESTMB z02<>(SB), Z1, K1
	KANDNQ   K1, K6, K1
	KMOVQ    K1, blockInfo_escSimple(DI)
	VPTESTMB z04<>(SB), Z1, K1
	KANDNQ   K1, K6, K1
	KMOVQ    K1, blockInfo_escU(DI)
	VPTESTMB z08<>(SB), Z1, K1
	KMOVQ    K1, blockInfo_geC0(DI)
	VPTESTMB z10<>(SB), Z1, K1
	KMOVQ    K1, blockInfo_geE0(DI)
	VPTESTMB z20<>(SB), Z1, K1
	KMOVQ    K1, blockInfo_geF0(DI)
	VPTESTMB z40<>(SB), Z1, K1
	KMOVQ    K1, blockInfo_odd(DI)
	VZEROUPPER
	RET

DATA evenBits<>+0(SB)/8, $0x5555555555555555
GLOBL evenBits<>(SB), RODATA|NOPTR, $8

// ESCAPEDBY is escapedBy: from the backslashes in R12 and the carry in R8, the escaped bytes
// in R13 and the carry out in R12; DI is scratch. It uses BMI1's ANDN (x &^ y in one
// instruction): both loops run only where BMI1 is.
#define ESCAPEDBY \
	ANDNQ R12, R8, R12; \
	LEAQ  (R12)(R12*1), DI; \
	ORQ   R8, DI; \
	MOVQ  $0x5555555555555555, R13; \
	ORQ   DI, R13; \
	ANDNQ R12, R13, R13; \
	ADDQ  R12, R13; \
	SBBQ  R12, R12; \
	NEGQ  R12; \
	SHLQ  $1, R13; \
	XORQ  evenBits<>(SB), R13; \
	ANDQ  DI, R13

// ODDLEAD tests the second bytes of the lead bytes equal to lead (those of the block, and at
// its first byte the one the last block's last byte carried in DI's bit): bad when second,
// the mask of the second bytes that do not fit, holds them. Leads in the block's last byte are
// carried in AX's bit 4+bit. R12 and R13 are scratch.
#define ODDLEAD(lead, bit, second) \
	VPCMPEQB lead<>(SB), Z0, K6; \
	KMOVQ    K6, R12; \
	SECONDBYTES(bit, DI, second)

// SECONDBYTES is both loops' ODDLEAD once the leads equal to lead are in R12, with the leads
// the last block carried in carry's bit.
#define SECONDBYTES(bit, carry, second) \
	MOVQ     R12, R13; \
	SHRQ     $63, R13; \
	SHLQ     $(4+bit), R13; \
	ORQ      R13, AX; \
	ADDQ     R12, R12; \
	MOVQ     carry, R13; \
	SHRQ     $bit, R13; \
	ANDQ     $1, R13; \
	ORQ      R13, R12; \
	second; \
	ANDQ     R13, R12; \
	ORQ      R12, BX

// BELOW puts in R13 the bytes below the bound K (a mask register); FROM those from it on.
#define BELOW(K) KMOVQ K, R13
#define FROM(K) KMOVQ K, R13; NOTQ R13

// func scanBlocksAVX512(d *byte, i, n int, c *blockCarry, vbmi bool) (next, end int)
//
// scanBlocks' loop for the blocks of d[i:n] in which nothing rare happens, classified as
// classifyVBMI does when vbmi is set and as classifyAVX512 does otherwise: the arithmetic is
// scanBlocks' (utf8Mismatch, escapedBy) on masks kept in registers, no call and no store per
// block. When it reaches the closing quote with nothing rare before it, it returns end, just
// past the quote. Otherwise end is 0 and next the offset of the first block that holds a \u
// escape in the surrogate range or anything wrong, for scanBlocks to settle with c (what is
// carried into that block), or that runs past n. i is never 0: d[i-1] is read (the string's
// opening quote, or a byte of it).
//
// Registers: SI d, DX the block's offset, R8 to R11 c's fields; n and vbmi are read from the
// frame, leaving CX and R14 free (R14, g's register in Go's own calling convention, is free in
// assembly called with the stack-based one, whose callers restore it).
TEXT ·scanBlocksAVX512(SB), NOSPLIT, $0-56
	MOVQ      d+0(FP), SI
	MOVQ      i+8(FP), DX
	MOVQ      c+24(FP), DI
	MOVQ      blockCarry_esc(DI), R8
	MOVQ      blockCarry_need(DI), R9
	MOVQ      blockCarry_escapes(DI), R10
	MOVQ      blockCarry_safe(DI), R11
	VMOVDQU64 classes<>+0(SB), Z2
	VMOVDQU64 classes<>+64(SB), Z3

loop:
	LEAQ    64(DX), AX
	CMPQ    AX, n+16(FP)
	JGT     done
	MOVQ    R8, AX
	ORQ     R9, AX
	CMOVQEQ DX, R11 // nothing carried into this block: the careful scan may start here

	PREFETCHT0 512(SI)(DX*1) // as in classifyAVX512
	VMOVDQU64  (SI)(DX*1), Z0
	VPCMPEQB   z22<>(SB), Z0, K1 // quote
	VPCMPEQB   z5c<>(SB), Z0, K2 // backslash
	VPMOVB2M   Z0, K3            // high

	// K4 lead bytes, K5 those from E0 on, K6 those from F0 on, K7 the odd ones.
	CMPB vbmi+32(FP), $0
	JEQ  leadsByCompare
	// The tests are masked by K3, since these classes are those of bytes from 0x80 on. Here
	// and below a masked compare replaces a compare and a KANDQ: logic on mask registers runs
	// on one execution port only, and it was the busiest port of this loop.
	VMOVDQA64 Z0, Z1
	VPERMI2B  Z3, Z2, Z1 // Z1 = the class of each byte
	VPTESTMB  z08<>(SB), Z1, K3, K4
	VPTESTMB  z10<>(SB), Z1, K3, K5
	VPTESTMB  z20<>(SB), Z1, K3, K6
	VPTESTMB  z40<>(SB), Z1, K3, K7
	JMP       utf8

leadsByCompare:
	VPCMPUB  $5, zc0<>(SB), Z0, K4
	VPCMPUB  $5, ze0<>(SB), Z0, K5
	VPCMPUB  $5, zf0<>(SB), Z0, K6
	VPCMPUB  $5, zc2<>(SB), Z0, K7
	KANDNQ   K4, K7, K7 // C0 C1
	KMOVQ    K7, AX
	VPCMPEQB ze0<>(SB), Z0, K7
	KMOVQ    K7, BX
	ORQ      BX, AX
	VPCMPEQB zed<>(SB), Z0, K7
	KMOVQ    K7, BX
	ORQ      BX, AX
	VPCMPEQB zf0<>(SB), Z0, K7
	KMOVQ    K7, BX
	ORQ      BX, AX
	VPCMPUB  $5, zf4<>(SB), Z0, K7
	KMOVQ    K7, BX
	ORQ      BX, AX
	KMOVQ    AX, K7

utf8:
	// utf8Mismatch: BX = the bytes where it fails, AX = the continuation bytes called for at
	// the next block's start.
	KMOVQ K4, AX
	KMOVQ K3, BX
	ANDNQ BX, AX, BX         // the continuation bytes there are
	LEAQ  (AX)(AX*1), R12    // the continuation bytes called for
	SHRQ  $63, AX
	KMOVQ K5, R13
	LEAQ  (R13*4), DI
	ORQ   DI, R12
	SHRQ  $62, R13
	ORQ   R13, AX
	KMOVQ K6, R13
	LEAQ  (R13*8), DI
	ORQ   DI, R12
	SHRQ  $61, R13
	ORQ   R13, AX
	MOVQ  R9, DI
	ANDQ  $7, DI // the continuation bytes called for by the last block (R9 from bit 8: hex digits)
	ORQ   DI, R12
	XORQ  R12, BX

	// The odd lead bytes (K7): C0 C1 and F5-FF are never valid, and the second byte after E0,
	// ED, F0 and F4 must be from A0 on, below A0, from 90 on and below 90. A lead in the
	// block's last byte has its second byte tested in the next block (need's bits 4 to 7).
	MOVQ     R9, DI
	SHRQ     $4, DI
	ANDQ     $15, DI
	KORTESTQ K7, K7
	JNZ      oddLeads
	TESTQ    DI, DI
	JZ       oddDone

oddLeads:
	VPCMPUB $5, zc0<>(SB), Z0, K4
	VPCMPUB $1, zc2<>(SB), Z0, K5
	KANDQ   K5, K4, K4
	VPCMPUB $5, zf5<>(SB), Z0, K5
	KORQ    K5, K4, K4
	KMOVQ   K4, R12
	ORQ     R12, BX // never valid
	VPCMPUB $1, za0<>(SB), Z0, K4
	VPCMPUB $1, z90<>(SB), Z0, K5
	ODDLEAD(ze0, 0, BELOW(K4))
	ODDLEAD(zed, 1, FROM(K4))
	ODDLEAD(zf0, 2, BELOW(K5))
	ODDLEAD(zf4, 3, FROM(K5))

oddDone:

	// escapedBy: R13 = the escaped bytes, R12 = the carry into the next block.
	KMOVQ K2, R12
	ESCAPEDBY

	// From here on the masks go to general-purpose registers as soon as they are made, and the
	// arithmetic is done there: one KMOVQ per mask instead of a KANDQ, KORQ or KSHIFTLQ per
	// step, since logic on mask registers runs on one execution port only (the loop's busiest),
	// and general-purpose logic on four or more.
	//
	// DI the escape letters (" \ / b f n r t u): an escaped byte that is none of them is
	// wrong, a byte from 0x80 on included (the lookup's classes of ASCII bytes are taken off
	// those, which share their low seven bits). With the lookup, K7 keeps the ASCII bytes for
	// the hex digits below.
	CMPB      vbmi+32(FP), $0
	JEQ       lettersByCompare
	VPTESTNMB z80<>(SB), Z0, K7 // below 0x80
	VPTESTMB  z06<>(SB), Z1, K7, K5
	KMOVQ     K5, DI
	JMP       escapes

lettersByCompare:
	VPCMPEQB z22<>(SB), Z0, K5
	VPCMPEQB z5c<>(SB), Z0, K6
	KORQ     K6, K5, K5
	VPCMPEQB z2f<>(SB), Z0, K6
	KORQ     K6, K5, K5
	VPCMPEQB z62<>(SB), Z0, K6
	KORQ     K6, K5, K5
	VPCMPEQB z66<>(SB), Z0, K6
	KORQ     K6, K5, K5
	VPCMPEQB z6e<>(SB), Z0, K6
	KORQ     K6, K5, K5
	VPCMPEQB z72<>(SB), Z0, K6
	KORQ     K6, K5, K5
	VPCMPEQB z74<>(SB), Z0, K6
	KORQ     K6, K5, K5
	VPCMPEQB z75<>(SB), Z0, K6
	KORQ     K6, K5, K5
	KMOVQ    K5, DI

escapes:
	ANDNQ   R13, DI, DI // escaped, and no escape letter
	ORQ     DI, BX
	VPCMPUB $1, z20<>(SB), Z0, K6 // below 0x20: control characters
	KMOVQ   K6, DI
	ORQ     DI, BX

	// \u escapes (R14): their four hex digits must follow, those the last block called for
	// included (R9 from bit 8), and those past this block are called for in the next (AX from
	// bit 8). One in the surrogate range (D800-DFFF, for which scanBlocks sets
	// SurrogateEscape) is scanBlocks'; when its u is in the block's last two bytes, its second
	// digit is the next block's first or second byte (AX's bit 12 or 13), tested there. CX,
	// DI and R14 are free for this; R8 and R9 must stay what was carried into the block, for
	// scanBlocks when it is handed over.
	VPCMPEQB z75<>(SB), Z0, K6
	KMOVQ    K6, R14
	ANDQ     R13, R14 // the escaped u's
	MOVQ     R9, DI
	SHRQ     $8, DI
	ORQ      R14, DI
	JZ       noHex

	// The digits that fall in the next block, of a u in the block's last four bytes (AX from
	// bit 8: a u at bit 60 calls for the next block's byte 0, one at 63 for bytes 0 to 3, so
	// u>>63 | u>>62 | u>>61 | u>>60), and the second digit of one in the last two (AX's bits 12
	// and 13: a u at bit 62 has it at byte 0, one at 63 at byte 1).
	MOVQ R14, DI
	SHRQ $1, DI
	ORQ  R14, DI
	MOVQ DI, CX
	SHRQ $2, CX
	ORQ  CX, DI
	SHRQ $52, DI
	ANDL $0xf00, DI // bits 60-63 to 8-11
	ORQ  DI, AX
	MOVQ R14, DI
	SHRQ $62, DI
	SHLQ $12, DI
	ORQ  DI, AX

	// Surrogates: a d or D as the first digit and 8 9 a-f A-F as the second. Among hex digits
	// those are the ones with bit 0x08 or 0x40 set (a second digit that is none is wrong
	// below anyway), and the byte before each is loaded as a block of its own rather than
	// the mask shifted: K4 the bytes that have both, which matter as second digits, two bytes
	// after a u, or where the last block's carry says (R9's bits 12 and 13). (The block never
	// starts the input: its string's opening quote comes before it.)
	VPTESTMB  z48<>(SB), Z0, K4
	VMOVDQU64 -1(SI)(DX*1), Z4
	VPORQ     z20<>(SB), Z4, Z4 // letters in lower case
	VPCMPEQB  z64<>(SB), Z4, K4, K4
	KMOVQ     K4, DI
	MOVQ      R9, CX
	SHRQ      $12, CX
	LEAQ      (CX)(R14*4), CX // the second digits
	ANDQ      CX, DI
	ORQ       DI, BX

	// CX the hex digits called for: those after each u (up to four, and never past the
	// block: those are carried above), and those the last block called for.
	MOVQ R9, CX
	SHRQ $8, CX
	ANDL $15, CX
	LEAQ (R14)(R14*1), DI
	ORQ  R14, DI
	ADDQ DI, DI
	ORQ  DI, CX
	SHLQ $2, DI
	ORQ  DI, CX

	// DI the hex digits: with the lookup, a class of the ASCII bytes (K7); else compares.
	CMPB     vbmi+32(FP), $0
	JEQ      hexByCompare
	VPTESTMB z80<>(SB), Z1, K7, K6
	KMOVQ    K6, DI
	JMP      hexDigits

hexByCompare:
	VPCMPUB $5, z30<>(SB), Z0, K6
	VPCMPUB $2, z39<>(SB), Z0, K6, K6 // 0-9
	KMOVQ   K6, DI
	VPORQ   z20<>(SB), Z0, Z4         // letters in lower case
	VPCMPUB $5, z61<>(SB), Z4, K6
	VPCMPUB $2, z66<>(SB), Z4, K6, K6 // a-f A-F
	KMOVQ   K6, R14 // the u's are no longer needed
	ORQ     R14, DI

hexDigits:
	ANDNQ CX, DI, CX // called for, and no hex digit
	ORQ   CX, BX

noHex:
	KMOVQ K1, DI
	ANDNQ DI, R13, DI // the closing quote: a quote not escaped
	JNZ   closed
	TESTQ  BX, BX
	JNZ    done

	ORQ  R13, R10
	MOVQ R12, R8
	MOVQ AX, R9
	ADDQ $64, DX
	JMP  loop

closed:
	// Only the bytes up to the closing quote count.
	LEAQ   -1(DI), AX
	XORQ   DI, AX
	ANDQ   AX, BX
	JNZ    done
	ANDQ   AX, R13
	ORQ    R13, R10
	TZCNTQ DI, DI
	LEAQ   1(DX)(DI*1), AX
	MOVQ   c+24(FP), DI
	MOVQ   R10, blockCarry_escapes(DI)
	MOVQ   DX, next+40(FP)
	MOVQ   AX, end+48(FP)
	VZEROUPPER
	RET

done:
	MOVQ c+24(FP), DI
	MOVQ R8, blockCarry_esc(DI)
	MOVQ R9, blockCarry_need(DI)
	MOVQ R10, blockCarry_escapes(DI)
	MOVQ R11, blockCarry_safe(DI)
	MOVQ DX, next+40(FP)
	MOVQ $0, end+48(FP)
	VZEROUPPER
	RET

// MASKTO puts the top bits of the bytes of Y2 (low half) and Y3 (high half) in dst, with tmp.
#define MASKTO(dst, tmp) \
	VPMOVMSKB Y2, dst; \
	VPMOVMSKB Y3, tmp; \
	SHLQ      $32, tmp; \
	ORQ       tmp, dst

// CMPEQ2 puts the bytes equal to const (a memory operand or a register) in Y2 and Y3.
#define CMPEQ2(const) \
	VPCMPEQB const, Y0, Y2; \
	VPCMPEQB const, Y1, Y3

// OREQ2 ORs the bytes equal to const into Y2 and Y3.
#define OREQ2(const) \
	VPCMPEQB const, Y0, Y5; \
	VPCMPEQB const, Y1, Y6; \
	VPOR     Y5, Y2, Y2; \
	VPOR     Y6, Y3, Y3

// ODDLEAD2 is ODDLEAD for scanBlocksAVX2: the carried leads in R14, second's mask on the stack.
#define ODDLEAD2(lead, bit, second) \
	CMPEQ2(lead<>(SB)); \
	MASKTO(R12, DI); \
	SECONDBYTES(bit, R14, second)

// BELOW2 puts in R13 the bytes below a bound, from off(SP); FROM2 those from it on.
#define BELOW2(off) MOVQ off(SP), R13
#define FROM2(off) MOVQ off(SP), R13; NOTQ R13

// func scanBlocksAVX2(d *byte, i, n int, c *blockCarry) (next, end int)
//
// scanBlocksAVX512 with AVX2: each mask from two 32-byte halves (as classifyAVX2 makes them),
// in general-purpose registers, used as soon as it is made. Registers as there, R14 being free
// for the masks; Y8 to Y13 hold constants.
TEXT ·scanBlocksAVX2(SB), NOSPLIT, $16-48
	MOVQ    d+0(FP), SI
	MOVQ    i+8(FP), DX
	MOVQ    n+16(FP), CX
	MOVQ    c+24(FP), DI
	MOVQ    blockCarry_esc(DI), R8
	MOVQ    blockCarry_need(DI), R9
	MOVQ    blockCarry_escapes(DI), R10
	MOVQ    blockCarry_safe(DI), R11
	VMOVDQU z22<>(SB), Y8
	VMOVDQU z5c<>(SB), Y9
	VMOVDQU zbf<>(SB), Y10
	VMOVDQU zdf<>(SB), Y11
	VMOVDQU zef<>(SB), Y12
	VMOVDQU z20<>(SB), Y13

loop:
	LEAQ    64(DX), AX
	CMPQ    AX, CX
	JGT     done
	MOVQ    R8, AX
	ORQ     R9, AX
	CMOVQEQ DX, R11 // nothing carried into this block: the careful scan may start here

	PREFETCHT0 512(SI)(DX*1)
	VMOVDQU    (SI)(DX*1), Y0
	VMOVDQU    32(SI)(DX*1), Y1
	VPMOVMSKB  Y0, R14
	VPMOVMSKB  Y1, DI
	SHLQ       $32, DI
	ORQ        DI, R14 // high

	// utf8Mismatch: BX = the bytes where it fails, AX = the continuation bytes called for at
	// the next block's start. As signed bytes, ASCII is greater than each bound: the lead
	// masks keep the non-ASCII bits only.
	VPCMPGTB Y10, Y0, Y2
	VPCMPGTB Y10, Y1, Y3
	MASKTO(AX, DI)
	ANDQ     R14, AX // lead
	MOVQ     AX, R12
	NOTQ     R12
	MOVQ     R14, BX
	ANDQ     R12, BX // the continuation bytes there are
	LEAQ     (AX)(AX*1), R12 // the continuation bytes called for
	SHRQ     $63, AX
	VPCMPGTB Y11, Y0, Y2
	VPCMPGTB Y11, Y1, Y3
	MASKTO(R13, DI)
	ANDQ     R14, R13 // lead3
	LEAQ     (R13*4), DI
	ORQ      DI, R12
	SHRQ     $62, R13
	ORQ      R13, AX
	VPCMPGTB Y12, Y0, Y2
	VPCMPGTB Y12, Y1, Y3
	MASKTO(R13, DI)
	ANDQ     R14, R13 // lead4
	LEAQ     (R13*8), DI
	ORQ      DI, R12
	SHRQ     $61, R13
	ORQ      R13, AX
	MOVQ     R9, DI
	ANDQ     $7, DI // the continuation bytes called for by the last block (R9 from bit 8: hex digits)
	ORQ      DI, R12
	XORQ     R12, BX

	// Control characters: 0x20 > x as signed bytes, which the non-ASCII bytes are too.
	VPCMPGTB Y0, Y13, Y2
	VPCMPGTB Y1, Y13, Y3
	MASKTO(R13, DI)
	MOVQ     R14, DI
	NOTQ     DI
	ANDQ     DI, R13
	ORQ      R13, BX

	// The odd lead bytes (C0 C1 E0 ED F0 F4-FF), in R12, and as scanBlocksAVX512 tests them:
	// C0 C1 and F5-FF never valid, the second byte after E0, ED, F0 and F4 from A0 on, below
	// A0, from 90 on and below 90; a lead in the block's last byte carried in need's bits 4-7
	// (R14 here).
	VMOVDQU  zf3<>(SB), Y4
	VPCMPGTB Y4, Y0, Y2
	VPCMPGTB Y4, Y1, Y3
	VMOVDQU  zfe<>(SB), Y4
	VPAND    Y4, Y0, Y5
	VPAND    Y4, Y1, Y6
	VMOVDQU  zc0<>(SB), Y4
	VPCMPEQB Y4, Y5, Y5
	VPCMPEQB Y4, Y6, Y6
	VPOR     Y5, Y2, Y2
	VPOR     Y6, Y3, Y3
	OREQ2(ze0<>(SB))
	OREQ2(zed<>(SB))
	OREQ2(zf0<>(SB))
	MASKTO(R12, DI)
	ANDQ     R14, R12
	MOVQ     R9, R14
	SHRQ     $4, R14
	ANDQ     $15, R14
	MOVQ     R12, R13
	ORQ      R14, R13
	JZ       oddDone
	VMOVDQU  zfe<>(SB), Y4
	VPAND    Y4, Y0, Y2
	VPAND    Y4, Y1, Y3
	VMOVDQU  zc0<>(SB), Y4
	VPCMPEQB Y4, Y2, Y2
	VPCMPEQB Y4, Y3, Y3 // C0 C1
	VMOVDQU  zf5<>(SB), Y4
	VPMAXUB  Y4, Y0, Y5
	VPCMPEQB Y5, Y0, Y5
	VPMAXUB  Y4, Y1, Y6
	VPCMPEQB Y6, Y1, Y6 // F5-FF
	VPOR     Y5, Y2, Y2
	VPOR     Y6, Y3, Y3
	MASKTO(R12, DI)
	ORQ      R12, BX // never valid
	VMOVDQU  za0<>(SB), Y4 // second bytes below A0 (as signed bytes: among the non-ASCII ones)
	VPCMPGTB Y0, Y4, Y2
	VPCMPGTB Y1, Y4, Y3
	MASKTO(R12, DI)
	MOVQ     R12, 0(SP)
	VMOVDQU  z90<>(SB), Y4 // below 90
	VPCMPGTB Y0, Y4, Y2
	VPCMPGTB Y1, Y4, Y3
	MASKTO(R12, DI)
	MOVQ     R12, 8(SP)
	ODDLEAD2(ze0, 0, BELOW2(0))
	ODDLEAD2(zed, 1, FROM2(0))
	ODDLEAD2(zf0, 2, BELOW2(8))
	ODDLEAD2(zf4, 3, FROM2(8))

oddDone:
	// escapedBy: R13 = the escaped bytes, R12 = the carry into the next block.
	CMPEQ2(Y9)
	MASKTO(R12, DI)
	ESCAPEDBY

	// Escaped bytes that are no letter of a two-byte escape (nor u): wrong.
	CMPEQ2(Y8)
	OREQ2(Y9)
	OREQ2(z2f<>(SB))
	OREQ2(z62<>(SB))
	OREQ2(z66<>(SB))
	OREQ2(z6e<>(SB))
	OREQ2(z72<>(SB))
	OREQ2(z74<>(SB))
	OREQ2(z75<>(SB))
	MASKTO(R14, DI)
	NOTQ  R14
	ANDQ  R13, R14
	ORQ   R14, BX

	// \u escapes (R14), much as scanBlocksAVX512 checks them: their hex digits, those the
	// last block called for included, and those past this one called for in the next (AX from
	// bit 8); surrogates and (unlike there) a u in the block's last two bytes are scanBlocks'. R12 and R13 wait on
	// the stack meanwhile.
	CMPEQ2(z75<>(SB))
	MASKTO(R14, DI)
	ANDQ  R13, R14
	MOVQ  R9, DI
	SHRQ  $8, DI
	TESTQ R14, R14
	JNZ   hexDigits
	TESTQ DI, DI
	JZ    noHex

hexDigits:
	MOVQ  R12, 0(SP)
	MOVQ  R13, 8(SP)
	LEAQ  (R14)(R14*1), R12
	ORQ   R12, DI
	LEAQ  (R14*4), R12
	ORQ   R12, DI
	LEAQ  (R14*8), R12
	ORQ   R12, DI
	MOVQ  R14, R12
	SHLQ  $4, R12
	ORQ   R12, DI // the hex digits called for
	VPCMPGTB z2f<>(SB), Y0, Y2
	VMOVDQU  z3a<>(SB), Y4
	VPCMPGTB Y0, Y4, Y5
	VPAND    Y5, Y2, Y2 // 0-9
	VPCMPGTB z2f<>(SB), Y1, Y3
	VPCMPGTB Y1, Y4, Y6
	VPAND    Y6, Y3, Y3
	VPOR     z20<>(SB), Y0, Y14 // letters in lower case, kept for the surrogates
	VPOR     z20<>(SB), Y1, Y15
	VMOVDQU  z67<>(SB), Y4
	VPCMPGTB z60<>(SB), Y14, Y5
	VPCMPGTB Y14, Y4, Y6
	VPAND    Y6, Y5, Y5 // a-f A-F
	VPOR     Y5, Y2, Y2
	VPCMPGTB z60<>(SB), Y15, Y5
	VPCMPGTB Y15, Y4, Y6
	VPAND    Y6, Y5, Y5
	VPOR     Y5, Y3, Y3
	MASKTO(R12, R13)
	NOTQ  R12
	ANDQ  DI, R12 // called for, and no hex digit
	ORQ   R12, BX
	VPCMPEQB z64<>(SB), Y14, Y2 // d D
	VPCMPEQB z64<>(SB), Y15, Y3
	MASKTO(R12, R13)
	LEAQ  (R14)(R14*1), DI
	ANDQ  DI, R12
	SHLQ  $1, R12 // the second digits of \ud escapes
	VPCMPGTB z37<>(SB), Y14, Y2
	VMOVDQU  z3a<>(SB), Y4
	VPCMPGTB Y14, Y4, Y5
	VPAND    Y5, Y2, Y2 // 8 9
	VPCMPGTB z37<>(SB), Y15, Y3
	VPCMPGTB Y15, Y4, Y6
	VPAND    Y6, Y3, Y3
	VMOVDQU  z67<>(SB), Y4
	VPCMPGTB z60<>(SB), Y14, Y5
	VPCMPGTB Y14, Y4, Y6
	VPAND    Y6, Y5, Y5 // a-f A-F: with 8 9, D800-DFFF
	VPOR     Y5, Y2, Y2
	VPCMPGTB z60<>(SB), Y15, Y5
	VPCMPGTB Y15, Y4, Y6
	VPAND    Y6, Y5, Y5
	VPOR     Y5, Y3, Y3
	MASKTO(R13, DI)
	ANDQ  R13, R12 // surrogates
	ORQ   R12, BX
	MOVQ  R14, R12
	SHRQ  $62, R12 // a \u in the last two bytes
	ORQ   R12, BX
	MOVQ  R14, R12
	SHRQ  $60, R12 // a u at bit 60 or 61 (62 and 63 went to scanBlocks above)
	MOVQ  R14, R13
	SHRQ  $61, R13
	ORQ   R13, R12
	SHLQ  $8, R12
	ORQ   R12, AX
	MOVQ  0(SP), R12
	MOVQ  8(SP), R13

noHex:

	// The closing quote, in DI.
	CMPEQ2(Y8)
	MASKTO(R14, DI)
	MOVQ  R13, DI
	NOTQ  DI
	ANDQ  R14, DI
	TESTQ DI, DI
	JNZ   closed
	TESTQ BX, BX
	JNZ   done

	ORQ  R13, R10
	MOVQ R12, R8
	MOVQ AX, R9
	ADDQ $64, DX
	JMP  loop

closed:
	// Only the bytes up to the closing quote count.
	LEAQ   -1(DI), AX
	XORQ   DI, AX
	ANDQ   AX, BX
	JNZ    done
	ANDQ   AX, R13
	ORQ    R13, R10
	TZCNTQ DI, DI
	LEAQ   1(DX)(DI*1), AX
	MOVQ   c+24(FP), DI
	MOVQ   R10, blockCarry_escapes(DI)
	MOVQ   DX, next+32(FP)
	MOVQ   AX, end+40(FP)
	VZEROUPPER
	RET

done:
	MOVQ c+24(FP), DI
	MOVQ R8, blockCarry_esc(DI)
	MOVQ R9, blockCarry_need(DI)
	MOVQ R10, blockCarry_escapes(DI)
	MOVQ R11, blockCarry_safe(DI)
	MOVQ DX, next+32(FP)
	MOVQ $0, end+40(FP)
	VZEROUPPER
	RET

// The nibble tables of the Keiser-Lemire UTF-8 check (simdjson's lookup4, simdutf's), each of
// 16 bytes repeated in the four lanes VPSHUFB looks up within. Their bits: 0x01 too short (a
// lead byte not followed by a continuation byte), 0x02 too long (a continuation byte after
// ASCII), 0x04 overlong of three bytes (E0 80-9F), 0x08 past U+10FFFF (F4 90-BF, F5-FF), 0x10
// surrogate (ED A0-BF), 0x20 overlong of two bytes (C0 C1), 0x40 overlong of four bytes (F0
// 80-8F) or past U+10FFFF (F5-FF 80-8F), 0x80 two continuation bytes in a row (right only as
// a lead's third or fourth byte, which the check then takes off). A pair of bytes is wrong
// where the three lookups, by the high and low nibble of the first and the high nibble of the
// second, share a bit.
#define NIBBLES(name, lo, hi) \
	DATA name<>+0(SB)/8, $lo; \
	DATA name<>+8(SB)/8, $hi; \
	DATA name<>+16(SB)/8, $lo; \
	DATA name<>+24(SB)/8, $hi; \
	DATA name<>+32(SB)/8, $lo; \
	DATA name<>+40(SB)/8, $hi; \
	DATA name<>+48(SB)/8, $lo; \
	DATA name<>+56(SB)/8, $hi; \
	GLOBL name<>(SB), RODATA|NOPTR, $64

NIBBLES(utf8Byte1High, 0x0202020202020202, 0x4915012180808080)
NIBBLES(utf8Byte1Low, 0xcbcbcb8b8383a3e7, 0xcbcbdbcbcbcbcbcb)
NIBBLES(utf8Byte2High, 0x0101010101010101, 0x01010101babaaee6)

BYTES64(z03, 0x0303030303030303)
BYTES64(z0a, 0x0a0a0a0a0a0a0a0a)
BYTES64(z0f, 0x0f0f0f0f0f0f0f0f)
BYTES64(z70, 0x7070707070707070)

// hexHigh and hexLow give a byte's hex class by its high and low nibble, ANDed: 0x01 0-9, 0x02
// a-f A-F, 0x04 d D, 0x08 8 9 (what a \u escape's first two digits are tested for: D800-DFFF is
// a surrogate).
NIBBLES(hexHigh, 0x0006000609000000, 0x0000000000000000)
NIBBLES(hexLow, 0x0103030703030301, 0x0000000000000909)

// notLetter maps a byte below 0x80 to 0x80 unless a backslash may stand before it in a
// two-byte escape (" \ / b f n r t): u is no such letter, and \u escapes take a second look.
DATA notLetter<>+0(SB)/8, $0x8080808080808080
DATA notLetter<>+8(SB)/8, $0x8080808080808080
DATA notLetter<>+16(SB)/8, $0x8080808080808080
DATA notLetter<>+24(SB)/8, $0x8080808080808080
DATA notLetter<>+32(SB)/8, $0x8080808080008080
DATA notLetter<>+40(SB)/8, $0x0080808080808080
DATA notLetter<>+48(SB)/8, $0x8080808080808080
DATA notLetter<>+56(SB)/8, $0x8080808080808080
DATA notLetter<>+64(SB)/8, $0x8080808080808080
DATA notLetter<>+72(SB)/8, $0x8080808080808080
DATA notLetter<>+80(SB)/8, $0x8080808080808080
DATA notLetter<>+88(SB)/8, $0x8080800080808080
DATA notLetter<>+96(SB)/8, $0x8000808080008080
DATA notLetter<>+104(SB)/8, $0x8000808080808080
DATA notLetter<>+112(SB)/8, $0x8080800080008080
DATA notLetter<>+120(SB)/8, $0x8080808080808080
GLOBL notLetter<>(SB), RODATA|NOPTR, $128

// UNICODE is the scan of a block's \u escapes for both loops of scanStringVBMI, with the
// escaped bytes in R13 and the wrong escapes in R9, which it clears of the \u ones and to
// which it adds their digits that are no hex digits. Four digits must follow each, the last
// block's included (R11 bits 0-3), and those past this block are called for in the next; a
// first digit d or D and a second from 8 on (D800-DFFF) make a surrogate, whose second digit
// goes to R12. The escapes of a valid block are six bytes apart at least, so the digits' four
// shifts do not overlap and their OR is a product: AX*30. Where two are closer, the second's
// backslash is among the first's digits, below every bit an overlap can carry into, and
// fails as no hex digit. What passes the block is ((AX>>59)*30)>>5; a \u at the last byte
// sets bit 3 of it, for the first digit at the next block's first byte, and a first digit d
// or D there sets bit 5. Z16 holds the block's high nibbles.
#define UNICODE \
	VPCMPEQB  z75<>(SB), Z0, K2; \
	VPANDD    Z8, Z0, Z24; \
	VPSHUFB   Z16, Z25, Z26; \
	VPSHUFB   Z24, Z27, Z24; \
	VPANDD    Z26, Z24, Z24; \
	VPTESTNMB z03<>(SB), Z24, K5; \
	VPTESTMB  z04<>(SB), Z24, K6; \
	VPTESTMB  z0a<>(SB), Z24, K7; \
	KMOVQ     K2, AX; \
	ANDQ      R13, AX; \
	ANDNQ     R9, AX, R9; \
	IMUL3Q    $30, AX, BX; \
	MOVQ      R11, DI; \
	ANDQ      $15, DI; \
	ORQ       DI, BX; \
	KMOVQ     K5, DI; \
	ANDQ      DI, BX; \
	ORQ       BX, R9; \
	MOVQ      AX, BX; \
	BTQ       $3, R11; \
	ADCQ      BX, BX; \
	KMOVQ     K6, DI; \
	ANDQ      DI, BX; \
	BTQ       $5, R11; \
	ADCQ      BX, BX; \
	SBBQ      DI, DI; \
	ANDQ      $32, DI; \
	KMOVQ     K7, R12; \
	ANDQ      BX, R12; \
	SHRQ      $59, AX; \
	IMUL3Q    $30, AX, R11; \
	SHRQ      $5, R11; \
	ORQ       DI, R11

// ESCAPES is both loops' step from the block's masks, K2 the backslashes and K4 the bytes a
// two-byte escape may not name, to the escaped bytes (R13) and the wrong escapes (R9), with
// R12 cleared for the surrogates; unicode is the label for a block that holds a \u escape or
// digits the last block called for.
#define ESCAPES(unicode) \
	KMOVQ K2, R12; \
	ESCAPEDBY; \
	MOVQ  R12, R8; \
	XORQ  R12, R12; \
	KMOVQ K4, R9; \
	ANDQ  R13, R9; \
	MOVQ  R9, AX; \
	ORQ   R11, AX; \
	JNZ   unicode

// NEXTBLOCK is both loops' step past a block once its escapes are settled: the control
// characters (K3) join the wrong escapes (R9); at a closing quote, a quote (K1) no backslash
// escapes, it goes to closed with the quote's bit in DI; else anything wrong fails, and the
// block's escapes and surrogates are kept for the flags before loop takes the next block.
#define NEXTBLOCK(closed, loop) \
	KMOVQ K1, AX; \
	KMOVQ K3, BX; \
	ORQ   BX, R9; \
	ANDNQ AX, R13, DI; \
	JNZ   closed; \
	TESTQ R9, R9; \
	JNZ   vfail; \
	ORQ   R13, R10; \
	ORQ   R12, R14; \
	ADDQ  $64, DX; \
	JMP   loop

// CLOSED is both loops' end at the closing quote, DI the quote's bit and wide the flags' bit 2:
// only the bytes up to the quote count.
#define CLOSED(wide) \
	LEAQ     -1(DI), AX; \
	XORQ     DI, AX; \
	ANDQ     AX, R9; \
	JNZ      vfail; \
	ANDQ     AX, R13; \
	ORQ      R13, R10; \
	ANDQ     AX, R12; \
	ORQ      R12, R14; \
	TZCNTQ   DI, DI; \
	LEAQ     1(DX)(DI*1), AX; \
	MOVQ     AX, end+32(FP); \
	XORQ     AX, AX; \
	TESTQ    R10, R10; \
	SETNE    AL; \
	XORQ     BX, BX; \
	TESTQ    R14, R14; \
	SETNE    BL; \
	LEAQ     wide(AX)(BX*2), AX; \
	MOVQ     AX, flags+40(FP); \
	VZEROUPPER; \
	RET

// func scanStringVBMI(d *byte, i, n int, ascii bool) (end int, flags uint64)
//
// The string scan's first try where the CPU has AVX512-VBMI: the content of a string from
// d[i] (no continuation byte, nothing escaped), 64 bytes at a time while a whole block is left
// before n. UTF-8 is checked in vector registers by the Keiser-Lemire lookups, of the pairs of
// bytes and of the bytes that must be a third or fourth byte, against the block before (zero
// before the first: ASCII); their errors are ORed into Z20, which is tested once, at the
// closing quote (the bytes after it count too: an error there only sends the string to
// scanBlocks). Logic on mask registers runs on one execution port only, the bottleneck of
// scanBlocksAVX512, so a block moves just four masks to general-purpose registers: quotes,
// backslashes, control characters and the bytes a two-byte escape may not name; a block with
// a \u escape (or its digits) four more. It returns end, just past the closing quote, and
// flags (Escaped, SurrogateEscape) when all before it is valid, else end 0, for scanBlocks to
// scan the string again from i: anything wrong, and the input's last bytes.
//
// With ascii set it starts in a loop that leaves the lookups out while the blocks are ASCII,
// as all of a document Python's json.dumps writes are (it escapes every other character): the
// first block that holds a byte from 0x80 on is scanned again by the loop with the lookups,
// and the string and the rest of it from there on, which sets flags' bit 2 (wide) for the
// caller to start its next strings there.
//
// Registers: SI d, DX the block's offset, CX n, R8 the backslash carried into the block, R10
// the escapes so far, R11 what a \u escape carries into the block (UNICODE), R14 the
// surrogates so far; Z0 the block, Z1 the block before, Z20 the UTF-8 errors.
TEXT ·scanStringVBMI(SB), NOSPLIT, $0-48
	MOVQ      d+0(FP), SI
	MOVQ      i+8(FP), DX
	MOVQ      n+16(FP), CX
	XORQ      R8, R8
	XORQ      R10, R10
	XORQ      R11, R11
	XORQ      R14, R14
	VMOVDQU64 notLetter<>+0(SB), Z6
	VMOVDQU64 notLetter<>+64(SB), Z7
	VMOVDQU64 z0f<>(SB), Z8
	VMOVDQU64 z22<>(SB), Z21
	VMOVDQU64 z5c<>(SB), Z22
	VMOVDQU64 z20<>(SB), Z23
	VMOVDQU64 hexHigh<>(SB), Z25
	VMOVDQU64 hexLow<>(SB), Z27
	CMPB      ascii+24(FP), $0
	JNE       aloop

vwide:
	VMOVDQU64 utf8Byte1High<>(SB), Z2
	VMOVDQU64 utf8Byte1Low<>(SB), Z3
	VMOVDQU64 utf8Byte2High<>(SB), Z4
	VMOVDQU64 z60<>(SB), Z9
	VMOVDQU64 z70<>(SB), Z17
	VMOVDQU64 z80<>(SB), Z18
	VPXORQ    Z1, Z1, Z1
	VPXORQ    Z20, Z20, Z20

vloop:
	LEAQ 64(DX), AX
	CMPQ AX, CX
	JGT  vfail

	PREFETCHT0 512(SI)(DX*1) // as in classifyAVX512
	VMOVDQU64  (SI)(DX*1), Z0
	VPCMPEQB   Z21, Z0, K1     // quote
	VPCMPEQB   Z22, Z0, K2     // backslash
	VPCMPUB    $1, Z23, Z0, K3 // below 0x20
	VMOVDQA64  Z0, Z5
	VPERMI2B   Z7, Z6, Z5 // notLetter by the low seven bits
	VPORQ      Z0, Z5, Z5 // and every byte from 0x80 on
	VPMOVB2M   Z5, K4

	// UTF-8: Z10 holds, in each lane, the 16 bytes before the block's lane, so that Z11 to Z13
	// are the bytes one, two and three before each byte.
	VALIGNQ    $6, Z1, Z0, Z10
	VPALIGNR   $15, Z10, Z0, Z11
	VPALIGNR   $14, Z10, Z0, Z12
	VPALIGNR   $13, Z10, Z0, Z13
	// The lookups are VPERMB's, which read six bits of each index byte: the tables repeat
	// every 16 bytes, so the two bits above a nibble select nothing, and need no mask.
	VPSRLW     $4, Z11, Z14
	VPERMB     Z2, Z14, Z14
	VPERMB     Z3, Z11, Z15
	VPSRLW     $4, Z0, Z16 // the high nibbles, masked at vunicode for UNICODE
	VPERMB     Z4, Z16, Z19
	VPTERNLOGD $0x80, Z19, Z15, Z14 // the pairs' errors: the bits the three lookups share
	VPSUBUSB   Z9, Z12, Z12         // from 0x80 on where the byte two before is from E0 on
	VPSUBUSB   Z17, Z13, Z13        // or three before from F0 on
	VPTERNLOGD $0xa8, Z18, Z13, Z12 // (Z12 | Z13) & 0x80: a continuation byte is called for
	VPTERNLOGD $0xf6, Z12, Z14, Z20 // Z20 |= Z14 ^ Z12: two continuations right only there
	VMOVDQA64  Z0, Z1

	ESCAPES(vunicode)

vescaped:
	NEXTBLOCK(vclosed, vloop)

vclosed:
	VPTESTMB Z20, Z20, K1
	KORTESTQ K1, K1
	JNZ      vfail
	CLOSED(4)

vunicode:
	VPANDD Z8, Z16, Z16
	UNICODE
	JMP    vescaped

aloop:
	// The loop for ASCII blocks: vloop without the lookups. The block before an ASCII one
	// counts as zero in them, so vwide takes over at the first other block with Z1 zero.
	LEAQ 64(DX), AX
	CMPQ AX, CX
	JGT  vfail

	PREFETCHT0 512(SI)(DX*1)
	VMOVDQU64  (SI)(DX*1), Z0
	VPMOVB2M   Z0, K4
	KORTESTQ   K4, K4
	JNZ        vwide
	VPCMPEQB   Z21, Z0, K1
	VPCMPEQB   Z22, Z0, K2
	VPCMPUB    $1, Z23, Z0, K3
	VMOVDQA64  Z0, Z5
	VPERMI2B   Z7, Z6, Z5
	VPMOVB2M   Z5, K4

	ESCAPES(aunicode)

aescaped:
	NEXTBLOCK(aclosed, aloop)

aclosed:
	CLOSED(0)

aunicode:
	VPSRLW $4, Z0, Z16
	VPANDD Z8, Z16, Z16
	UNICODE
	JMP    aescaped

vfail:
	MOVQ $0, end+32(FP)
	MOVQ $0, flags+40(FP)
	VZEROUPPER
	RET

// pairs is the index of VPERMB that doubles each of 32 bytes: byte k to bytes 2k and 2k+1.
DATA pairs<>+0(SB)/8, $0x0303020201010000
DATA pairs<>+8(SB)/8, $0x0707060605050404
DATA pairs<>+16(SB)/8, $0x0b0b0a0a09090808
DATA pairs<>+24(SB)/8, $0x0f0f0e0e0d0d0c0c
DATA pairs<>+32(SB)/8, $0x1313121211111010
DATA pairs<>+40(SB)/8, $0x1717161615151414
DATA pairs<>+48(SB)/8, $0x1b1b1a1a19191818
DATA pairs<>+56(SB)/8, $0x1f1f1e1e1d1d1c1c
GLOBL pairs<>(SB), RODATA|NOPTR, $64

// func escapeASCII(dst *byte, room int, s *byte, n int) (read, written int)
//
// AppendStringContent's loop for printable ASCII, 32 bytes of s at a time (fewer at its end,
// by a masked load, which reads no byte past it): each byte is doubled (VPERMB), the first of
// each pair made a backslash, and VPCOMPRESSB keeps the second of every pair and the first of
// the pairs of '"' and '\\'. A masked store writes exactly the bytes kept. It stops at the
// first 32 bytes that hold a control character or a byte from 0x80 on, or whose escaped form
// would not fit in room, and returns how much of s it read and of dst it wrote.
TEXT ·escapeASCII(SB), NOSPLIT, $0-48
	MOVQ      dst+0(FP), DI
	MOVQ      room+8(FP), R8
	MOVQ      s+16(FP), SI
	MOVQ      n+24(FP), CX
	XORQ      DX, DX // read
	XORQ      BX, BX // written
	MOVQ      $0x5555555555555555, R9
	MOVQ      $0xaaaaaaaaaaaaaaaa, R10
	KMOVQ     R9, K5
	VMOVDQU64 pairs<>(SB), Z10
	VMOVDQU64 z5c<>(SB), Z11
	VMOVDQU64 z22<>(SB), Z12
	VMOVDQU64 z20<>(SB), Z13

eloop:
	MOVQ    CX, AX
	SUBQ    DX, AX
	JLE     edone
	MOVQ    $32, R12
	CMPQ    AX, R12
	CMOVQGT R12, AX // the chunk's length
	MOVQ    $-1, R12
	BZHIQ   AX, R12, R11 // its bytes
	KMOVQ   R11, K1
	VMOVDQU8.Z (SI)(DX*1), K1, Z0
	VPCMPUB $1, Z13, Z0, K1, K2 // control characters
	VPMOVB2M Z0, K3            // from 0x80 on
	KORQ     K2, K3, K3
	KORTESTQ K3, K3
	JNZ      edone
	VPCMPEQB Z12, Z0, K2
	VPCMPEQB Z11, Z0, K3
	KORQ     K2, K3, K2
	KMOVQ    K2, R12
	PDEPQ    R9, R12, R13 // the backslashes kept: the first of the escaped bytes' pairs
	PDEPQ    R10, R11, R11 // the second of every pair
	ORQ      R13, R11
	POPCNTQ  R11, R12 // the bytes written
	LEAQ     (BX)(R12*1), R13
	CMPQ     R13, R8
	JGT      edone
	KMOVQ    R11, K4
	VPERMB   Z0, Z10, Z1
	VMOVDQU8 Z11, K5, Z1
	VPCOMPRESSB Z1, K4, Z2
	MOVQ     $-1, R13
	BZHIQ    R12, R13, R13
	KMOVQ    R13, K6
	VMOVDQU8 Z2, K6, (DI)(BX*1)
	ADDQ     R12, BX
	ADDQ     AX, DX
	JMP      eloop

edone:
	MOVQ DX, read+32(FP)
	MOVQ BX, written+40(FP)
	VZEROUPPER
	RET

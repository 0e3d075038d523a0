#include "textflag.h"

// Each constant is one byte repeated over 32: the bytes compared against.
#define BYTES32(name, w) \
	DATA name<>+0(SB)/8, $w; \
	DATA name<>+8(SB)/8, $w; \
	DATA name<>+16(SB)/8, $w; \
	DATA name<>+24(SB)/8, $w; \
	GLOBL name<>(SB), RODATA|NOPTR, $32

BYTES32(quotes, 0x2222222222222222)
BYTES32(bslashes, 0x5c5c5c5c5c5c5c5c)
BYTES32(spaces, 0x2020202020202020)
BYTES32(xbf, 0xbfbfbfbfbfbfbfbf)
BYTES32(xdf, 0xdfdfdfdfdfdfdfdf)
BYTES32(xef, 0xefefefefefefefef)
BYTES32(xf3, 0xf3f3f3f3f3f3f3f3)
BYTES32(xfe, 0xfefefefefefefefe)
BYTES32(xc0, 0xc0c0c0c0c0c0c0c0)
BYTES32(xe0, 0xe0e0e0e0e0e0e0e0)
BYTES32(xed, 0xedededededededed)
BYTES32(xf0, 0xf0f0f0f0f0f0f0f0)

// MASK64 stores the top bits of the bytes of Y2 (low half) and Y3 (high half) as the uint64 at
// off(DI).
#define MASK64(off) \
	VPMOVMSKB Y2, AX; \
	VPMOVMSKB Y3, BX; \
	SHLQ      $32, BX; \
	ORQ       BX, AX; \
	MOVQ      AX, off(DI)

// CMPGT64 stores the mask of the bytes greater than const (as signed bytes) at off(DI).
#define CMPGT64(const, off) \
	VMOVDQU  const<>(SB), Y4; \
	VPCMPGTB Y4, Y0, Y2; \
	VPCMPGTB Y4, Y1, Y3; \
	MASK64(off)

// func classifyAVX2(b *[blockSize]byte, m *blockInfo)
//
// The offsets into m follow blockInfo's fields, which are all uint64: quote 0, bslash 8,
// ctlOrHigh 16, high 24, geC0 32, geE0 40, geF0 48, odd 56. The last four are only written when
// high is not zero.
TEXT ·classifyAVX2(SB), NOSPLIT, $0-16
	MOVQ    b+0(FP), SI
	MOVQ    m+8(FP), DI
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1

	VMOVDQU  quotes<>(SB), Y4
	VPCMPEQB Y4, Y0, Y2
	VPCMPEQB Y4, Y1, Y3
	MASK64(0)

	VMOVDQU  bslashes<>(SB), Y4
	VPCMPEQB Y4, Y0, Y2
	VPCMPEQB Y4, Y1, Y3
	MASK64(8)

	// 0x20 > x as signed bytes: a control character, or a byte from 0x80 on (negative).
	VMOVDQU  spaces<>(SB), Y4
	VPCMPGTB Y0, Y4, Y2
	VPCMPGTB Y1, Y4, Y3
	MASK64(16)

	VMOVDQA Y0, Y2
	VMOVDQA Y1, Y3
	MASK64(24)
	TESTQ   AX, AX
	JZ      done

	// Signed, ASCII is greater than all of these; the caller keeps the non-ASCII bits only.
	CMPGT64(xbf, 32)
	CMPGT64(xdf, 40)
	CMPGT64(xef, 48)

	// Lead bytes that need the second byte checked, or are never valid: C0 C1 E0 ED F0 F4-FF.
	VMOVDQU  xf3<>(SB), Y4
	VPCMPGTB Y4, Y0, Y2
	VPCMPGTB Y4, Y1, Y3
	VMOVDQU  xfe<>(SB), Y4
	VPAND    Y4, Y0, Y5
	VPAND    Y4, Y1, Y6
	VMOVDQU  xc0<>(SB), Y4
	VPCMPEQB Y4, Y5, Y5
	VPCMPEQB Y4, Y6, Y6
	VPOR     Y5, Y2, Y2
	VPOR     Y6, Y3, Y3
	VMOVDQU  xe0<>(SB), Y4
	VPCMPEQB Y4, Y0, Y5
	VPCMPEQB Y4, Y1, Y6
	VPOR     Y5, Y2, Y2
	VPOR     Y6, Y3, Y3
	VMOVDQU  xed<>(SB), Y4
	VPCMPEQB Y4, Y0, Y5
	VPCMPEQB Y4, Y1, Y6
	VPOR     Y5, Y2, Y2
	VPOR     Y6, Y3, Y3
	VMOVDQU  xf0<>(SB), Y4
	VPCMPEQB Y4, Y0, Y5
	VPCMPEQB Y4, Y1, Y6
	VPOR     Y5, Y2, Y2
	VPOR     Y6, Y3, Y3
	MASK64(56)

done:
	VZEROUPPER
	RET

package jsonscan

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
)

// TestStringScanAtPageEnd scans strings that end the input where the next page cannot be read:
// no scan may read past the input's last byte (the vector loops stop at the last whole block).
func TestStringScanAtPageEnd(t *testing.T) {
	mem, page := pageBeforeHole(t)
	pieces := []string{"a", "bcdefgh", " ", "é", "東", "😀", `\n`, `\"`, `\\`, `\u00e9`, `\ud83d\ude00`, "\xc3", "\xed\xa0\x80", "\x01", `\x`}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 20000 {
		var b strings.Builder
		b.WriteString(`"`)
		for n := rng.IntN(300); b.Len() < n; {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if rng.IntN(4) != 0 {
			b.WriteString(`"`)
		}
		for k := rng.IntN(3); k > 0; k-- {
			b.WriteString(" ")
		}
		doc := mem[page-b.Len() : page]
		copy(doc, b.String())
		forEachScan(func() { scanBoth(t, doc) })
	}
}

// TestCompactAtPageEnd compacts values that end the input where the next page cannot be read:
// compactVBMI2 loads its last block under a mask, which must read nothing past the value.
func TestCompactAtPageEnd(t *testing.T) {
	if !useCompactVBMI2 {
		t.Skip("the CPU has no AVX512-VBMI2")
	}
	mem, page := pageBeforeHole(t)
	values := []string{"1", "true", `"a b"`, `"\" "`, `"\\"`, `" "`, `{ "k" : [ ] }`, `[ null , "x" ]`, `"` + strings.Repeat("y ", 40) + `"`}
	spaces := []string{"", " ", "\n", "\t \r"}
	rng := rand.New(rand.NewPCG(13, 14))
	for range 20000 {
		var b strings.Builder
		b.WriteString("[")
		for n := 1 + rng.IntN(300); b.Len() < n; {
			if b.Len() > 1 {
				b.WriteString(",")
			}
			b.WriteString(spaces[rng.IntN(len(spaces))] + values[rng.IntN(len(values))] + spaces[rng.IntN(len(spaces))])
		}
		b.WriteString("]")
		src := mem[page-b.Len() : page]
		copy(src, b.String())
		dst := make([]byte, len(src)+64)
		if got, want := dst[:compactVBMI2(&dst[0], &src[0], len(src))], compactWant(t, src); !bytes.Equal(got, want) {
			t.Fatalf("compactVBMI2(%q) = %q, want %q", src, got, want)
		}
	}
}

// pageBeforeHole maps two pages, the second unreadable, and returns them and the page size.
func pageBeforeHole(t *testing.T) ([]byte, int) {
	t.Helper()
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	return mem, page
}

package jsonscan

import (
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
)

// TestStringScanAtPageEnd scans strings that end the input where the next page cannot be read:
// no scan may read past the input's last byte (the vector loops stop at the last whole block).
func TestStringScanAtPageEnd(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
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

package jsonscan

import (
	"strings"
	"testing"

	"github.com/dystopic/normalizer/internal/testkit/benchcpu"
	"github.com/dystopic/normalizer/internal/testkit/corpus"
)

// scans names the string scans the benchmarks compare: scanStringVBMI before the blocks, blocks
// classified with AVX512-VBMI, AVX-512 or AVX2, and words (what CPUs without AVX2 use).
var scans = []string{"vbmi-string", "vbmi", "avx512", "avx2", "words"}

// benchSkipValue validates doc with the scanner alone and the string scan impl (one of scans),
// reporting bytes per second and CPU per operation, or skips when the CPU cannot run impl.
func benchSkipValue(b *testing.B, doc []byte, impl string) {
	saved, saved512, savedVBMI, savedString := useBlocks, useAVX512, useVBMI, useStringVBMI
	defer func() { useBlocks, useAVX512, useVBMI, useStringVBMI = saved, saved512, savedVBMI, savedString }()
	useStringVBMI = useStringVBMI && impl == "vbmi-string"
	useVBMI = useVBMI && (impl == "vbmi" || impl == "vbmi-string")
	useAVX512 = useAVX512 && (impl == "avx512" || impl == "vbmi" || impl == "vbmi-string")
	useBlocks = useBlocks && impl != "words"
	if impl == "vbmi-string" && !useStringVBMI || impl == "vbmi" && !useVBMI || impl == "avx512" && !useAVX512 || impl == "avx2" && !useBlocks {
		b.Skip("the CPU cannot run it")
	}
	var s Scanner
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	defer benchcpu.Measure(b)()
	for b.Loop() {
		s.Reset(doc, 1000)
		if s.SkipValue(); s.Err() != nil {
			b.Fatal(s.Err())
		}
	}
}

// BenchmarkSkipValue validates whole documents with the scanner alone, the bulk of what the
// normalizer does, with each string scan.
func BenchmarkSkipValue(b *testing.B) {
	for _, in := range []struct {
		name string
		doc  []byte
	}{{"small", corpus.Small()}, {"medium", corpus.Medium()}, {"medium-python", corpus.MediumPython()}, {"large", corpus.Large()}} {
		for _, impl := range scans {
			b.Run("input="+in.name+"/impl="+impl, func(b *testing.B) { benchSkipValue(b, in.doc, impl) })
		}
	}
}

// BenchmarkStringScripts scans one 60 KB string of each script with each string scan: the
// lead bytes of Thai and Devanagari (E0), Hangul (ED) and emoji (F0) need their second byte
// looked at, which Chinese, Japanese and accented Latin do not.
func BenchmarkStringScripts(b *testing.B) {
	for _, w := range []struct{ name, word string }{
		{"latin", "café naïve "}, {"cjk", "東京都の天気 "}, {"thai", "ภาษาไทย "},
		{"devanagari", "हिन्दी भाषा "}, {"hangul", "한국어 텍스트 "}, {"emoji", "ok 😀 fine "},
	} {
		doc := []byte(`"` + strings.Repeat(w.word, 60000/len(w.word)) + `"` + strings.Repeat(" ", blockSize))
		for _, impl := range scans {
			b.Run("script="+w.name+"/impl="+impl, func(b *testing.B) { benchSkipValue(b, doc, impl) })
		}
	}
}

package jsonscan

import (
	"testing"

	"github.com/dystopic/normalizer/internal/benchcpu"
	"github.com/dystopic/normalizer/internal/corpus"
)

// BenchmarkSkipValue validates whole documents with the scanner alone, the bulk of what the
// normalizer does; compare the portable classifier with impl=words (no AVX2).
func BenchmarkSkipValue(b *testing.B) {
	for _, in := range []struct {
		name string
		doc  []byte
	}{{"small", corpus.Small()}, {"medium", corpus.Medium()}, {"large", corpus.Large()}} {
		for _, impl := range []string{"avx512", "avx2", "words"} {
			b.Run("input="+in.name+"/impl="+impl, func(b *testing.B) {
				saved, saved512 := useAVX2, useAVX512
				defer func() { useAVX2, useAVX512 = saved, saved512 }()
				useAVX512 = useAVX512 && impl == "avx512"
				useAVX2 = useAVX2 && impl != "words"
				if impl == "avx512" && !useAVX512 || impl == "avx2" && !useAVX2 {
					b.Skip("the CPU cannot run it")
				}
				var s Scanner
				b.SetBytes(int64(len(in.doc)))
				b.ReportAllocs()
				defer benchcpu.Measure(b)()
				for b.Loop() {
					s.Reset(in.doc, 1000)
					if s.SkipValue(); s.Err() != nil {
						b.Fatal(s.Err())
					}
				}
			})
		}
	}
}

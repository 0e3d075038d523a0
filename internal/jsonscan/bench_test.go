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
		for _, impl := range []string{"blocks", "words"} {
			b.Run("input="+in.name+"/impl="+impl, func(b *testing.B) {
				if impl == "words" {
					saved := useAVX2
					useAVX2 = false
					defer func() { useAVX2 = saved }()
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

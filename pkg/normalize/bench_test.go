package normalize_test

import (
	"math"
	"testing"

	"github.com/dystopic/normalizer/internal/testkit/baseline"
	"github.com/dystopic/normalizer/internal/testkit/benchcpu"
	"github.com/dystopic/normalizer/internal/testkit/corpus"
	"github.com/dystopic/normalizer/pkg/normalize"
)

var benchInputs = []struct {
	name string
	doc  []byte
}{
	{"small", corpus.Small()},
	{"medium", corpus.Medium()},
	{"large", corpus.Large()},
	{"dirty", corpus.Dirty()},
	{"medium-python", corpus.MediumPython()},
}

// BenchmarkNormalize measures the normalizer against the straightforward encoding/json one on
// the same inputs in the same run, and beside the fastest Go readers: valyala/fastjson's parse
// (a reused Parser, which builds its tree of values and allocates nothing once warm) and
// bytedance/sonic's Valid (which answers yes or no and checks no UTF-8). Neither does the
// normalizer's work, so they are a floor to reach, not a like-for-like baseline. Compare with
// benchstat:
//
//	go test ./pkg/normalize -run '^$' -bench Normalize -benchmem -count 6 > bench.txt
//	benchstat -col /impl bench.txt
func BenchmarkNormalize(b *testing.B) {
	for _, in := range benchInputs {
		b.Run("input="+in.name+"/impl=normalizer", func(b *testing.B) {
			n := normalize.New(normalize.WithMaxBytes(math.MaxInt64))
			dst := make([]byte, 0, 2*len(in.doc))
			b.SetBytes(int64(len(in.doc)))
			b.ReportAllocs()
			defer benchcpu.Measure(b)()
			for b.Loop() {
				res, err := n.Normalize(in.doc)
				if err != nil {
					b.Fatal(err)
				}
				dst = res.AppendJSON(dst[:0])
				res.Release()
			}
		})
		benchReaders(b, in.name, in.doc)
		b.Run("input="+in.name+"/impl=baseline", func(b *testing.B) {
			b.SetBytes(int64(len(in.doc)))
			b.ReportAllocs()
			defer benchcpu.Measure(b)()
			for b.Loop() {
				if _, err := baseline.Normalize(in.doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

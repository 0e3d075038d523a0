//go:build amd64 || arm64

package normalize_test

import (
	"testing"

	"github.com/bytedance/sonic"
	"github.com/valyala/fastjson"

	"github.com/dystopic/normalizer/internal/testkit/benchcpu"
)

// benchReaders runs the fastest Go readers on doc, for BenchmarkNormalize: sonic builds only
// on 64-bit architectures.
func benchReaders(b *testing.B, name string, doc []byte) {
	b.Run("input="+name+"/impl=fastjson", func(b *testing.B) {
		var p fastjson.Parser
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		defer benchcpu.Measure(b)()
		for b.Loop() {
			if _, err := p.ParseBytes(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("input="+name+"/impl=sonic", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		defer benchcpu.Measure(b)()
		for b.Loop() {
			if !sonic.Valid(doc) {
				b.Fatal("not valid")
			}
		}
	})
}

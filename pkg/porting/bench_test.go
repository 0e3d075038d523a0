package porting_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/benchcpu"
	"github.com/dystopic/normalizer/internal/testkit/goldenfile"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

// benchInputs are the inputs of the golden cases of dir, read once.
func benchInputs(b *testing.B, dir string) (docs [][]byte, size int64) {
	for _, name := range goldenfile.Cases(b, dir) {
		raw, err := os.ReadFile(filepath.Join(dir, name+".input.json"))
		require.NoError(b, err)
		docs = append(docs, raw)
		size += int64(len(raw))
	}
	return docs, size
}

// BenchmarkExplain measures the explain view with this package's advice over the porters'
// results of testdata/explain and the real-SDK corpus, every input once per iteration,
// accepted or rejected. The machines are shared: compare cpu-ns/op (benchcpu), the thread's own
// CPU time, between two builds run in turn, with benchstat:
//
//	go test ./pkg/porting -run '^$' -bench 'Explain|Porting' -benchmem -count 6 > new.txt
//	benchstat old.txt new.txt
func BenchmarkExplain(b *testing.B) {
	for _, dir := range []string{explainDir, "../../internal/sdkcorpus/testdata"} {
		docs, size := benchInputs(b, dir)
		b.Run("inputs="+filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(b *testing.B) {
			benchOutputs(b, porting.New(normalize.WithExplain()), docs, size)
		})
	}
}

// BenchmarkPortingHint measures the plain record path with this package's advice over the
// golden corpus, whose rejections run the hints.
func BenchmarkPortingHint(b *testing.B) {
	docs, size := benchInputs(b, goldenDir)
	benchOutputs(b, porting.New(), docs, size)
}

// benchOutputs measures n's output for each of docs, size bytes in all, into one reused buffer.
func benchOutputs(b *testing.B, n *normalize.Normalizer, docs [][]byte, size int64) {
	var dst []byte
	b.SetBytes(size)
	b.ReportAllocs()
	defer benchcpu.Measure(b)()
	for b.Loop() {
		for _, doc := range docs {
			dst, _ = n.AppendOutput(dst[:0], doc)
		}
	}
}

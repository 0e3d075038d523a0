package batch

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/dystopic/normalizer/internal/testkit/baseline"
	"github.com/dystopic/normalizer/internal/testkit/corpus"
	"github.com/dystopic/normalizer/internal/testkit/jsonlgen"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// benchLines are the batch benchmark's inputs: the corpus's results of every size, and the
// generated mix that scripts/bench-jsonl.sh runs the command on.
func benchLines(b *testing.B) []struct {
	name string
	data []byte
} {
	var gen bytes.Buffer
	if _, err := jsonlgen.Write(&gen, 64<<20, 1, false); err != nil {
		b.Fatal(err)
	}
	return []struct {
		name string
		data []byte
	}{
		{"corpus", corpus.Lines(64 << 20)},
		{"generated", gen.Bytes()},
	}
}

// BenchmarkBatch measures the pipeline against the same lines normalized in process, one after
// the other into one reused buffer (what the pipeline does for each line, without the
// pipeline), and against the straightforward encoding/json version reading and writing the
// same lines on one core, in the same run, in MB/s of input:
//
//	go test ./internal/batch -run '^$' -bench Batch -benchmem -count 6 > batch.txt
//	benchstat -col /impl batch.txt
//
// Besides ns/op each reports the process's CPU per iteration (cpu-ns/op, user and system, all
// goroutines) and its system time (sys-ns/op), which a loaded machine disturbs less.
// impl=stream-jN is Run with N workers over a reader (a pipe's path: each byte copied once, from the reader),
// impl=bytes-jN RunBytes over the input in memory (a file's path, mapped by the command).
func BenchmarkBatch(b *testing.B) {
	n := normalize.New()
	for _, in := range benchLines(b) {
		lines := bytes.SplitAfter(in.data, []byte("\n"))
		b.Run("input="+in.name+"/impl=inprocess", func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			defer measureCPU(b)()
			var out []byte
			for b.Loop() {
				for _, l := range lines {
					out, _ = AppendLine(out[:0], n, bytes.TrimSuffix(l, []byte("\n")))
				}
			}
		})
		b.Run("input="+in.name+"/impl=inprocess-j2", func(b *testing.B) {
			// The lines in two halves of about equal bytes, each normalized in process on its own
			// goroutine: what two cores can do with no pipeline, the ceiling of -j 2.
			half, sum := 0, 0
			for half < len(lines) && 2*sum < len(in.data) {
				sum += len(lines[half])
				half++
			}
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			defer measureCPU(b)()
			outs := [2][]byte{}
			for b.Loop() {
				var wg sync.WaitGroup
				for i, part := range [2][][]byte{lines[:half], lines[half:]} {
					wg.Go(func() {
						out := outs[i]
						for _, l := range part {
							out, _ = AppendLine(out[:0], n, bytes.TrimSuffix(l, []byte("\n")))
						}
						outs[i] = out
					})
				}
				wg.Wait()
			}
		})
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("input=%s/impl=stream-j%d", in.name, workers), func(b *testing.B) {
				b.SetBytes(int64(len(in.data)))
				b.ReportAllocs()
				defer measureCPU(b)()
				for b.Loop() {
					if _, err := Run(context.Background(), bytes.NewReader(in.data), io.Discard, n, Options{Workers: workers}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("input=%s/impl=bytes-j%d", in.name, workers), func(b *testing.B) {
				b.SetBytes(int64(len(in.data)))
				b.ReportAllocs()
				defer measureCPU(b)()
				for b.Loop() {
					if _, err := RunBytes(context.Background(), in.data, io.Discard, n, Options{Workers: workers}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run("input="+in.name+"/impl=baseline", func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			defer measureCPU(b)()
			for b.Loop() {
				baselineRun(bytes.NewReader(in.data), io.Discard)
			}
		})
	}
}

// baselineRun is the straightforward batch: read lines with a bufio.Scanner, normalize each
// with encoding/json, write the record or an error line through a bufio.Writer.
func baselineRun(r io.Reader, w io.Writer) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	bw := bufio.NewWriter(w)
	for sc.Scan() {
		rec, err := baseline.Normalize(sc.Bytes())
		if err != nil {
			fmt.Fprintf(bw, "{\"error\":%q}\n", err.Error())
			continue
		}
		bw.Write(rec)
		bw.WriteByte('\n')
	}
	bw.Flush()
}

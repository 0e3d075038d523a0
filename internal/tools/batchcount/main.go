// Command batchcount runs the --jsonl pipeline, or the same lines normalized in process one
// after the other, over BenchmarkBatch's inputs a fixed number of times, for counting
// instructions with valgrind's callgrind, which a shared machine's load does not disturb as
// it does timings:
//
//	go build -o /tmp/batchcount ./internal/tools/batchcount
//	GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind /tmp/batchcount -impl bytes -input corpus -n 2
//
// The instructions per run are the difference between two counts (-n 1 and -n 2, say): the
// input is built before the runs, and the first run makes the buffers the next ones reuse.
// Valgrind runs one thread at a time, so what the goroutines' hand-offs cost shows as the
// runtime's instructions (the scheduler, futex calls); what a cache miss costs does not show
// (--cache-sim=yes counts the misses of a simulated cache).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/dystopic/normalizer/internal/batch"
	"github.com/dystopic/normalizer/internal/testkit/corpus"
	"github.com/dystopic/normalizer/internal/testkit/jsonlgen"
	"github.com/dystopic/normalizer/pkg/normalize"
)

func main() {
	impl := flag.String("impl", "bytes", "bytes (RunBytes, a file's path), stream (Run over a reader) or inprocess (AppendLine on each line)")
	input := flag.String("input", "corpus", "corpus (the corpus's results of every size) or generated (jsonlgen's mix)")
	size := flag.Int("size", 64<<20, "input bytes, at least")
	workers := flag.Int("j", 1, "the pipeline's workers")
	chunk := flag.Int("chunk", 0, "the pipeline's ChunkBytes; 0 is the default")
	n := flag.Int("n", 1, "runs")
	flag.Parse()
	if err := run(*impl, *input, *size, *n, batch.Options{Workers: *workers, ChunkBytes: *chunk}); err != nil {
		fmt.Fprintln(os.Stderr, "batchcount:", err)
		os.Exit(1)
	}
}

func run(impl, input string, size, n int, opts batch.Options) error {
	var data []byte
	switch input {
	case "corpus":
		data = corpus.Lines(size)
	case "generated":
		var gen bytes.Buffer
		if _, err := jsonlgen.Write(&gen, int64(size), 1, false); err != nil {
			return err
		}
		data = gen.Bytes()
	default:
		return fmt.Errorf("no input %q", input)
	}
	nz := normalize.New()
	var once func() error
	switch impl {
	case "inprocess": // as BenchmarkBatch's impl=inprocess: the lines cut before the runs
		lines := bytes.SplitAfter(data, []byte("\n"))
		var out []byte
		once = func() error {
			for _, l := range lines {
				out, _ = batch.AppendLine(out[:0], nz, bytes.TrimSuffix(l, []byte("\n")))
			}
			return nil
		}
	case "bytes":
		once = func() error {
			_, err := batch.RunBytes(context.Background(), data, io.Discard, nz, opts)
			return err
		}
	case "stream":
		once = func() error {
			_, err := batch.Run(context.Background(), bytes.NewReader(data), io.Discard, nz, opts)
			return err
		}
	default:
		return fmt.Errorf("no implementation %q", impl)
	}
	for range n {
		if err := once(); err != nil {
			return err
		}
	}
	return nil
}

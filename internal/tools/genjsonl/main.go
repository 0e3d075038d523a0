// Command genjsonl writes a JSONL file of generated raw handler results, for the --jsonl
// benchmark (scripts/bench-jsonl.sh).
//
//	go run ./internal/tools/genjsonl -size 200 -seed 1 -o /tmp/results.jsonl
//	go run ./internal/tools/genjsonl -size 150 -corpus -o /tmp/corpus.jsonl
//	go run ./internal/tools/genjsonl -lines 10000 -malformed -o /tmp/results.jsonl
//
// -lines writes exactly that many lines (results) instead of a size: the browser tests of
// normalizer view (internal/webui/e2e) browse such a corpus.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/dystopic/normalizer/internal/testkit/corpus"
	"github.com/dystopic/normalizer/internal/testkit/jsonlgen"
)

func main() {
	size := flag.Int64("size", 200, "write at least this many MB (10^6 bytes)")
	seed := flag.Uint64("seed", 1, "random seed; the same seed gives the same file")
	out := flag.String("o", "", "output file (required)")
	malformed := flag.Bool("malformed", false, "make about 2% of the lines malformed JSON (jq stops at the first)")
	fromCorpus := flag.Bool("corpus", false, "write internal/corpus's small, medium, dirty and large results instead (corpus.Lines; -seed and -malformed do not apply)")
	lines := flag.Int64("lines", 0, "write exactly this many lines instead of -size MB (not with -corpus)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 || *lines < 0 || *lines > 0 && *fromCorpus {
		fmt.Fprintln(os.Stderr, "usage: genjsonl [-size MB | -lines N] [-seed N] [-malformed] -o FILE")
		fmt.Fprintln(os.Stderr, "       genjsonl -corpus [-size MB] -o FILE")
		os.Exit(2)
	}
	if *lines > 0 {
		if err := writeLines(*out, *lines, *seed, *malformed); err != nil {
			fmt.Fprintln(os.Stderr, "genjsonl:", err)
			os.Exit(1)
		}
		return
	}
	write := write
	if *fromCorpus {
		write = writeCorpus
	}
	if err := write(*out, *size*1_000_000, *seed, *malformed); err != nil {
		fmt.Fprintln(os.Stderr, "genjsonl:", err)
		os.Exit(1)
	}
}

func write(path string, size int64, seed uint64, malformed bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	lines, err := jsonlgen.Write(f, size, seed, malformed)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fmt.Fprintf(os.Stderr, "genjsonl: wrote %d lines to %s\n", lines, path)
	return nil
}

// writeLines writes exactly n lines of the generator's output.
func writeLines(path string, n int64, seed uint64, malformed bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	g := jsonlgen.New(seed, malformed)
	var buf []byte
	for range n {
		buf = append(g.Line(buf[:0]), '\n')
		if _, err = bw.Write(buf); err != nil {
			break
		}
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fmt.Fprintf(os.Stderr, "genjsonl: wrote %d lines to %s\n", n, path)
	return nil
}

func writeCorpus(path string, size int64, _ uint64, _ bool) error {
	data := corpus.Lines(int(size))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fmt.Fprintf(os.Stderr, "genjsonl: wrote %d lines of the corpus to %s\n", bytes.Count(data, []byte("\n")), path)
	return nil
}

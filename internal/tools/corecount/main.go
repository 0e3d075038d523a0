// Command corecount runs the core's benchmark inputs a fixed number of times, for counting
// instructions with valgrind's callgrind, which a shared machine's load does not disturb as it
// does timings. It runs one implementation on one input: the normalizer (Normalize, AppendJSON
// and Release) or valyala/fastjson's parse, with no testing framework around them:
//
//	go build -o /tmp/corecount ./internal/tools/corecount
//	GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind /tmp/corecount -impl normalizer -input small -n 2000
//
// The instructions per call are the difference between two counts (-n 2000 and -n 0, say)
// over the difference in calls. Under valgrind the CPU shows no AVX-512, so the scanner runs
// its AVX2 loop.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/valyala/fastjson"

	"github.com/dystopic/normalizer/internal/testkit/corpus"
	"github.com/dystopic/normalizer/pkg/normalize"
)

func main() {
	impl := flag.String("impl", "normalizer", "normalizer or fastjson")
	input := flag.String("input", "small", "small, medium, dirty, large or medium-python")
	n := flag.Int("n", 1000, "calls")
	flag.Parse()
	inputs := map[string]func() []byte{
		"small": corpus.Small, "medium": corpus.Medium, "dirty": corpus.Dirty,
		"large": corpus.Large, "medium-python": corpus.MediumPython,
	}
	mk, ok := inputs[*input]
	if !ok {
		fmt.Fprintf(os.Stderr, "corecount: no input %q\n", *input)
		os.Exit(2)
	}
	doc := mk()
	switch *impl {
	case "normalizer":
		nz := normalize.New(normalize.WithMaxBytes(math.MaxInt64))
		dst := make([]byte, 0, 2*len(doc))
		for range *n {
			res, err := nz.Normalize(doc)
			if err != nil {
				fmt.Fprintln(os.Stderr, "corecount:", err)
				os.Exit(1)
			}
			dst = res.AppendJSON(dst[:0])
			res.Release()
		}
	case "fastjson":
		var p fastjson.Parser
		for range *n {
			if _, err := p.ParseBytes(doc); err != nil {
				fmt.Fprintln(os.Stderr, "corecount:", err)
				os.Exit(1)
			}
		}
	default:
		fmt.Fprintf(os.Stderr, "corecount: no implementation %q\n", *impl)
		os.Exit(2)
	}
}

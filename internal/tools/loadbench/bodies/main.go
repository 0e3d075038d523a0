// Command bodies writes the load benchmark's request bodies: realistic handler results of about
// 2 KB (small.json) and 60 KB (medium.json) from internal/corpus, into the directory given.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dystopic/normalizer/internal/testkit/corpus"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: bodies DIR")
		os.Exit(2)
	}
	for name, b := range map[string][]byte{"small.json": corpus.Small(), "medium.json": corpus.Medium()} {
		if err := os.WriteFile(filepath.Join(os.Args[1], name), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "bodies:", err)
			os.Exit(1)
		}
	}
}

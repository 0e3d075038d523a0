// Command gencodes writes the codes reference, docs/codes.md, from internal/codedoc's table:
//
//	go generate ./internal/codedoc
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dystopic/normalizer/internal/codedoc"
)

func main() {
	out := flag.String("o", "docs/codes.md", "the file to write")
	flag.Parse()
	doc, err := codedoc.Markdown()
	if err == nil {
		err = os.WriteFile(*out, doc, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencodes:", err)
		os.Exit(1)
	}
}

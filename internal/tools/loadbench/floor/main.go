// Command floor is the load benchmark's baseline: a plain net/http server that reads each
// request body and writes the same bytes back. No service that answers with a record about the
// size of its input can beat it, so scripts/loadbench.sh reports normalizer serve as a ratio of
// it. It is not part of the normalizer binary.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"

	"github.com/dystopic/normalizer/internal/tools/loadbench/echoback"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "address to listen on (loopback only)")
	flag.Parse()
	srv := echoback.Server(*addr, http.HandlerFunc(echoback.Handler))
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

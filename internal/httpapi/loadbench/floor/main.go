// Command floor is the load benchmark's baseline: a plain net/http server that reads each
// request body and writes the same bytes back. No service that answers with a record about the
// size of its input can beat it, so scripts/loadbench.sh reports normalizer serve as a ratio of
// it. It is not part of the normalizer binary.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func echoBack(w http.ResponseWriter, r *http.Request) {
	buf := pool.Get().(*bytes.Buffer)
	defer pool.Put(buf)
	buf.Reset()
	if _, err := buf.ReadFrom(r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	h := w.Header()
	h["Content-Type"] = []string{"application/json"}
	h["Content-Length"] = []string{strconv.Itoa(buf.Len())}
	_, _ = w.Write(buf.Bytes())
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "address to listen on (loopback only)")
	flag.Parse()
	srv := &http.Server{Addr: *addr, Handler: http.HandlerFunc(echoBack),
		ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 60 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

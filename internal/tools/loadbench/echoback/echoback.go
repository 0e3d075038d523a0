// Package echoback is the load benchmark's floor: a plain net/http handler that reads each
// request body and writes the same bytes back. No service that answers with a record about the
// size of its input can beat it. The floor command and the profile tool both serve it, so that
// they measure the same thing.
package echoback

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
	"time"
)

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Handler writes the request body back as application/json.
func Handler(w http.ResponseWriter, r *http.Request) {
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

// Server is an http.Server for h with the timeouts normalizer serve uses by default, so that
// the floor pays for the same deadlines.
func Server(addr string, h http.Handler) *http.Server {
	return &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout: 60 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
}

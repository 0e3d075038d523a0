package httpapi

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/dystopic/normalizer/internal/testkit/corpus"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// discardWriter is a ResponseWriter that keeps nothing, so the benchmark measures the handler.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardWriter) WriteHeader(int)             {}

// BenchmarkHandler runs POST /v1/normalize through the whole service, logging included (as
// normalizer serve logs: a timestamp on every line by TimestampHook, batched by a LogWriter), against the core
// alone on the same input (the difference is what the HTTP layer costs).
func BenchmarkHandler(b *testing.B) {
	for _, in := range []struct {
		name string
		body []byte
	}{{"2KB", corpus.Small()}, {"60KB", corpus.Medium()}} {
		for _, budget := range []int64{0, 1 << 30} {
			name := "router/"
			if budget > 0 {
				name = "router+budget/" // as serve runs under a memory limit
			}
			b.Run(name+in.name, func(b *testing.B) {
				benchRouter(b, in.body, budget)
			})
		}
		b.Run("core/"+in.name, func(b *testing.B) {
			n := normalize.New()
			var out []byte
			b.SetBytes(int64(len(in.body)))
			b.ReportAllocs()
			for b.Loop() {
				res, err := n.Normalize(in.body)
				if err != nil {
					b.Fatal(err)
				}
				out = res.AppendJSON(out[:0])
				res.Release()
			}
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// benchRouter runs POST /v1/normalize with body through the whole service, with a memory
// budget of budget bytes (0: none).
func benchRouter(b *testing.B, body []byte, budget int64) {
	lw := NewLogWriter(discard{}, 100*time.Millisecond)
	defer lw.Close()
	s, err := New(Config{Logger: zerolog.New(lw).Hook(NewTimestampHook()), MemoryBudget: budget})
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	r := bytes.NewReader(body)
	req := httptest.NewRequest("POST", "/v1/normalize", r)
	w := &discardWriter{h: http.Header{}}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(body)
		clear(w.h)
		h.ServeHTTP(w, req)
	}
}

// BenchmarkAccessLine is the access line and metrics of one request, as serve logs them: a
// 200 of POST /v1/normalize, whose first fields the logger renders once, against a 201 (no
// route answers it; the same fields, formatted per line) on the same server.
func BenchmarkAccessLine(b *testing.B) {
	lw := NewLogWriter(discard{}, 100*time.Millisecond)
	defer lw.Close()
	s, err := New(Config{Logger: zerolog.New(lw).Hook(NewTimestampHook())})
	if err != nil {
		b.Fatal(err)
	}
	for _, status := range []int{http.StatusOK, http.StatusCreated} {
		b.Run(strconv.Itoa(status), func(b *testing.B) {
			x := &exchange{id: "0e1a68213e92-1", route: routeNormalize, status: status, bytesIn: 2055, bytesOut: 2091}
			r := httptest.NewRequest(http.MethodPost, routeNormalize, nil)
			r.RemoteAddr = "192.0.2.1:51234"
			b.ReportAllocs()
			for b.Loop() {
				s.logRequest(x, r, 4*time.Microsecond)
			}
		})
	}
}

// BenchmarkConn serves POST /v1/normalize requests one after another on one kept-alive
// connection through a real http.Server (net/http's reading, parsing and writing included),
// with the connection as Serve accepts it ("tracked": its framing followed, framing.go) and
// bare: the difference is what following the framing costs a request.
func BenchmarkConn(b *testing.B) {
	for _, in := range []struct {
		name string
		body []byte
	}{{"2KB", corpus.Small()}, {"60KB", corpus.Medium()}} {
		for _, tracked := range []bool{false, true} {
			name := "bare/"
			if tracked {
				name = "tracked/"
			}
			b.Run(name+in.name, func(b *testing.B) { benchConn(b, in.body, tracked) })
		}
	}
}

// goClientRequest is POST /v1/normalize with body as Go's client sends it.
func goClientRequest(body []byte) []byte {
	return append([]byte("POST /v1/normalize HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: Go-http-client/1.1\r\n"+
		"Content-Length: "+strconv.Itoa(len(body))+"\r\nContent-Type: application/json\r\nAccept-Encoding: gzip\r\n\r\n"), body...)
}

// BenchmarkFramer is the framer alone, following BenchmarkConn's requests one after another,
// each fed in one piece: the per-request cost of tracking a connection.
func BenchmarkFramer(b *testing.B) {
	req := goClientRequest(corpus.Small())
	var f framer
	b.ReportAllocs()
	for b.Loop() {
		f.feed(req)
	}
	if f.state == framingStopped {
		b.Fatal("the framer stopped")
	}
}

func benchConn(b *testing.B, body []byte, tracked bool) {
	lw := NewLogWriter(discard{}, 100*time.Millisecond)
	defer lw.Close()
	s, err := New(Config{Logger: zerolog.New(lw).Hook(NewTimestampHook())})
	if err != nil {
		b.Fatal(err)
	}
	conn := &loopConn{req: goClientRequest(body), left: b.N}
	var c net.Conn = conn
	srv := &http.Server{Handler: s, ErrorLog: discardLog}
	if tracked {
		c = &trackedConn{Conn: conn}
		srv.ConnContext = connContext
	}
	ended := make(chan struct{})
	srv.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateClosed {
			close(ended)
		}
	}
	ln := &oneConnListener{conn: c, closed: make(chan struct{})}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	go func() { _ = srv.Serve(ln) }()
	<-ended
	b.StopTimer()
	_ = srv.Close()
	if conn.answered < b.N {
		b.Fatalf("%d answers for %d requests", conn.answered, b.N)
	}
}

// loopConn is a client sending req left times, then closing; it counts the answers' status
// lines and drops the rest of what the server writes.
type loopConn struct {
	scriptConn
	req      []byte
	off      int
	left     int
	answered int
}

func (c *loopConn) Read(p []byte) (int, error) {
	if c.off == len(c.req) {
		if c.left == 0 {
			return 0, io.EOF
		}
		c.left--
		c.off = 0
	}
	n := copy(p, c.req[c.off:])
	c.off += n
	return n, nil
}

func (c *loopConn) Write(p []byte) (int, error) {
	c.answered += bytes.Count(p, []byte("HTTP/1.1 200 OK\r\n"))
	return len(p), nil
}

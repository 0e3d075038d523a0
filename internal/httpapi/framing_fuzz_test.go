package httpapi

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// FuzzFraming holds the framer to net/http's own parsing: a stream of bytes is served by a
// real http.Server over a connection that hands it over in pieces of fuzzed sizes, and for
// every request net/http hands to the handler the framer must have found the same request
// (its header block parses, with net/http's ReadRequest, to the same method, target and
// version) and the same framing (chunked, or the same Content-Length), never having given up
// while net/http went on; a request it flags must have the ambiguity it names, and one it
// does not flag none (checked on the header block by a plain reading, ambiguity).
func FuzzFraming(f *testing.F) {
	for _, seed := range framingSeeds {
		f.Add([]byte(seed), []byte{})
		f.Add([]byte(seed), []byte{1})
		f.Add([]byte(seed), []byte{3, 17, 250})
	}
	f.Fuzz(func(t *testing.T, stream, pieces []byte) {
		if len(stream) > 64<<10 {
			return
		}
		checkFraming(t, stream, pieces)
	})
}

// framingSeeds are streams of requests, as clients and attackers send them.
var framingSeeds = []string{
	"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
	"POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
	"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3;ext=1\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
	"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi\r\n\r\nGET / HTTP/1.1\r\nHost: y\r\n\r\n",
	"OPTIONS * HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET / HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nxGET / HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET / HTTP/1.1\nHost: x\nContent-Length: 0\n\nGET / HTTP/1.1\r\nhost:  x \r\ncontent-length:\t007 \r\n\r\n1234567GET / HTTP/1.1\r\nHost: x\r\n\r\n",
	"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
	"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n",
	"GET / HTTP/1.1\r\nHost: x\r\nX-Long: a\r\n\tb\r\n\r\n",
	"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc",
	"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\nHost: x\r\n\r\n",
	"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: CHUNKED \r\n\r\n1\r\na\r\n0\r\n\r\nPOST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nb",
}

// checkFraming serves stream with a recording handler behind a trackedConn, and compares.
func checkFraming(t *testing.T, stream, pieces []byte) {
	conn := &scriptConn{data: stream, pieces: pieces}
	tc := &trackedConn{Conn: conn}
	var records []framingRecord
	tc.f.onRequest = func(r framingRecord) { records = append(records, r) }
	type served struct {
		method, uri, proto string
		length             int64
		chunked            bool
		flag               framingFlag
	}
	var calls []served
	ended := make(chan struct{})
	var once sync.Once
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, flag := tc.next()
			calls = append(calls, served{r.Method, r.RequestURI, r.Proto, r.ContentLength,
				len(r.TransferEncoding) > 0, flag})
			_, _ = io.Copy(io.Discard, r.Body)
		}),
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateClosed || s == http.StateHijacked {
				once.Do(func() { close(ended) })
			}
		},
		ErrorLog: discardLog,
	}
	ln := &oneConnListener{conn: tc, closed: make(chan struct{})}
	done := make(chan struct{})
	go func() { _ = srv.Serve(ln); close(done) }()
	select {
	case <-ended:
	case <-time.After(30 * time.Second):
		t.Fatal("the connection was not closed")
	}
	_ = srv.Close()
	<-done

	// records and calls are final: the connection's goroutine has ended.
	handled := make([]framingRecord, 0, len(records))
	for _, r := range records {
		if r.handled {
			handled = append(handled, r)
		}
	}
	for i, call := range calls {
		if i >= len(handled) {
			if tc.f.flag != framingOK && int64(i) >= tc.f.flaggedAt {
				if call.flag != tc.f.flag {
					t.Fatalf("request %d comes after a flagged one, and is not flagged (%v)", i, call.flag)
				}
				continue
			}
			t.Fatalf("net/http served request %d (%s %s %s), which the framer did not find (it found %d)",
				i, call.method, call.uri, call.proto, len(handled))
		}
		r := handled[i]
		block := stream[r.start:r.end]
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(block)))
		if err != nil {
			t.Fatalf("request %d: the framer's header block %q does not parse: %v", i, block, err)
		}
		if req.Method != call.method || req.RequestURI != call.uri || req.Proto != call.proto {
			t.Fatalf("request %d: the framer's header block %q is %s %s %s; net/http served %s %s %s",
				i, block, req.Method, req.RequestURI, req.Proto, call.method, call.uri, call.proto)
		}
		if want := ambiguity(block); r.flag != want || call.flag != want {
			t.Fatalf("request %d (%q): flagged %v (the handler saw %v), want %v", i, block, r.flag, call.flag, want)
		}
		if r.flag != framingOK {
			continue // answered 400 and closed: its body's framing does not matter
		}
		if r.chunked != call.chunked || !r.chunked && r.length != call.length {
			t.Fatalf("request %d (%q): the framer read chunked %v, length %d; net/http chunked %v, length %d",
				i, block, r.chunked, r.length, call.chunked, call.length)
		}
	}
}

// ambiguity reads a complete header block plainly (split at LFs), for FuzzFraming: what the
// framer must flag in it.
func ambiguity(block []byte) framingFlag {
	lines := strings.Split(strings.TrimSuffix(string(block), "\n"), "\n")
	var cl, te, folded bool
	for _, line := range lines[1 : len(lines)-1] {
		line = strings.TrimSuffix(line, "\r")
		if line != "" && (line[0] == ' ' || line[0] == '\t') {
			folded = true
			continue
		}
		name, _, _ := strings.Cut(line, ":")
		cl = cl || strings.EqualFold(name, "Content-Length")
		te = te || strings.EqualFold(name, "Transfer-Encoding")
	}
	requestLine := strings.TrimSuffix(lines[0], "\r")
	switch {
	case cl && te:
		return framingBoth
	case folded:
		return framingFolded
	case te && strings.HasSuffix(requestLine, " HTTP/1.0"):
		return framingTE10
	}
	return framingOK
}

var discardLog = log.New(io.Discard, "", 0)

// scriptConn is the server's side of a connection whose client sends data, in pieces of the
// sizes pieces cycles through (all at once when empty), then closes; what the server writes is
// dropped. Its deadlines do nothing: its reads never wait.
type scriptConn struct {
	mu     sync.Mutex
	data   []byte
	pieces []byte
	next   int
}

func (c *scriptConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.data))
	if len(c.pieces) > 0 {
		n = min(n, max(1, int(c.pieces[c.next%len(c.pieces)])))
		c.next++
	}
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

func (c *scriptConn) Write(p []byte) (int, error) { return len(p), nil }
func (c *scriptConn) Close() error                { return nil }
func (c *scriptConn) LocalAddr() net.Addr         { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80} }
func (c *scriptConn) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1234}
}
func (c *scriptConn) SetDeadline(time.Time) error      { return nil }
func (c *scriptConn) SetReadDeadline(time.Time) error  { return nil }
func (c *scriptConn) SetWriteDeadline(time.Time) error { return nil }

// oneConnListener accepts conn once, then waits until it is closed.
type oneConnListener struct {
	conn   net.Conn
	once   sync.Once
	closed chan struct{}
	taken  bool
	mu     sync.Mutex
}

func (l *oneConnListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	if !l.taken {
		l.taken = true
		l.mu.Unlock()
		return l.conn, nil
	}
	l.mu.Unlock()
	<-l.closed
	return nil, errors.New("listener closed")
}

func (l *oneConnListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *oneConnListener) Addr() net.Addr { return l.conn.LocalAddr() }

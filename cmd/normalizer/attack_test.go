package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// attackServer runs the real `serve` on 127.0.0.1:0 with the given flags and returns its
// address; it is stopped, and must exit cleanly, when the test ends.
func attackServer(t *testing.T, flags ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs, done := startServe(ctx, nil, append([]string{"--addr", "127.0.0.1:0", "--shutdown-grace", "5s"}, flags...)...)
	addr := listeningAddr(t, logs, done)
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err, logs.String())
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop")
		}
		assert.NotContains(t, logs.String(), "ATTACK-TEXT", "logs never carry the result's text")
	})
	return addr
}

// serverGoroutines returns the goroutines running the server's code, by id, from a dump of
// every goroutine: those with a frame in net/http's server connections or in this module's
// packages. The test's own clients and the runtime's goroutines are not among them, so what
// they do cannot move the count.
func serverGoroutines() map[int]string {
	buf := make([]byte, 1<<20)
	for {
		if n := runtime.Stack(buf, true); n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	found := map[int]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		var id int
		if _, err := fmt.Sscanf(g, "goroutine %d ", &id); err != nil {
			continue
		}
		for _, line := range strings.Split(g, "\n")[1:] {
			if strings.HasPrefix(line, "net/http.(*conn") || strings.HasPrefix(line, "github.com/dystopic/normalizer/") {
				found[id] = g
				break
			}
		}
	}
	return found
}

// connectionsServed reports whether a goroutine serves an HTTP connection.
func connectionsServed(gs map[int]string) bool {
	for _, g := range gs {
		if strings.Contains(g, "net/http.(*conn).serve(") {
			return true
		}
	}
	return false
}

// settledGoroutines waits until every goroutine of the server's code is one of base, and fails
// with their stacks after 30 s: a leak is a goroutine the attack started that never ends.
// Goroutine ids are never reused, so a new one cannot pass for one of base.
func settledGoroutines(t *testing.T, base map[int]string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var left []string
		for id, g := range serverGoroutines() {
			if _, ok := base[id]; !ok {
				left = append(left, g)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines of the server started during the attack are still there:\n\n%s", len(left), strings.Join(left, "\n\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// baseline lets the server serve one complete request, waits until no goroutine serves a
// connection any more, and returns the server's goroutines then: those it runs at rest.
func baseline(t *testing.T, addr string) map[int]string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	const warm = `{"final_response":"warm-up"}`
	fmt.Fprintf(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(warm), warm)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	require.Equal(t, 200, res.StatusCode)
	_, _ = io.Copy(io.Discard, res.Body)
	conn.Close()
	var base map[int]string
	waitFor(t, "the warm-up's connection to end", func() bool {
		base = serverGoroutines()
		return !connectionsServed(base)
	})
	return base
}

// readAnswer reads one response from conn; it returns the error when the server closed the
// connection without one.
func readAnswer(conn net.Conn) (*http.Response, []byte, error) {
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second)) // under the default read timeout: see read-timeout
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return nil, nil, err
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	return res, b, err
}

const attackHead = "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n"

// TestAttackSlowHeaders: a client that sends its headers a line at a time, slowly, is cut off
// once --read-header-timeout has passed, however long it would go on.
func TestAttackSlowHeaders(t *testing.T) {
	addr := attackServer(t, "--read-header-timeout", "300ms")
	base := baseline(t, addr)
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "POST /v1/normalize HTTP/1.1\r\n")
	require.NoError(t, err)
	closed := make(chan error, 1)
	go func() { // the server's side: EOF (or reset) when it gives up on us
		_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		_, err := conn.Read(make([]byte, 512))
		closed <- err
	}()
	sent := 0
loop:
	for ; sent < 600; sent++ { // 600 lines at 50 ms: 30 s, a hundred times the timeout
		select {
		case err := <-closed:
			require.Error(t, err)
			var ne net.Error
			require.False(t, errors.As(err, &ne) && ne.Timeout(), "the client timed out first: the server never cut it off")
			break loop
		case <-time.After(50 * time.Millisecond):
		}
		if _, err := fmt.Fprintf(conn, "X-Slow-%d: a\r\n", sent); err != nil {
			break // the server closed the connection
		}
	}
	require.Less(t, sent, 600, "the server kept reading headers")
	t.Logf("cut off after %d header lines", sent)
	conn.Close()
	settledGoroutines(t, base)
}

// TestAttackSlowBody: a body that stops coming is answered 408 RequestTimeout, as JSON, once
// --read-timeout has passed.
func TestAttackSlowBody(t *testing.T) {
	addr := attackServer(t, "--read-timeout", "500ms")
	base := baseline(t, addr)
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	fmt.Fprintf(conn, attackHead, 100)
	_, _ = io.WriteString(conn, `{"final_response":"ATTACK-TEXT`)
	res, body, err := readAnswer(conn)
	require.NoError(t, err)
	assert.Equal(t, 408, res.StatusCode, "%s", body)
	assert.Contains(t, string(body), `{"error":{"class":"RequestTimeout"`)
	conn.Close()
	settledGoroutines(t, base)
}

// TestAttackCutBodies: bodies cut off mid-way (the client half-closes: the server sees the
// end before Content-Length) and clients that vanish mid-body, fifty of each at once, leave
// no goroutine and no in-flight slot behind: afterwards the full cap is still served.
func TestAttackCutBodies(t *testing.T) {
	addr := attackServer(t, "--max-in-flight", "8")
	base := baseline(t, addr)
	body := `{"final_response":"ATTACK-TEXT ` + strings.Repeat("z", 100_000) + `"}`
	var wg sync.WaitGroup
	statuses := make(chan int, 100)
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", addr)
			if !assert.NoError(t, err) {
				return
			}
			defer conn.Close()
			fmt.Fprintf(conn, attackHead, len(body))
			_, _ = io.WriteString(conn, body[:len(body)/2])
			if i%2 == 1 {
				return // vanish: close with the body half sent
			}
			require.NoError(t, conn.(*net.TCPConn).CloseWrite())
			res, b, err := readAnswer(conn)
			if !assert.NoError(t, err) {
				return
			}
			statuses <- res.StatusCode
			// A hundred clients at once against a cap of eight: those past the cap are told to
			// retry (which one is a matter of timing), the others that their body was cut.
			if res.StatusCode == 429 {
				assert.Contains(t, string(b), `{"error":{"class":"TooManyRequests"`)
				return
			}
			assert.Contains(t, string(b), `{"error":{"class":"BadRequest","message":"request body: the connection ended after `)
		}()
	}
	wg.Wait()
	close(statuses)
	for code := range statuses {
		assert.Contains(t, []int{400, 429}, code)
	}
	settledGoroutines(t, base)

	// Which of the storm's cut bodies got a slot was a matter of timing; one alone gets one.
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	fmt.Fprintf(conn, attackHead, len(body))
	_, _ = io.WriteString(conn, body[:len(body)/2])
	require.NoError(t, conn.(*net.TCPConn).CloseWrite())
	res, b, err := readAnswer(conn)
	require.NoError(t, err)
	conn.Close()
	assert.Equal(t, 400, res.StatusCode, "%s", b)
	assert.Contains(t, string(b), `{"error":{"class":"BadRequest","message":"request body: the connection ended after `)
	settledGoroutines(t, base)

	// No slot leaked: the cap's worth of requests at once all get 200.
	var ok sync.WaitGroup
	for range 8 {
		ok.Add(1)
		go func() {
			defer ok.Done()
			res, err := http.Post("http://"+addr+"/v1/normalize", "application/json", strings.NewReader(`"fine"`))
			if assert.NoError(t, err) {
				assert.Equal(t, 200, res.StatusCode)
				res.Body.Close()
			}
		}()
	}
	ok.Wait()
	http.DefaultClient.CloseIdleConnections()
	settledGoroutines(t, base)
}

// TestAttackWire: hostile requests on the real wire, each answered by the documented status
// (net/http answers the malformed ones itself, in plain text, before any handler runs), and
// the server keeps serving afterwards.
func TestAttackWire(t *testing.T) {
	addr := attackServer(t, "--body-limit", "1MiB", "--max-header-bytes", "4KiB")
	base := baseline(t, addr)
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	_, _ = zw.Write(make([]byte, 64<<20))
	_ = zw.Close()
	nested := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	tests := []struct {
		name   string
		req    string
		status int
		has    string
	}{
		{"gzip bomb", fmt.Sprintf("POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", bomb.Len(), bomb.Bytes()),
			413, `"class":"PayloadTooLarge"`},
		{"100,000 nested arrays", fmt.Sprintf(attackHead+"%s", len(nested), nested), 400, `"offset":900`},
		{"Content-Length over the limit", fmt.Sprintf(attackHead, 2<<20), 413, `"limit":1048576`},
		{"chunked over the limit", "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
			strings.Repeat(fmt.Sprintf("%x\r\n%s\r\n", 64<<10, strings.Repeat("a", 64<<10)), 17) + "0\r\n\r\n", 413, `"class":"PayloadTooLarge"`},
		{"headers over --max-header-bytes", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("b", 8<<10) + "\r\n\r\n", 431, ""},
		{"headers just under --max-header-bytes", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("b", 4<<10-64) + "\r\n\r\n", 200, `"status":"ok"`},
		{"two Content-Lengths", "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\nContent-Length: 7\r\n\r\n\"done\"", 400, ""},
		{"negative Content-Length", "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400, ""},
		{"garbage request line", "\x00\x01\x02 / HTTP/1.1\r\n\r\n", 400, ""},
		{"unknown encoding", fmt.Sprintf("POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Encoding: br\r\nContent-Length: 6\r\n\r\n\"done\""), 415, `"class":"UnsupportedMediaType"`},
		{"corrupt gzip", fmt.Sprintf("POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: 6\r\n\r\n\"done\""), 400, `"class":"BadRequest"`},
		{"request id with control bytes", "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nX-Request-ID: a\x01b\r\nContent-Length: 6\r\n\r\n\"done\"", 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer conn.Close()
			go func() { _, _ = io.WriteString(conn, tt.req) }() // the server may answer before reading it all
			res, b, err := readAnswer(conn)
			require.NoError(t, err)
			assert.Equal(t, tt.status, res.StatusCode, "%.300s", b)
			if tt.has != "" {
				assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
				assert.Contains(t, string(b), tt.has)
			}
		})
	}
	res, err := http.Post("http://"+addr+"/v1/normalize", "application/json", strings.NewReader(`"still serving"`))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, 200, res.StatusCode)
	http.DefaultClient.CloseIdleConnections()
	settledGoroutines(t, base)
}

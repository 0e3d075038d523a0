package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Refused uploads as real clients see them: a 413 or 429 answered before the body is read
// reaches every client, however it sends the body, because the server reads and discards what
// is still coming (lingering close) before it closes. Without that, a client still uploading
// meets a reset or a broken pipe, and Python's clients, which send the whole body before they
// read the answer, lose it.

// python is Debian's interpreter: its dist-packages hold python3-requests, python3-httpx and
// python3-aiohttp (a pyenv python3 on PATH does not see them).
const python = "/usr/bin/python3"

// pythonPackages are the Debian packages the client tests need (scripts/test.sh installs them).
const pythonPackages = "python3-requests python3-httpx python3-aiohttp"

// needTools fails the test, with the command that installs them, when the client programs are
// missing: a skipped test would pass where it proves nothing.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		switch tool {
		case "python":
			out, err := exec.Command(python, "-c", "import requests, httpx, aiohttp").CombinedOutput()
			if err != nil {
				t.Fatalf("%s with requests, httpx and aiohttp is needed: apt-get install %s (scripts/test.sh installs them): %v\n%s",
					python, pythonPackages, err, out)
			}
		case "curl":
			if _, err := exec.LookPath("curl"); err != nil {
				t.Fatalf("curl is needed: apt-get install curl (scripts/test.sh installs it): %v", err)
			}
		case "nginx":
			if nginxPath() == "" {
				t.Fatalf("nginx is needed: apt-get install nginx (scripts/test.sh installs it)")
			}
		}
	}
}

// nginxPath finds nginx on PATH or where Debian puts it (/usr/sbin, not on a user's PATH).
func nginxPath() string {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	return ""
}

// upload is one request of a client test: size bytes of "x" to url, with a Content-Length or
// chunked, and the status it must get.
type upload struct {
	URL     string `json:"url"`
	Size    int    `json:"size"`
	Chunked bool   `json:"chunked"`
	want    int
	class   string
}

func (u upload) String() string {
	framing := "Content-Length"
	if u.Chunked {
		framing = "chunked"
	}
	return fmt.Sprintf("%d bytes, %s, for %d", u.Size, framing, u.want)
}

// answer is what a client got: the status, body and Connection header, or the error it met.
type answer struct {
	Status     int    `json:"status"`
	Body       string `json:"body"`
	Connection string `json:"connection"`
	Error      string `json:"error"`
}

// clients are the programs the uploads are sent with.
var clients = []string{"requests", "httpx", "urllib", "aiohttp", "curl", "go"}

// post sends every upload with client, in order, and returns what came back.
func post(t *testing.T, client string, uploads []upload) []answer {
	t.Helper()
	switch client {
	case "curl":
		return postCurl(t, uploads)
	case "go":
		return postGo(t, uploads)
	}
	return postPython(t, client, uploads)
}

func postPython(t *testing.T, client string, uploads []upload) []answer {
	t.Helper()
	in, err := json.Marshal(uploads)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a hang backstop
	defer cancel()
	cmd := exec.CommandContext(ctx, python, filepath.Join("testdata", "clients", "post.py"), client)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s: %s", client, stderr.String())
	var got []answer
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		var a answer
		require.NoError(t, json.Unmarshal([]byte(line), &a), "%s: %s", client, line)
		got = append(got, a)
	}
	require.Len(t, got, len(uploads), "%s: %s", client, stderr.String())
	return got
}

// postCurl runs curl as a user would (it sends Expect: 100-continue for large bodies, and
// stops sending when the answer comes first), from a file of the body.
func postCurl(t *testing.T, uploads []upload) []answer {
	t.Helper()
	dir := t.TempDir()
	var got []answer
	for i, u := range uploads {
		file := filepath.Join(dir, "body")
		require.NoError(t, os.WriteFile(file, bytes.Repeat([]byte("x"), u.Size), 0o600))
		headers, out := filepath.Join(dir, "headers"+strconv.Itoa(i)), filepath.Join(dir, "out"+strconv.Itoa(i))
		args := []string{"-sS", "--max-time", "60", "-o", out, "-D", headers, "-w", "%{http_code}",
			"-H", "Content-Type: application/json", "--data-binary", "@" + file}
		if u.Chunked {
			args = append(args, "-H", "Transfer-Encoding: chunked")
		}
		code, err := exec.Command("curl", append(args, u.URL)...).Output()
		if err != nil {
			msg := err.Error()
			if ee, ok := err.(*exec.ExitError); ok {
				msg += ": " + string(ee.Stderr)
			}
			got = append(got, answer{Error: msg})
			continue
		}
		status, _ := strconv.Atoi(string(code))
		body, _ := os.ReadFile(out)
		head, _ := os.ReadFile(headers)
		br := bufio.NewReader(bytes.NewReader(head))
		res, _ := http.ReadResponse(br, nil)
		for res != nil && res.StatusCode < 200 { // curl writes a 100 Continue's head too
			res, _ = http.ReadResponse(br, nil)
		}
		conn := ""
		if res != nil && res.Close { // ReadResponse takes Connection: close out of Header
			conn = "close"
		}
		got = append(got, answer{Status: status, Body: string(body), Connection: conn})
	}
	return got
}

// onlyReader hides a reader's length, so that net/http's client sends it chunked.
type onlyReader struct{ io.Reader }

func postGo(t *testing.T, uploads []upload) []answer {
	t.Helper()
	client := &http.Client{Timeout: 60 * time.Second}
	defer client.CloseIdleConnections()
	var got []answer
	for _, u := range uploads {
		var body io.Reader = bytes.NewReader(bytes.Repeat([]byte("x"), u.Size))
		if u.Chunked {
			body = onlyReader{body}
		}
		res, err := client.Post(u.URL, "application/json", body)
		if err != nil {
			got = append(got, answer{Error: err.Error()})
			continue
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		a := answer{Status: res.StatusCode, Body: string(b), Connection: res.Header.Get("Connection")}
		if err != nil {
			a.Error = err.Error()
		}
		// net/http's client takes Connection: close as its own and drops it from Header.
		if res.Close {
			a.Connection = "close"
		}
		got = append(got, a)
	}
	return got
}

// checkAnswers requires every client to have got its answer: the status, the error object of
// the class, and Connection: close.
func checkAnswers(t *testing.T, client string, uploads []upload, got []answer) {
	t.Helper()
	for i, u := range uploads {
		a := got[i]
		if !assert.Empty(t, a.Error, "%s, %s: the client lost the answer", client, u) {
			continue
		}
		if assert.Equal(t, u.want, a.Status, "%s, %s: %s", client, u, a.Body) {
			assert.Equal(t, u.class, errorClassOf([]byte(a.Body)), "%s, %s: %s", client, u, a.Body)
			assert.Equal(t, "close", strings.ToLower(a.Connection), "%s, %s", client, u)
		}
	}
}

const clientLimit = 1 << 20 // the body limit of the client tests: 1 MiB

// TestRefusedUploadsGetTheirAnswer: every client gets its 413 for a body 2, 10 and 40 times
// the limit, sent with a Content-Length and chunked, and its 429 for a large body sent while
// the in-flight cap is taken.
func TestRefusedUploadsGetTheirAnswer(t *testing.T) {
	needTools(t, "python", "curl")
	// Bounds a slow run never comes near (a 40 MiB body from Python under the race detector
	// on a busy machine takes seconds): the bounds themselves are TestLingeringCloseEnds's.
	linger := Timeouts{LingerTime: 5 * time.Minute, LingerTimeout: time.Minute}
	s, _ := newTestServer(t, Config{BodyLimit: clientLimit})
	addr := startServer(t, s, linger)
	busy, _ := newTestServer(t, Config{BodyLimit: 64 << 20, MaxInFlight: 1})
	held := linger
	held.MinBodyRate = -1 // the held request's 10 bytes outlast the test
	busyAddr := startServer(t, busy, held)
	holdInFlightSlot(t, busy, busyAddr)

	var uploads []upload
	for _, chunked := range []bool{false, true} {
		for _, times := range []int{2, 10, 40} {
			uploads = append(uploads, upload{URL: "http://" + addr + routeNormalize, Size: times * clientLimit, Chunked: chunked,
				want: http.StatusRequestEntityTooLarge, class: "PayloadTooLarge"})
		}
		uploads = append(uploads, upload{URL: "http://" + busyAddr + routeNormalize, Size: 10 * clientLimit, Chunked: chunked,
			want: http.StatusTooManyRequests, class: ClassTooManyRequests})
	}
	var wg sync.WaitGroup
	for _, client := range clients {
		wg.Go(func() {
			checkAnswers(t, client, uploads, post(t, client, uploads))
		})
	}
	wg.Wait()
	if t.Failed() {
		for _, srv := range []*Server{s, busy} {
			w := do(t, srv, call{method: "GET", target: "/metrics"})
			for line := range strings.SplitSeq(w.Body.String(), "\n") {
				if strings.HasPrefix(line, "normalizer_lingering") {
					t.Log(line)
				}
			}
		}
	}
}

// holdInFlightSlot takes s's one in-flight slot with a request whose body never ends, until
// the test ends.
func holdInFlightSlot(t *testing.T, s *Server, addr string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	_, err = io.WriteString(conn, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"final_re")
	require.NoError(t, err)
	require.Eventually(t, func() bool { return s.inFlight.Load() == 1 }, 30*time.Second, time.Millisecond,
		"the held request takes the slot")
}

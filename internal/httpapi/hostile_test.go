package httpapi

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/dystopic/normalizer/internal/testkit/heaptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zeroMember is one gzip member that decodes to 1 MiB of zeros, in about a kilobyte.
var zeroMember = func() []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(make([]byte, 1<<20))
	_ = zw.Close()
	return buf.Bytes()
}()

// endlessBomb is a gzip body that never ends: member after member of zeros. Only a server
// that stops reading at its limit ever answers it.
type endlessBomb struct{ off int }

func (e *endlessBomb) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], zeroMember[e.off:])
		n += c
		e.off = (e.off + c) % len(zeroMember)
	}
	return n, nil
}

// TestGzipBomb: a small compressed body that decodes to far more than the limit is answered
// 413 after decoding limit+1 bytes; the compressed bytes taken from the client are those few
// that decode to the limit, not the whole body.
func TestGzipBomb(t *testing.T) {
	const limit = 1 << 20
	gib := bytes.Repeat(zeroMember, 1024) // 1 GiB decoded in about 1 MiB
	tests := []struct {
		name string
		body io.Reader
	}{
		{"1 GiB of zeros in 1024 members", bytes.NewReader(gib)},
		{"one member, 16 MiB of zeros", bytes.NewReader(gzipBytes(make([]byte, 16<<20)))},
		{"endless", &endlessBomb{}},
		{"16 MiB JSON string", bytes.NewReader(gzipBytes([]byte(`"` + strings.Repeat("a", 16<<20) + `"`)))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestServer(t, Config{BodyLimit: limit})
			cb := &countingBody{r: tt.body}
			req := httptest.NewRequest("POST", "/v1/normalize", cb)
			req.ContentLength = -1
			req.Header.Set("Content-Encoding", "gzip")
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			require.Equal(t, 413, w.Code, "body %s", w.Body.Bytes())
			checkAnswer(t, w.Code, w.Header(), w.Body.Bytes())
			assert.Contains(t, w.Body.String(), `"limit":1048576`)
			assert.Equal(t, float64(limit+1), metricValue(t, s, "normalizer_request_body_bytes_total"), "decoded bytes read")
			// 1 MiB of zeros is about 1 KiB compressed; flate reads ahead in 4 KiB blocks.
			assert.Less(t, cb.n, 64<<10, "compressed bytes taken from the client")
		})
	}
}

// TestDeepNestingOverHTTP: 100,000 nested arrays are rejected as InvalidJSON where the
// nesting passes the depth limit, and with the limit raised past 100,000 they are accepted:
// under a 1 MiB stack cap for the whole process, so nothing on the way recurses per level
// (a recursive descent would need several MiB and crash the test binary).
func TestDeepNestingOverHTTP(t *testing.T) {
	const depth = 100_000
	nested := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
	tests := []struct {
		name     string
		maxDepth int
		body     string
		status   int
		has      string
	}{
		{"top level, default limit", 0, nested, 400, `"offset":900`},
		{"in metadata, default limit", 0, `{"final_response":"a","metadata":` + nested + `}`, 400, `"offset":932`},
		{"in content, default limit", 0, `{"final_response":"a","messages":[{"role":"user","content":` + nested + `}]}`, 400, `"class":"InvalidJSON"`},
		{"unclosed, default limit", 0, strings.Repeat("[", depth), 400, `"offset":900`},
		{"top level, limit raised", 1_000_000, nested, 422, `"class":"ResponseShapeError"`},
		{"in metadata, limit raised", 1_000_000, `{"final_response":"a","metadata":` + nested + `}`, 200, `"rich_mode":false`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestServer(t, Config{MaxDepth: tt.maxDepth})
			w := do(t, s, call{method: "POST", target: "/v1/normalize?explain=true", body: strings.NewReader(tt.body)})
			require.Equal(t, tt.status, w.Code, "%.300s", w.Body.Bytes())
			checkAnswer(t, w.Code, w.Header(), w.Body.Bytes())
			assert.Contains(t, w.Body.String(), tt.has)
		})
	}
}

// hashWriter is a ResponseWriter that keeps a digest of the body, not the body: the memory
// tests measure the server's heap, not a recorder's copy of the answer.
type hashWriter struct {
	h    http.Header
	code int
	n    int
	sum  interface {
		io.Writer
		Sum([]byte) []byte
	}
}

func newHashWriter() *hashWriter { return &hashWriter{h: http.Header{}, sum: sha256.New()} }

func (w *hashWriter) Header() http.Header { return w.h }
func (w *hashWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}
func (w *hashWriter) Write(p []byte) (int, error) {
	w.WriteHeader(200)
	w.n += len(p)
	return w.sum.Write(p)
}

// TestMemoryBoundHTTP: a 20 MiB body through the whole handler (reading, decoding,
// normalizing, writing) costs the server a peak heap under 3.25 times the body: its copy
// of the body, the record and the scanner's scratch, and the chunks it was read in. The client's own copy of the body is
// not counted, the answer is hashed rather than kept, and it must be exactly single-mode
// normalize's output.
func TestMemoryBoundHTTP(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("builds 20 MiB bodies and measures the heap: run without -short and -race")
	}
	if !heaptest.Alone(t) { // Peak reads the process's heap
		return
	}
	const size = 20 << 20
	var tiny bytes.Buffer
	tiny.WriteString(`{"final_response":"ok","messages":[`)
	for tiny.Len() < size-64 {
		tiny.WriteString(`{"role":"user","content":"x"},`)
	}
	tiny.WriteString(`{"role":"user","content":"x"}]}`)
	final := []byte(`{"final_response":"` + strings.Repeat("ab\\n", size/4-10) + `"}`)
	tests := []struct {
		name    string
		body    []byte
		gzip    bool
		chunked bool // no Content-Length: the body is read in chunks, then copied once
	}{
		{name: "tiny messages", body: tiny.Bytes()},
		{name: "tiny messages, chunked", body: tiny.Bytes(), chunked: true},
		{name: "tiny messages, gzip", body: tiny.Bytes(), gzip: true},
		{name: "huge final_response", body: final},
		{name: "huge final_response, explain", body: final},
		{name: "huge final_response, gzip", body: final, gzip: true},
	}
	s, _ := newTestServer(t, Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.LessOrEqual(t, len(tt.body), size)
			n := s.plain
			target := "/v1/normalize"
			if strings.Contains(tt.name, "explain") {
				n, target = s.explain, target+"?explain=true"
			}
			want, class := expectedOutput(n, tt.body)
			require.Empty(t, class)
			wantSum := sha256.Sum256(want)
			want = nil
			wire := tt.body
			if tt.gzip {
				wire = gzipBytes(tt.body)
			}
			w := newHashWriter()
			extra := heaptest.Peak(func() {
				req := httptest.NewRequest("POST", target, bytes.NewReader(wire))
				if tt.gzip {
					req.Header.Set("Content-Encoding", "gzip")
				}
				if tt.chunked || tt.gzip {
					req.ContentLength = -1
				}
				s.Handler().ServeHTTP(w, req)
			})
			require.Equal(t, 200, w.code)
			require.Equal(t, wantSum[:], w.sum.Sum(nil), "the record differs from single-mode normalize")
			ratio := float64(extra) / float64(len(tt.body))
			t.Logf("%s: %d bytes in, %d out, server peak heap %.2fx the body", tt.name, len(tt.body), w.n, ratio)
			// A body past its first buffer (1 MiB) is read in chunks and copied once into a
			// buffer of its size, its Content-Length given or not (a claim is given room only
			// as its bytes come): the chunks are dead by the time the record is built, but the
			// GC may not have swept them yet, and the sampler counts them.
			require.Less(t, ratio, 3.25)
		})
	}
}

// TestMemoryBoundGzipBomb: the bomb costs at most about the limit in memory, however much it
// would decode to.
func TestMemoryBoundGzipBomb(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("measures the heap: run without -short and -race")
	}
	if !heaptest.Alone(t) {
		return
	}
	const limit = 4 << 20
	s, _ := newTestServer(t, Config{BodyLimit: limit})
	w := newHashWriter()
	extra := heaptest.Peak(func() {
		req := httptest.NewRequest("POST", "/v1/normalize", &endlessBomb{})
		req.Header.Set("Content-Encoding", "gzip")
		req.ContentLength = -1
		s.Handler().ServeHTTP(w, req)
	})
	require.Equal(t, 413, w.code)
	t.Logf("endless gzip bomb, limit %d: server peak heap %.2fx the limit", limit, float64(extra)/limit)
	require.Less(t, float64(extra)/limit, 3.0)
}

// metricValue scrapes GET /metrics and returns the value of the unlabelled metric name.
func metricValue(t testing.TB, s *Server, name string) float64 {
	t.Helper()
	w := do(t.(*testing.T), s, call{method: "GET", target: "/metrics"})
	for _, line := range strings.Split(w.Body.String(), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err, line)
			return f
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

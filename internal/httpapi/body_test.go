package httpapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/heaptest"
)

// Reading the request body: the body limit and what its 413s say, a Content-Length not taken
// on trust, Content-Encoding and gzip (415, the bound on compressed bytes), and the message of a
// body that cannot be read or decoded.

type countingBody struct {
	r io.Reader
	n int
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestBodyLimitStopsReading(t *testing.T) {
	const limit = 1000
	tests := []struct {
		name string
		size int
		want int
	}{
		{name: "at-limit", size: limit, want: 200},
		{name: "one-over", size: limit + 1, want: 413},
		{name: "far-over", size: 50 * limit, want: 413},
	}
	s, _ := newTestServer(t, Config{BodyLimit: limit})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `"` + strings.Repeat("a", tt.size-2) + `"`
			cb := &countingBody{r: strings.NewReader(body)}
			req := httptest.NewRequest("POST", "/v1/normalize", cb)
			req.ContentLength = -1 // unknown length: the limit must hold while reading
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			require.Equal(t, tt.want, w.Code, "body %s", w.Body.Bytes())
			assert.LessOrEqual(t, cb.n, limit+1, "bytes read from the body")
		})
	}
}

func TestContentLengthOverLimitReadsNothing(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: 100})
	cb := &countingBody{r: strings.NewReader(strings.Repeat("a", 1000))}
	req := httptest.NewRequest("POST", "/v1/normalize", cb)
	req.ContentLength = 1000
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	require.Equal(t, 413, w.Code)
	assert.Equal(t, 0, cb.n)
	assert.Contains(t, w.Body.String(), `"limit":100`)
}

func TestGzipLimitCountsDecodedBytes(t *testing.T) {
	// 3000 decoded bytes compress to far less than the 2000-byte limit: decoded size decides.
	s, _ := newTestServer(t, Config{BodyLimit: 2000})
	raw := []byte(`"` + strings.Repeat("b", 2998) + `"`)
	z := gzipped(t, raw)
	require.Less(t, len(z), 2000)
	w := do(t, s, call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(z), header: map[string]string{"Content-Encoding": "gzip"}})
	require.Equal(t, 413, w.Code)
	assert.Equal(t, "PayloadTooLarge", errorClass(t, w.Body.Bytes()))
}

// blockingBody lets a test hold a request in flight until it closes release.
func TestBodyLimitHasAMaximum(t *testing.T) {
	_, err := New(Config{BodyLimit: MaxBodyLimit + 1, Schemas: testSchemas})
	require.Error(t, err)
	assert.Contains(t, err.Error(), strconv.Itoa(MaxBodyLimit))
	_, err = New(Config{BodyLimit: MaxBodyLimit, Schemas: testSchemas})
	require.NoError(t, err)
}

// A body of unknown length that passes the limit is reported as more than the limit: the
// service stopped reading and does not know its size.
func TestTooLargeWithoutLengthSaysMoreThan(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: 1024})
	req := httptest.NewRequest("POST", "/v1/normalize", strings.NewReader(`"`+strings.Repeat("a", 2020)+`"`))
	req.ContentLength = -1
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	require.Equal(t, http.StatusRequestEntityTooLarge, w.Code)
	assert.Contains(t, w.Body.String(), "request body of more than 1024 bytes (reading stopped there) is over the body limit of 1024 bytes (1KiB)")
}

// shortBody claims more than it holds: a client that sends a large Content-Length and then
// only a few bytes.
type shortBody struct{ r io.Reader }

func (b shortBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

func TestContentLengthIsNotTakenOnTrust(t *testing.T) {
	if !heaptest.Alone(t) { // allocations are counted process-wide
		return
	}
	s, _ := newTestServer(t, Config{BodyLimit: MaxBodyLimit})
	req := httptest.NewRequest("POST", "/v1/normalize", shortBody{strings.NewReader(`{"final_response":"x"`)})
	req.ContentLength = 1 << 30 // a claim of 1 GiB, 21 bytes sent
	w := httptest.NewRecorder()
	allocated := heaptest.Allocated(func() { s.Handler().ServeHTTP(w, req) })
	assert.Equal(t, http.StatusBadRequest, w.Code, w.Body.String())
	t.Logf("allocated %d bytes for a 1 GiB claim", allocated)
	assert.Less(t, allocated, uint64(4<<20), "a claimed length reserves at most upfrontLimit before its bytes come")
}

func TestReadLimitedReadsAKnownLength(t *testing.T) {
	for _, size := range []int{0, 1, upfrontLimit - 1, upfrontLimit, upfrontLimit + 1, 3*upfrontLimit + 7, 20 << 20} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			body := bytes.Repeat([]byte{'a'}, size)
			dst := make([]byte, 0, min(size+1, upfrontLimit))
			got, n, err := readLimited(iotestHalf{bytes.NewReader(body)}, dst, 20<<20, int64(size), &reservation{})
			require.NoError(t, err)
			assert.Equal(t, int64(size), n)
			assert.True(t, bytes.Equal(body, got))
			assert.LessOrEqual(t, cap(got), size+1, "the last buffer is no larger than the body and room for EOF")
		})
	}
}

// iotestHalf returns at most half of what is asked each time (at least one byte), as a slow
// network does.
type iotestHalf struct{ r io.Reader }

func (h iotestHalf) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:len(p)/2]
	}
	return h.r.Read(p)
}

func TestGzipWireBytesAreBounded(t *testing.T) {
	// Thousands of empty gzip members decode to nothing: the decoded limit never trips, the
	// compressed bound does.
	var empty bytes.Buffer
	zw := gzip.NewWriter(&empty)
	require.NoError(t, zw.Close())
	limit := int64(1024)
	members := int(gzipWireLimit(limit))/empty.Len() + 10
	body := append(bytes.Repeat(empty.Bytes(), members), gzipped(t, []byte(`"x"`))...)
	s, logs := newTestServer(t, Config{BodyLimit: limit})
	w := do(t, s, call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(body),
		header: map[string]string{"Content-Encoding": "gzip"}})
	require.Equal(t, http.StatusRequestEntityTooLarge, w.Code, w.Body.String())
	assert.Equal(t, "PayloadTooLarge", errorClass(t, w.Body.Bytes()))
	assert.Contains(t, w.Body.String(), "compressed bytes")
	var e struct {
		Error struct {
			Limit *int64 `json:"limit"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &e))
	require.NotNil(t, e.Error.Limit, "every 413 says its limit (review 4): %s", w.Body.String())
	assert.Equal(t, limit, *e.Error.Limit, "the body limit, which the client can act on")
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 1)

	// An honest gzip body just under the limit passes: incompressible bytes grow a little.
	s, _ = newTestServer(t, Config{BodyLimit: 64 << 10})
	noise := make([]byte, 60<<10)
	for i := range noise {
		noise[i] = byte('a' + (i*7919)%26)
	}
	doc := []byte(`{"final_response":"` + string(noise) + `"}`)
	w = do(t, s, call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(gzipped(t, doc)),
		header: map[string]string{"Content-Encoding": "gzip"}})
	assert.Equal(t, http.StatusOK, w.Code, w.Body.String())
}

func TestContentEncodingLines(t *testing.T) {
	doc := []byte(`{"final_response":"hi"}`)
	tests := []struct {
		name   string
		lines  []string
		gzip   bool
		status int
	}{
		{"none", nil, false, 200},
		{"identity", []string{"identity"}, false, 200},
		{"gzip", []string{"gzip"}, true, 200},
		{"x-gzip upper case", []string{"X-GZIP"}, true, 200},
		{"identity line then gzip line", []string{"identity", "gzip"}, true, 200},
		{"gzip and identity in one line", []string{"gzip, identity"}, true, 200},
		{"gzip twice in two lines", []string{"gzip", "gzip"}, true, 415},
		{"gzip twice in one line", []string{"gzip, gzip"}, true, 415},
		{"br", []string{"br"}, false, 415},
		{"gzip then br", []string{"gzip", "br"}, true, 415},
		{"empty line", []string{""}, false, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestServer(t, Config{})
			body := doc
			if tt.gzip {
				body = gzipped(t, doc)
			}
			req := httptest.NewRequest("POST", "/v1/normalize", bytes.NewReader(body))
			for _, l := range tt.lines {
				req.Header.Add("Content-Encoding", l)
			}
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			require.Equal(t, tt.status, w.Code, w.Body.String())
			if tt.status == 415 {
				assert.Equal(t, ClassUnsupportedMediaType, errorClass(t, w.Body.Bytes()))
			}
		})
	}
}

// A body that cannot be read or decoded gets a message that says what arrived and what was
// expected, not the decoder's own "EOF" or "gzip: invalid header".
func TestUnreadableBodySaysWhatArrived(t *testing.T) {
	member := gzipBytes([]byte(okResult))
	corrupt := append([]byte(nil), member...)
	corrupt[len(corrupt)-5] ^= 0xff // in the CRC
	tests := []struct {
		name    string
		body    io.Reader
		length  int64 // Content-Length; -1 for chunked
		gzip    bool
		message string
	}{
		{name: "empty gzip", body: strings.NewReader(""), gzip: true,
			message: "gzip body: empty; expected a gzip stream, as Content-Encoding: gzip says"},
		{name: "not gzip", body: strings.NewReader(okResult), length: int64(len(okResult)), gzip: true,
			message: "gzip body: not gzip: it does not start with gzip's bytes 1f 8b"},
		{name: "not gzip, shorter than a gzip header", body: strings.NewReader("{}"), length: 2, gzip: true,
			message: "gzip body: not gzip: it does not start with gzip's bytes 1f 8b"},
		{name: "not gzip, one byte", body: strings.NewReader("1"), length: 1, gzip: true,
			message: "gzip body: not gzip"},
		{name: "cut inside the first header", body: bytes.NewReader(member[:6]), length: 6, gzip: true,
			message: "gzip body: the gzip stream is cut short: all 6 compressed bytes arrived, and they end inside a gzip header"},
		{name: "bad header", body: bytes.NewReader(append([]byte{0x1f, 0x8b, 7}, member[3:]...)), gzip: true, // a method other than deflate (8)
			message: "gzip body: its gzip header is invalid"},
		{name: "garbage after a member", body: bytes.NewReader(append(append([]byte(nil), member...), "and then some text"...)), gzip: true,
			message: fmt.Sprintf("request body: trailing bytes after the gzip stream: it ends after %d compressed bytes, and the bytes after it are not another gzip member", len(member))},
		{name: "a few bytes after a member", body: bytes.NewReader(append(append([]byte(nil), member...), "abc"...)), gzip: true,
			message: fmt.Sprintf("request body: trailing bytes after the gzip stream: it ends after %d compressed bytes, and what follows it (3 bytes) is too short to be another gzip member", len(member))},
		{name: "a few bytes after two members", body: bytes.NewReader(append(append(append([]byte(nil), member...), member...), "\n"...)), gzip: true,
			message: fmt.Sprintf("request body: trailing bytes after the gzip stream: it ends after %d compressed bytes, and what follows it (1 byte) is too short", 2*len(member))},
		{name: "a second member cut short", body: bytes.NewReader(append(append([]byte(nil), member...), member[:len(member)-6]...)), gzip: true,
			message: fmt.Sprintf("request body: the gzip stream is cut short: all %d compressed bytes arrived", 2*len(member)-6)},
		{name: "truncated gzip", body: bytes.NewReader(member[:len(member)-6]), gzip: true,
			message: fmt.Sprintf("request body: the gzip stream is cut short: all %d compressed bytes arrived", len(member)-6)},
		{name: "corrupt gzip", body: bytes.NewReader(corrupt), gzip: true,
			message: "request body: the gzip stream's checksum does not match its data: the body is corrupt"},
		{name: "connection cut", body: shortBody{strings.NewReader(`{"final`)}, length: 100,
			message: "request body: the connection ended after 7 bytes of the body, of the 100 its Content-Length announced"},
		{name: "connection cut, chunked", body: shortBody{strings.NewReader(`{"final`)}, length: -1,
			message: "request body: the connection ended after 7 bytes of the body, before the chunked body's last chunk"},
		{name: "connection cut, gzip", body: shortBody{bytes.NewReader(member[:len(member)/2])}, length: int64(len(member)), gzip: true,
			message: fmt.Sprintf("request body: the connection ended after %d compressed bytes of the body, of the %d its Content-Length announced", len(member)/2, len(member))},
	}
	s, _ := newTestServer(t, Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/v1/normalize", tt.body)
			req.ContentLength = tt.length
			if tt.gzip {
				req.Header.Set("Content-Encoding", "gzip")
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			require.Equal(t, http.StatusBadRequest, w.Code, w.Body.String())
			class, message := errorOf(t, w.Body.Bytes())
			assert.Equal(t, ClassBadRequest, class)
			assert.Contains(t, message, tt.message)
		})
	}
}

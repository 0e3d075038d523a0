package httpapi

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/schemacheck"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
	"github.com/dystopic/normalizer/schemas"
)

// wireBody is a request body as net/http's server hands it to a handler: at most
// ContentLength bytes, and io.ErrUnexpectedEOF when the connection ends before them. Fuzzing
// in process with it keeps Content-Length mismatches faithful without a socket per input.
type wireBody struct {
	r    io.Reader
	left int64 // -1: unknown length (chunked), read to EOF
}

func (b *wireBody) Read(p []byte) (int, error) {
	if b.left == 0 {
		return 0, io.EOF
	}
	if b.left > 0 && int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	if b.left > 0 {
		b.left -= int64(n)
		if errors.Is(err, io.EOF) && b.left > 0 {
			return n, io.ErrUnexpectedEOF
		}
		if b.left == 0 && errors.Is(err, io.EOF) {
			err = nil
		}
	}
	return n, err
}

// expectedOutput is what single-mode normalize prints for raw, without its trailing newline:
// the record's bytes or the error object.
func expectedOutput(n *normalize.Normalizer, raw []byte) (out []byte, class string) {
	res, err := n.Normalize(raw)
	if err != nil {
		c, _ := normalize.ClassOf(err)
		return normalize.AppendError(nil, err), string(c)
	}
	out = res.AppendJSON(nil)
	res.Release()
	return out, ""
}

var documentedStatus = map[int]bool{200: true, 400: true, 404: true, 405: true, 408: true, 413: true, 415: true, 422: true, 429: true}

// checkAnswer holds for every answer of the service: a documented status, JSON, a body in
// the record or the error shape whose class agrees with the status, and a request id.
func checkAnswer(t testing.TB, status int, h http.Header, body []byte) {
	t.Helper()
	require.True(t, documentedStatus[status], "status %d is not documented (500 means a panic); body %s", status, body)
	require.Equal(t, "application/json", h.Get("Content-Type"), "status %d", status)
	require.True(t, validRequestID(h.Get("X-Request-ID")), "X-Request-ID %q", h.Get("X-Request-ID"))
	if status == 200 {
		require.NoError(t, schemacheck.Validate("record.schema.json", body), "record %s", body)
		return
	}
	require.NoError(t, schemacheck.Validate("error.schema.json", body), "error %s", body)
	class := errorClassOf(body)
	require.Equal(t, status, classStatus[class], "class %q with status %d: %s", class, status, body)
	if status == 429 {
		require.NotEmpty(t, h.Get("Retry-After"))
	}
}

func errorClassOf(body []byte) string {
	const key = `{"error":{"class":"`
	if !bytes.HasPrefix(body, []byte(key)) {
		return ""
	}
	rest := body[len(key):]
	if i := bytes.IndexByte(rest, '"'); i >= 0 {
		return string(rest[:i])
	}
	return ""
}

const fuzzBodyLimit = 64 << 10

// FuzzHandler sends the real router raw bodies with fuzzed headers, query, method and path:
// nothing panics, every answer is documented JSON (checkAnswer), and whenever the request is
// a well-formed POST /v1/normalize the body is byte for byte what single-mode normalize
// prints for the same bytes.
func FuzzHandler(f *testing.F) {
	for _, seed := range []struct {
		body                      string
		encoding, id, query, path string
		gz                        bool
		clDelta                   int64
		method                    uint8
	}{
		{body: okResult},
		{body: okResult, query: "explain=true"},
		{body: okResult, gz: true, encoding: "gzip"},
		{body: okResult, gz: true, encoding: "x-gzip", query: "explain=1"},
		{body: okResult, encoding: "gzip"}, // not actually gzip
		{body: okResult, encoding: "br"},
		{body: okResult, encoding: " Identity "},
		{body: `"done"`, clDelta: -2},
		{body: `"done"`, clDelta: 5},
		{body: `"done"`, clDelta: fuzzBodyLimit},
		{body: `"done"`, id: "abc-123"},
		{body: `"done"`, id: "bad id\x00\n"},
		{body: `"done"`, id: strings.Repeat("x", 200)},
		{body: `"done"`, query: "explain=maybe"},
		{body: `"done"`, query: "explain=%zz&&;"},
		{body: `"done"`, query: "explain=true&explain=false"},
		{body: `"done"`, query: "explian=true"},
		{body: `"done"`, query: "explain=true&Explain=1"},
		{body: `"` + strings.Repeat("x", fuzzBodyLimit) + `"`},
		{body: `{"final_response":null}`},
		{body: `{"output":"x"}`},
		{body: `[1,2`},
		{body: "\xef\xbb\xbf\"bom\""},
		{body: `"\ud800"`},
		{body: strings.Repeat("[", 2000) + strings.Repeat("]", 2000)},
		{body: `{"final_response":"a","messages":[{"role":"developer","content":{}}],"metadata":{"total_input_tokens":-1}}`},
		{body: `"done"`, method: 1},
		{body: `"done"`, path: "/v1/normalize/"},
		{body: `"done"`, path: "/v1/schemas/record"},
		{body: `"done"`, path: "/%2e%2e/etc/passwd"},
		{body: ``},
	} {
		f.Add([]byte(seed.body), seed.encoding, seed.id, seed.query, seed.path, seed.gz, seed.clDelta, seed.method)
	}
	schemacheckOnce(f)
	// A budget far larger than any request: every request reserves and must give it all back.
	s, err := New(Config{BodyLimit: fuzzBodyLimit, Schemas: schemas.FS, Logger: zerolog.Nop(), MemoryBudget: 1 << 40})
	require.NoError(f, err)
	s.SetReady(true)
	plain := porting.New(normalize.WithMaxBytes(fuzzBodyLimit))
	explain := porting.New(normalize.WithMaxBytes(fuzzBodyLimit), normalize.WithExplain())
	methods := []string{"POST", "GET", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "BREW"}

	f.Fuzz(func(t *testing.T, body []byte, encoding, id, query, path string, gz bool, clDelta int64, method uint8) {
		wire := body
		if gz {
			wire = gzipBytes(body)
		}
		if path == "" {
			path = routeNormalize
		}
		cl := int64(len(wire)) + clDelta
		if cl < 0 {
			cl = -1 // chunked: no length, read to EOF
		}
		req := &http.Request{
			Method:     methods[int(method)%len(methods)],
			URL:        &url.URL{Path: path, RawQuery: query},
			Proto:      "HTTP/1.1",
			ProtoMajor: 1, ProtoMinor: 1,
			Header:        http.Header{},
			Body:          io.NopCloser(&wireBody{r: bytes.NewReader(wire), left: cl}),
			ContentLength: cl,
			Host:          "127.0.0.1",
			RemoteAddr:    "127.0.0.1:1",
			RequestURI:    (&url.URL{Path: path, RawQuery: query}).RequestURI(),
		}
		if encoding != "" {
			req.Header.Set("Content-Encoding", encoding)
		}
		if id != "" {
			req.Header.Set("X-Request-ID", id)
		}
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		require.Zero(t, s.budget.used.Load(), "a reservation was not given back")
		got := w.Body.Bytes()
		if req.Method == "OPTIONS" && w.Code == 204 {
			// echo's router answers OPTIONS on a known path itself: 204, no body, with Allow.
			require.Empty(t, got)
			require.NotEmpty(t, w.Header().Get("Allow"))
			return
		}
		if w.Code == 200 && (req.Method == "GET" || req.Method == "HEAD") {
			// A read-only route (HEAD stands for GET): health, schemas, metrics or the OpenAPI
			// document, each tested on its own; here it only must not fail.
			require.True(t, validRequestID(w.Header().Get("X-Request-ID")))
			return
		}
		checkAnswer(t, w.Code, w.Header(), got)
		if validRequestID(id) {
			require.Equal(t, id, w.Header().Get("X-Request-ID"))
		}

		// The oracle: a well-formed request must get exactly single-mode normalize's output.
		enc := strings.ToLower(strings.TrimSpace(encoding))
		isGzip := enc == "gzip" || enc == "x-gzip"
		if req.Method != "POST" || path != routeNormalize || clDelta != 0 || gz != isGzip ||
			!(enc == "" || enc == "identity" || isGzip) {
			return
		}
		n := plain
		if query != "" {
			v, err := url.ParseQuery(query)
			if err != nil {
				require.Equal(t, 400, w.Code, "malformed query %q", query)
				return
			}
			for k := range v {
				if k != "explain" && nearExplain(k) {
					require.Equal(t, 400, w.Code, "misspelt explain %q", k)
					require.Equal(t, ClassBadRequest, errorClass(t, got))
					return
				}
			}
			if e, given := v["explain"]; given {
				on, err := strconv.ParseBool(e[0])
				if err != nil || len(e) > 1 {
					require.Equal(t, 400, w.Code, "explain=%q", e)
					return
				}
				if on {
					n = explain
				}
			}
		}
		want, class := expectedOutput(n, body)
		if class == string(normalize.ClassPayloadTooLarge) {
			// The service's 413 says more than the core's (how the size was found, the flag
			// that raises the limit): the class, status and limit are the core's.
			require.Equal(t, class, errorClass(t, got))
			require.Contains(t, string(got), `"limit":`+strconv.Itoa(fuzzBodyLimit)+`}`)
			require.Equal(t, 413, w.Code)
			return
		}
		require.Equal(t, string(want), string(got), "class %q", class)
		if class == "" {
			require.Equal(t, 200, w.Code)
		} else {
			require.Equal(t, classStatus[class], w.Code)
		}
	})
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

// schemacheckOnce fails early, with a clear message, when the schemas do not compile.
func schemacheckOnce(tb testing.TB) {
	_, err := schemacheck.Schema("record.schema.json")
	require.NoError(tb, err)
}

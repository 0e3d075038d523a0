package httpapi

import (
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// handleNormalize is POST /v1/normalize: the raw result in, the record out.
func (s *Server) handleNormalize(c echo.Context) error {
	req := c.Request()
	n, err := s.normalizerFor(req)
	if err != nil {
		return err
	}
	in := getBuffer()
	defer putBuffer(in)
	x := exchangeOf(c)
	in.b, err = s.readBody(req, in.b[:0], x)
	if err != nil {
		return err
	}
	res, err := n.Normalize(in.b)
	if err != nil {
		return err // the error handler renders it with normalize.AppendError
	}
	s.metrics.observeResult(res)
	x.warnings = len(res.Warnings())
	out := getBuffer()
	defer putBuffer(out)
	if hint := res.SizeHint(); cap(out.b) < hint {
		out.b = make([]byte, 0, hint) // growing by append would hold old and new copies at once
	}
	out.b = res.AppendJSON(out.b[:0])
	res.Release() // the record is in out; res and its scratch go back to the core's pool
	w := c.Response()
	h := w.Header()
	h[echo.HeaderContentType] = jsonContentType
	h[echo.HeaderContentLength] = []string{strconv.Itoa(len(out.b))}
	w.WriteHeader(http.StatusOK)
	// A failed write means the client went away after the answer was committed: nothing to
	// tell it, and not a server error to count.
	_, _ = w.Write(out.b)
	return nil
}

// normalizerFor picks the plain or the explaining normalizer from ?explain=.
func (s *Server) normalizerFor(req *http.Request) (*normalize.Normalizer, error) {
	if req.URL.RawQuery == "" {
		return s.plain, nil
	}
	v := req.URL.Query().Get("explain")
	if v == "" {
		return s.plain, nil
	}
	explain, err := strconv.ParseBool(v)
	if err != nil {
		return nil, &apiError{class: ClassBadRequest, msg: "query parameter explain is " + strconv.Quote(v) + "; expected true or false"}
	}
	if explain {
		return s.explain, nil
	}
	return s.plain, nil
}

// readBody appends the body, decoded, to dst. It never reads more than BodyLimit+1 decoded
// bytes: one byte past the limit is how it knows the body is too large.
func (s *Server) readBody(req *http.Request, dst []byte, x *exchange) ([]byte, error) {
	limit := s.cfg.BodyLimit
	var r io.Reader = req.Body
	switch enc := contentEncoding(req.Header); {
	case enc == "" || strings.EqualFold(enc, "identity"):
		if req.ContentLength > limit {
			return dst, &normalize.PayloadTooLargeError{Size: req.ContentLength, Limit: limit}
		}
		if req.ContentLength > 0 && int64(cap(dst)) < req.ContentLength+1 {
			dst = make([]byte, 0, req.ContentLength+1) // +1: room to see EOF without growing
		}
	case strings.EqualFold(enc, "gzip") || strings.EqualFold(enc, "x-gzip"):
		zr, err := getGzip(req.Body)
		if zr != nil {
			defer gzipPool.Put(zr)
		}
		if err != nil {
			return dst, bodyError(err, "gzip body")
		}
		r = zr
	default:
		return dst, &apiError{class: ClassUnsupportedMediaType,
			msg: "Content-Encoding " + strconv.Quote(enc) + " is not supported; send the body as is or with gzip"}
	}
	b, n, err := readLimited(r, dst, limit)
	x.bytesIn = n
	s.metrics.bytesIn.Add(float64(n))
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return dst, &normalize.PayloadTooLargeError{Size: n, Limit: limit, AtLeast: true}
		}
		return dst, bodyError(err, "request body")
	}
	return b, nil
}

// contentEncoding is the request's Content-Encoding, trimmed. net/http canonicalizes header
// keys, so a map lookup does what Header.Get does without canonicalizing the key each time.
func contentEncoding(h http.Header) string {
	if v := h[echo.HeaderContentEncoding]; len(v) > 0 {
		return strings.TrimSpace(v[0])
	}
	return ""
}

var errTooLarge = errors.New("body over the limit")

// readLimited reads r to EOF into dst, failing with errTooLarge once more than limit bytes
// came; the reads are sized so that at most limit+1 bytes are ever taken from r. It returns
// the body and how many bytes were read. A body that outgrows dst (its length was not known:
// chunked or gzip) is read in chunks and copied once into a buffer of its exact size: growing
// one buffer by copying leaves garbage of several times the body behind (a 20 MiB gzip body
// read that way peaked at 3.5 times its size), and a rejected body is never copied at all.
func readLimited(r io.Reader, dst []byte, limit int64) ([]byte, int64, error) {
	var chunks [][]byte // full chunks before buf, in order
	buf := dst
	total := int64(len(dst))
	for {
		if len(buf) == cap(buf) {
			chunks = append(chunks, buf)
			buf = make([]byte, 0, min(max(2*cap(buf), initialBuffer), maxChunk))
		}
		room := buf[len(buf):cap(buf)]
		if left := limit + 1 - total; int64(len(room)) > left {
			room = room[:left]
		}
		n, err := r.Read(room)
		buf = buf[:len(buf)+n]
		total += int64(n)
		switch {
		case total > limit:
			return nil, total, errTooLarge
		case err == io.EOF:
			return join(chunks, buf, total), total, nil
		case err != nil:
			return nil, total, err
		}
	}
}

// maxChunk bounds the chunks of a body of unknown length, so the last one wastes little.
const maxChunk = 1 << 20

// join returns the chunks and last as one slice: last itself when there are no chunks.
func join(chunks [][]byte, last []byte, total int64) []byte {
	if len(chunks) == 0 || total == int64(len(last)) {
		return last
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return append(out, last...)
}

// bodyError classes a failure to read or decode the body: a timeout is 408, the rest 400.
func bodyError(err error, what string) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return &apiError{class: ClassRequestTimeout, msg: what + ": not received within the read timeout"}
	}
	return &apiError{class: ClassBadRequest, msg: what + ": " + err.Error()}
}

// buffer is a pooled byte slice; large ones are not kept, so one huge body does not pin its
// memory for the life of the process.
type buffer struct{ b []byte }

const (
	initialBuffer = 16 << 10
	maxPooled     = 4 << 20
)

var bufferPool = sync.Pool{New: func() any { return &buffer{b: make([]byte, 0, initialBuffer)} }}

func getBuffer() *buffer { return bufferPool.Get().(*buffer) }

func putBuffer(b *buffer) {
	if cap(b.b) > maxPooled {
		return
	}
	b.b = b.b[:0]
	bufferPool.Put(b)
}

var gzipPool sync.Pool

func getGzip(r io.Reader) (*gzip.Reader, error) {
	if zr, ok := gzipPool.Get().(*gzip.Reader); ok {
		return zr, zr.Reset(r)
	}
	return gzip.NewReader(r)
}

package httpapi

import (
	"bufio"
	"compress/gzip"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

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
	x := exchangeOf(c)
	resv := reservation{budget: s.budget, ratio: n.PeakHeapRatio(), explain: n == s.explain}
	defer resv.release()
	in, err := s.readBody(req, x, &resv)
	if in != nil {
		defer putBuffer(in)
	}
	s.rearmWriteDeadline(x) // before an error too: a 408 comes after the read timeout, always late
	if err != nil {
		if classify(err) == ClassTooManyRequests { // the memory budget had no room
			s.refuse(c)
		}
		return err
	}
	res, err := n.Normalize(in.b)
	if err != nil {
		return rejection(err, req, in.b) // the error handler renders it with normalize.AppendError
	}
	// Sized to the record: growing by append would hold old and new copies at once. The core's
	// ratio counts the record; a pooled buffer's rounding up to its class is slack the budget
	// must have room for before the buffer is taken, else the record gets one of its exact size.
	hint := res.SizeHint()
	// The record is within the core's ratio of the body but for what its warnings add (SizeHint
	// allows 256 bytes for the record's own keys): a small body can bring a thousand warnings,
	// each naming where. That is reserved before the record is written, or the request is
	// refused now, before its warnings are counted.
	if excess := int64(hint - len(in.b) - 256); excess > 0 {
		if err := resv.forWarnings(excess, int64(len(in.b)), warningCount(res)); err != nil {
			res.Release()
			s.refuse(c)
			return err
		}
	}
	s.metrics.observeResult(res)
	x.warnings = warningCount(res)
	var out *buffer
	if k := sizeClass(hint); k >= 0 && resv.add(int64(initialBuffer<<k-hint)) {
		out = getBuffer(hint)
	} else {
		out = &buffer{b: make([]byte, 0, hint)}
	}
	defer putBuffer(out)
	out.b = res.AppendJSON(out.b[:0])
	res.Release() // the record is in out; res and its scratch go back to the core's pool
	// While the record is written (as slowly as the client reads it), only the two buffers
	// are live: the rest of the reservation goes back.
	resv.shrinkTo(int64(cap(in.b) + cap(out.b)))
	w := c.Response()
	h := w.Header()
	h[echo.HeaderContentType] = jsonContentType
	h[echo.HeaderContentLength] = []string{strconv.Itoa(len(out.b))}
	w.WriteHeader(http.StatusOK)
	x.noteWrite(s.writeRecord(x, w, out.b))
	if s.afterAnswer != nil {
		s.afterAnswer()
	}
	return nil
}

// smallRecord is the largest record whose request gives its in-flight slot back before the
// record is written: the write of so little returns at once (the socket's send buffer takes
// it), so a slow reader holds two small buffers, and the memory budget still counts them,
// while a larger record's request holds its slot until all but its last byte is sent.
const smallRecord = 64 << 10

// writeRecord writes the record and flushes it, giving the request's in-flight slot back
// before the client can have the last byte. The record is flushed here rather than by
// net/http after the handler, so that a failed write (the client went away, or the write
// deadline passed) is seen: the status was committed, so nothing can be told to the client,
// but the log line and the metrics say the answer did not arrive. For a small record the
// flush costs no extra system call; a large one is written in two.
func (s *Server) writeRecord(x *exchange, w io.Writer, record []byte) error {
	if len(record) > smallRecord {
		last := len(record) - 1
		if _, err := w.Write(record[:last]); err != nil {
			return err
		}
		if err := flush(x.ResponseWriter); err != nil {
			return err
		}
		record = record[last:]
	}
	s.releaseSlot(x)
	if _, err := w.Write(record); err != nil {
		return err
	}
	return flush(x.ResponseWriter)
}

// flush sends what net/http buffered of the response, and says whether that worked.
func flush(w http.ResponseWriter) error {
	if f, ok := w.(interface{ FlushError() error }); ok {
		return f.FlushError()
	}
	return nil
}

// warningCount is the number of problems the record reports: those listed, plus those past
// the list's cap, which one warnings_limited warning stands for.
func warningCount(res *normalize.Result) int {
	n := len(res.Warnings())
	if more := res.WarningsNotListed(); more > 0 {
		n += more - 1
	}
	return n
}

// rearmWriteDeadline gives the answer the whole write timeout again once a slow body has been
// read: net/http starts the write deadline when the headers end, so an upload that took most
// of it would leave the answer too little time, and the client would get nothing for a
// request that succeeded. Fast bodies, nearly all of them, skip the extra deadline update, and
// the wall clock: monotonic reads only the monotonic one (a clock read is ~80 ns on this VM).
func (s *Server) rearmWriteDeadline(x *exchange) {
	if s.writeTimeout <= 0 || monotonic()-x.start <= s.writeTimeout/8 {
		return
	}
	_ = http.NewResponseController(x.ResponseWriter).SetWriteDeadline(time.Now().Add(s.writeTimeout))
}

// normalizerFor picks the plain or the explaining normalizer from ?explain=.
func (s *Server) normalizerFor(req *http.Request) (*normalize.Normalizer, error) {
	if req.URL.RawQuery == "" {
		return s.plain, nil
	}
	q, err := url.ParseQuery(req.URL.RawQuery)
	if err != nil { // URL.Query would drop the broken pair and go on as if it were not there
		return nil, &apiError{class: ClassBadRequest, msg: "query string " + strconv.Quote(req.URL.RawQuery) + ": " + err.Error() + "; expected explain=true or explain=false"}
	}
	if err := misspeltExplain(req.URL.RawQuery); err != nil {
		return nil, err
	}
	vs, given := q[queryParam]
	if !given {
		return s.plain, nil
	}
	// Given twice, or without a value (?explain), it is ambiguous: an error says so, where
	// picking one would quietly answer a question the client did not ask.
	if len(vs) > 1 {
		return nil, &apiError{class: ClassBadRequest, msg: "query parameter explain is given " + strconv.Itoa(len(vs)) + " times; expected it once, explain=true or explain=false"}
	}
	explain, err := strconv.ParseBool(vs[0])
	if err != nil {
		return nil, &apiError{class: ClassBadRequest, msg: "query parameter explain is " + strconv.Quote(vs[0]) + "; expected true or false (or 1, 0)"}
	}
	if explain {
		return s.explain, nil
	}
	return s.plain, nil
}

// readBody reads the body, decoded, into a pooled buffer and returns it (nil when it took
// none). It never reads more than BodyLimit+1 decoded bytes: one byte past the limit is how it
// knows the body is too large. What the headers alone can refuse (415, 413 by Content-Length)
// is refused before anything is taken, and the first buffer is reserved in resv's budget
// before it is.
func (s *Server) readBody(req *http.Request, x *exchange, resv *reservation) (*buffer, error) {
	limit := s.cfg.BodyLimit
	known := int64(-1) // the body's length, when the client said it
	gzipped, err := gzipEncoded(req.Header)
	switch {
	case err != nil:
		return nil, err
	case !gzipped && req.ContentLength > limit:
		return nil, tooLargeByLength(req.ContentLength, limit)
	case !gzipped && req.ContentLength >= 0:
		known = req.ContentLength
	}
	want := firstBuffer(req)
	if err := resv.forRead(known, int64(initialBuffer<<sizeClass(want))); err != nil {
		return nil, err
	}
	in := getBuffer(want)
	r := s.bodyReader(x, req.Body) // the minimum rate's watch, when it applies
	defer x.rate.disarm()
	var wire *countingReader
	if gzipped {
		// The limit is on the decoded bytes; the compressed ones are bounded too, so that a
		// stream of empty gzip members cannot keep a request reading without end.
		wire = &countingReader{r: r, limit: gzipWireLimit(limit)}
		zr, err := getGzip(wire)
		defer putGzip(zr)
		if err != nil {
			return in, s.bodyError(err, gzipStart, req, wire, 0)
		}
		r = zr
	}
	dst := in.b[:0] // the pool's buffer
	b, n, err := readLimited(r, dst, limit, known, resv)
	x.bytesIn = n
	if wire != nil {
		x.bytesWire = wire.n
	}
	s.metrics.bytesIn.Add(float64(n))
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return in, tooLargeWhileReading(wire != nil, n, limit)
		}
		if classify(err) == ClassTooManyRequests {
			return in, err
		}
		return in, s.bodyError(err, "request body", req, wire, n)
	}
	if len(b) > 0 && cap(dst) > 0 && &b[:1][0] != &dst[:1][0] {
		putBuffer(&buffer{b: dst}) // the body was copied out of it: the next request can have it
	}
	in.b = b
	x.bodyRead = true
	// Now that its size is known, what normalizing it may cost: no more than reading reserved.
	if err := resv.forBody(n, int64(cap(b))); err != nil {
		return in, err
	}
	return in, nil
}

// gzipEncoded reads Content-Encoding, all its header lines and comma-separated codings:
// none or identity is the body as is, a single gzip (or x-gzip) is gzip, anything else is 415.
// net/http canonicalizes header keys, so a map lookup does what Header.Get does without
// canonicalizing the key each time.
func gzipEncoded(h http.Header) (bool, error) {
	lines := h[echo.HeaderContentEncoding]
	if len(lines) == 0 {
		return false, nil
	}
	gzips := 0
	for _, line := range lines {
		for coding := range strings.SplitSeq(line, ",") {
			switch coding = strings.TrimSpace(coding); {
			case coding == "" || strings.EqualFold(coding, "identity"):
			case strings.EqualFold(coding, "gzip") || strings.EqualFold(coding, "x-gzip"):
				gzips++
			default:
				return false, unsupportedEncoding(strings.Join(lines, ", "))
			}
		}
	}
	if gzips > 1 {
		return false, unsupportedEncoding(strings.Join(lines, ", "))
	}
	return gzips == 1, nil
}

func unsupportedEncoding(enc string) error {
	return &apiError{class: ClassUnsupportedMediaType,
		msg: "Content-Encoding " + strconv.Quote(enc) + " is not supported; send the body as is or with gzip, once"}
}

// upfrontLimit is the most a body's buffer is given before its bytes arrive: a client's
// Content-Length is a claim, and a large claim must not reserve memory for bytes never sent.
const upfrontLimit = 1 << 20

// firstBuffer is the capacity a request's body is first read into: its Content-Length and
// room to see EOF without growing, up to upfrontLimit, or, when its size is not given (or is
// that of gzip bytes, not of the body), initialBuffer.
func firstBuffer(req *http.Request) int {
	if req.ContentLength < 0 || len(req.Header[echo.HeaderContentEncoding]) > 0 {
		return initialBuffer
	}
	return int(min(req.ContentLength+1, upfrontLimit))
}

// gzipWireLimit bounds the compressed bytes of a gzip body whose decoded limit is limit:
// deflate adds at most 5 bytes per 64 KiB stored block and gzip 18 per member, so an honest
// body never comes near it.
func gzipWireLimit(limit int64) int64 { return limit + limit/1024 + 64<<10 }

// countingReader counts the bytes read through it and fails with errWireTooLarge past limit.
type countingReader struct {
	r        io.Reader
	n, limit int64
	ended    bool    // r said io.EOF: the client sent the whole body, so a short stream is the sender's
	magic    [2]byte // the body's first bytes, which gzip's are 1f 8b: what tells "not gzip" apart
}

var errWireTooLarge = errors.New("compressed body over its limit")

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n > c.limit {
		return 0, errWireTooLarge
	}
	if left := c.limit + 1 - c.n; int64(len(p)) > left {
		p = p[:left]
	}
	n, err := c.r.Read(p)
	if c.n < 2 {
		copy(c.magic[c.n:], p[:n])
	}
	c.n += int64(n)
	c.ended = c.ended || err == io.EOF
	if c.n > c.limit {
		return n, errWireTooLarge
	}
	return n, err
}

var errTooLarge = errors.New("body over the limit")

// readLimited reads r to EOF into dst, failing with errTooLarge once more than limit bytes
// came; the reads are sized so that at most limit+1 bytes are ever taken from r. It returns
// the body and how many bytes were read. known is the body's length when the client gave it,
// else -1. Before it reads into dst, and before it allocates any buffer, it reserves in resv's
// budget what the request may hold with it (reservation.forRead); when the budget has no room,
// it stops with the 429 that says so.
//
// A body that outgrows dst is read in chunks, doubling up to maxChunk, and copied once into a
// buffer of its exact size at the end; a chunk of a body of known length is no larger than
// what is left of it (and a byte to see EOF). So a client is given room only for about what it
// has sent (a Content-Length is a claim, and 20 MiB claimed with 1 MiB sent must not hold 20),
// a large body is copied once, and a rejected one never: growing one buffer by copying would
// copy more, or, eightfold at a time, give a claim eight times what was sent.
func readLimited(r io.Reader, dst []byte, limit, known int64, resv *reservation) ([]byte, int64, error) {
	var chunks [][]byte // full chunks before buf, in order
	buf := dst
	total := int64(len(dst))
	live := int64(cap(dst)) // the capacity of the buffers the body is in
	if err := resv.forRead(known, live); err != nil {
		return nil, total, err
	}
	for {
		if len(buf) == cap(buf) {
			next := int64(min(max(2*cap(buf), initialBuffer), maxChunk))
			if known >= 0 {
				next = min(next, max(known+1-total, 1))
			}
			if err := resv.forRead(known, live+next); err != nil {
				return nil, total, err
			}
			live += next
			chunks = append(chunks, buf)
			buf = make([]byte, 0, next)
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

// join returns the chunks and last as one slice: last itself when it holds everything, and
// the last chunk when last is empty and it does (EOF came alone, after a full chunk).
func join(chunks [][]byte, last []byte, total int64) []byte {
	if total == int64(len(last)) {
		return last
	}
	if len(last) == 0 && len(chunks) > 0 && total == int64(len(chunks[len(chunks)-1])) {
		return chunks[len(chunks)-1]
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return append(out, last...)
}

// bodyError classes a failure to read or decode the body: compressed bytes past their bound
// are 413 (a PayloadTooLarge like any body over the limit, with the body limit as its limit),
// a timeout is 408, a body cut off because the server is shutting down 503, and the rest 400
// (a corrupt body sent while the server shuts down is still the client's). A body slower than
// the minimum rate is 408 too. got is the count of decoded bytes read.
func (s *Server) bodyError(err error, what string, req *http.Request, wire *countingReader, got int64) error {
	var slow *tooSlowError
	switch {
	case errors.As(err, &slow):
		return &apiError{class: ClassRequestTimeout, msg: what + ": " + slow.Error()}
	case errors.Is(err, errWireTooLarge):
		return tooLargeCompressed(wire.limit, got, s.cfg.BodyLimit)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return &apiError{class: ClassRequestTimeout, msg: what + ": not received within the read timeout"}
	case s.stopping.Load() && errors.Is(err, net.ErrClosed):
		return &apiError{class: ClassUnavailable, msg: what + ": cut off because the server is shutting down; retry"}
	}
	return &apiError{class: ClassBadRequest, msg: what + ": " + unreadable(err, what, req, wire, got)}
}

// gzipStart names the body in errors from reading its first gzip header.
const gzipStart = "gzip body"

// unreadable says why a body could not be read or decoded, in terms of what the client sent:
// the decoders' own errors ("EOF", "unexpected EOF", "gzip: invalid header") do not say
// whether the connection was cut, the stream truncated, or something else sent.
func unreadable(err error, what string, req *http.Request, wire *countingReader, got int64) string {
	gzipped := wire != nil
	var after *afterMemberError
	switch {
	case gzipped && errors.Is(err, io.EOF): // gzip.NewReader on no bytes at all
		return "empty; expected a gzip stream, as Content-Encoding: gzip says"
	case what == gzipStart && (wire.n >= 2 && wire.magic != [2]byte{0x1f, 0x8b} || wire.n < 2 && wire.ended):
		return "not gzip: it does not start with gzip's bytes 1f 8b; expected a gzip stream, as Content-Encoding: gzip says"
	case what == gzipStart && errors.Is(err, gzip.ErrHeader):
		return "its gzip header is invalid (a compression method other than deflate, a bad header checksum, or a name or comment too long to take); expected a gzip header"
	case errors.As(err, &after) && errors.Is(err, gzip.ErrHeader):
		return "trailing bytes after the gzip stream: it ends after " + strconv.FormatInt(after.end, 10) +
			" compressed bytes, and the bytes after it are not another gzip member (they do not start with a gzip header); " +
			"expected the body to end where the gzip stream does"
	case errors.As(err, &after) && errors.Is(err, io.ErrUnexpectedEOF) && wire.ended:
		return "trailing bytes after the gzip stream: it ends after " + strconv.FormatInt(after.end, 10) +
			" compressed bytes, and what follows it (" + byteCount(wire.n-after.end) +
			") is too short to be another gzip member (a gzip header alone is 10 bytes); " +
			"expected the body to end where the gzip stream does"
	case gzipped && errors.Is(err, gzip.ErrChecksum):
		return "the gzip stream's checksum does not match its data: the body is corrupt"
	case gzipped && errors.Is(err, io.ErrUnexpectedEOF) && wire.ended:
		return "the gzip stream is cut short: all " + strconv.FormatInt(wire.n, 10) +
			" compressed bytes arrived, and they end inside a gzip header, data or trailer; expected a complete gzip stream"
	case errors.Is(err, io.ErrUnexpectedEOF):
		sent := strconv.FormatInt(got, 10) + " bytes of the body"
		if gzipped {
			sent = strconv.FormatInt(wire.n, 10) + " compressed bytes of the body"
		}
		if req.ContentLength >= 0 {
			return "the connection ended after " + sent + ", of the " + strconv.FormatInt(req.ContentLength, 10) + " its Content-Length announced"
		}
		return "the connection ended after " + sent + ", before the chunked body's last chunk"
	}
	return err.Error()
}

// byteCount is n bytes in words: "1 byte", "3 bytes".
func byteCount(n int64) string {
	if n == 1 {
		return "1 byte"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// buffer is a pooled byte slice.
type buffer struct{ b []byte }

// Buffers are pooled by size class, powers of two from initialBuffer to maxPooled: a request
// gets one of the smallest class that holds what it asks for, so that what it holds beyond
// its need is less than that need (or initialBuffer), and the memory budget can count it. With
// one pool for all sizes, a 2 KB request could hold a 4 MiB buffer left by an earlier one, and
// a stream of small requests keep many of them live. Larger buffers are not kept, so one huge
// body does not pin its memory for the life of the process.
const (
	initialBuffer = 16 << 10
	maxPooled     = 4 << 20
)

var bufferPools [9]sync.Pool // initialBuffer << k, k = 0 to 8 (maxPooled)

// sizeClass is the smallest class whose buffers hold n bytes, or -1 past the largest.
func sizeClass(n int) int {
	if n > maxPooled {
		return -1
	}
	k := 0
	for initialBuffer<<k < n {
		k++
	}
	return k
}

// getBuffer returns an empty buffer with room for want bytes: of its class's size, or of
// exactly want past the largest class.
func getBuffer(want int) *buffer {
	k := sizeClass(want)
	if k < 0 {
		return &buffer{b: make([]byte, 0, want)}
	}
	if b, ok := bufferPools[k].Get().(*buffer); ok {
		return b
	}
	return &buffer{b: make([]byte, 0, initialBuffer<<k)}
}

// putBuffer gives b back to its class's pool, if its capacity is a class's size: a buffer
// grown to a body's length is left to the collector.
func putBuffer(b *buffer) {
	k := sizeClass(cap(b.b))
	if k < 0 || initialBuffer<<k != cap(b.b) {
		return
	}
	b.b = b.b[:0]
	bufferPools[k].Put(b)
}

var gzipPool sync.Pool

// gzipStream decodes a gzip body member by member (gzip.Reader's Multistream off), so that
// what follows a complete member is told apart: the end of the body, another member, or bytes
// that are not one, which gzip.Reader's own multistream reading reports as a header cut short
// when there are fewer than a header's 10. gzip reads the compressed bytes through src, a
// flate.Reader, so it stops exactly at a member's end and src.Buffered says what is left.
type gzipStream struct {
	zr   gzip.Reader
	src  bufio.Reader
	wire *countingReader
}

// afterMemberError is a failure to read a gzip member's header after a complete member, which
// ended after end compressed bytes: bytes that are not a member (gzip.ErrHeader), too few for
// a header (io.ErrUnexpectedEOF), or the connection's own error.
type afterMemberError struct {
	end int64
	err error
}

func (e *afterMemberError) Error() string { return e.err.Error() }
func (e *afterMemberError) Unwrap() error { return e.err }

func (g *gzipStream) Read(p []byte) (int, error) {
	for {
		n, err := g.zr.Read(p)
		if err != io.EOF {
			return n, err
		}
		if _, err := g.src.Peek(1); err != nil { // nothing after the member: the body's end, or a failed read
			return n, err
		}
		end := g.wire.n - int64(g.src.Buffered())
		if err := g.zr.Reset(&g.src); err != nil {
			return n, &afterMemberError{end: end, err: err}
		}
		g.zr.Multistream(false)
		if n > 0 {
			return n, nil
		}
	}
}

// getGzip returns a pooled gzipStream reading wire, its first member's header read.
func getGzip(wire *countingReader) (*gzipStream, error) {
	g, ok := gzipPool.Get().(*gzipStream)
	if !ok {
		g = new(gzipStream)
	}
	g.wire = wire
	g.src.Reset(wire)
	err := g.zr.Reset(&g.src)
	g.zr.Multistream(false)
	return g, err
}

// putGzip gives g back to the pool, without its hold on the request's body.
func putGzip(g *gzipStream) {
	g.wire = nil
	g.src.Reset(nil)
	gzipPool.Put(g)
}

package httpapi

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// Framing a proxy may read differently. net/http reads a request with both Content-Length and
// Transfer-Encoding as chunked, joins a header folded onto a second line (obs-fold) as if it
// were on one, and reads an HTTP/1.0 request with a Transfer-Encoding by its Content-Length; a
// proxy in front that read any of them the other way would see a different body, and a
// different next request on the same connection (request smuggling). nginx answers such
// requests 400 and closes. net/http deletes Content-Length from a chunked request, joins folded
// lines and drops HTTP/1.0's Transfer-Encoding before any handler runs, so the service follows
// the requests' framing in the bytes net/http reads from the connection (trackedConn), and
// answers a request whose framing is ambiguous 400 BadRequest, before its body is read, with
// Connection: close.
//
// The framer follows exactly the framing net/http reads, so that on a kept-alive or pipelined
// connection it knows which bytes are the next request's headers: the request line and header
// lines up to the blank line (a line starting with a space or tab continues the one before), a
// body of its Content-Length or chunked (size lines, data, the CRLF after it, the trailer up to
// its blank line), and the up to four CR or LF net/http skips after a POST. Where net/http
// refuses a request (a malformed line, an unsupported version or transfer coding, conflicting
// Content-Lengths), it closes the connection, and the framer stops: it never needs to be
// stricter than net/http, and must never be, which FuzzFraming checks against net/http's own
// parsing. Should it stop where net/http goes on (a bug), requests are served unchecked, not
// refused. It looks at each header line's first bytes and skips the rest with bytes.IndexByte,
// and skips bodies by count.

// framingFlag is what is ambiguous about a request's framing.
type framingFlag uint8

const (
	framingOK     framingFlag = iota
	framingBoth               // Content-Length and Transfer-Encoding
	framingFolded             // a header folded onto a second line (obs-fold)
	framingTE10               // Transfer-Encoding in an HTTP/1.0 request, which net/http ignores
)

// message is the 400's message for f.
func (f framingFlag) message() string {
	switch f {
	case framingBoth:
		return "the request has both Content-Length and Transfer-Encoding: a proxy may read its body by one and this server by the other (RFC 9112, section 6.3); send one of them, not both"
	case framingFolded:
		return "the request has a header folded onto a second line (obs-fold, RFC 9112, section 5.2), which a proxy may read differently (a folded Transfer-Encoding above all); send each header on one line"
	case framingTE10:
		return "the request is HTTP/1.0 with a Transfer-Encoding, which HTTP/1.0 does not have (RFC 9112, section 6.1): a proxy may read its body chunked where this server reads it by Content-Length; send HTTP/1.1, or no Transfer-Encoding"
	}
	return ""
}

// trackedConn is a connection accepted by Serve: it follows the framing of the requests in the
// bytes net/http reads (framer), so that a handler can ask whether its request's framing was
// ambiguous. net/http never reads a connection from two goroutines at once, so the framer
// needs no lock; what a handler reads of it while net/http's background read may run is
// atomic.
type trackedConn struct {
	net.Conn
	f framer
	// flagged is the first request whose framing is ambiguous: 1 + its index among the
	// requests net/http hands to the handler, shifted left by 8, or'ed with its framingFlag;
	// 0 while there is none. The tracker stops there: the service closes the connection.
	flagged atomic.Int64
	// bodiesRead is the framer's: requests whose body has been read from the connection to
	// its end.
	bodiesRead atomic.Int64
	// served counts the requests ServeHTTP saw on this connection (net/http serves a
	// connection's requests one after the other, from one goroutine).
	served int64
	// readDeadline is the read deadline net/http set last (the read timeout's, while a
	// request is read); the minimum body rate sets earlier ones on the connection itself.
	readDeadline time.Time
}

func (c *trackedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && c.f.state != framingStopped {
		c.f.feed(p[:n])
		c.bodiesRead.Store(c.f.bodiesRead)
		if c.f.flag != framingOK && c.flagged.Load() == 0 {
			c.flagged.Store((c.f.flaggedAt+1)<<8 | int64(c.f.flag))
		}
	}
	return n, err
}

// SetReadDeadline and SetDeadline note the read deadline net/http sets.
func (c *trackedConn) SetReadDeadline(t time.Time) error {
	c.readDeadline = t
	return c.Conn.SetReadDeadline(t)
}

func (c *trackedConn) SetDeadline(t time.Time) error {
	c.readDeadline = t
	return c.Conn.SetDeadline(t)
}

// CloseWrite shuts down the writing side, as net/http does before its own closes and the
// lingering close does (a *net.TCPConn can).
func (c *trackedConn) CloseWrite() error {
	if cw, ok := c.Conn.(closeWriter); ok {
		return cw.CloseWrite()
	}
	return nil
}

// stopTracking ends the tracking: the connection is taken over (lingering), and what is read
// from it now is no request.
func (c *trackedConn) stopTracking() { c.f.state = framingStopped }

// next is the index, among the connection's requests, of the one ServeHTTP is serving now,
// and the framing verdict on it: a request at or past the first ambiguous one gets its flag.
func (c *trackedConn) next() (int64, framingFlag) {
	i := c.served
	c.served++
	f := c.flagged.Load()
	if f != 0 && i >= f>>8-1 {
		return i, framingFlag(f & 0xff)
	}
	return i, framingOK
}

// bodyBuffered says whether request i's body has been read from the connection to its end:
// reading it cannot wait for the client.
func (c *trackedConn) bodyBuffered(i int64) bool { return c.bodiesRead.Load() > i }

// framingError is the 400 of a request whose framing is ambiguous.
func framingError(f framingFlag) error {
	return &apiError{class: ClassBadRequest, msg: f.message()}
}

// trackingListener wraps the connections it accepts in trackedConns.
type trackingListener struct{ net.Listener }

func (l trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &trackedConn{Conn: c}, nil
}

type trackedConnKey struct{}

// connContext puts a request's trackedConn in its context (http.Server.ConnContext).
func connContext(ctx context.Context, c net.Conn) context.Context {
	if tc, ok := c.(*trackedConn); ok {
		return context.WithValue(ctx, trackedConnKey{}, tc)
	}
	return ctx
}

// trackedConnOf is r's trackedConn; nil when the Handler is served outside Serve.
func trackedConnOf(r *http.Request) *trackedConn {
	tc, _ := r.Context().Value(trackedConnKey{}).(*trackedConn)
	return tc
}

// framerState is where in a request the framer is.
type framerState uint8

const (
	framingRequestLine framerState = iota
	framingHeaders
	framingBody      // of a Content-Length: remaining bytes
	framingChunkLine // a chunk's size line
	framingChunkData // remaining bytes of a chunk
	framingChunkCRLF // the CRLF after a chunk's data
	framingTrailer   // the trailer's lines, up to its blank line
	framingAfterPost // the up to four CR or LF net/http skips before the request after a POST
	framingStopped   // ambiguous (flag set), net/http refuses the request (it closes), or taken over
)

// lineKind is what the framer is reading of a header or trailer line.
type lineKind uint8

const (
	lineStart lineKind = iota // nothing of it yet
	lineName                  // its name, which may still be Content-Length's or Transfer-Encoding's
	lineSkip                  // any other line, or a continuation: skipped to its end
	lineCL                    // Content-Length's value
	lineTE                    // Transfer-Encoding's value
)

const (
	nameCL = "content-length:"
	nameTE = "transfer-encoding:"
)

// framer follows request framing through the bytes fed to it.
type framer struct {
	state framerState
	flag  framingFlag // set, with state framingStopped, when a request's framing is ambiguous
	// flaggedAt is, when flag is set, the index among the requests net/http hands to the
	// handler of the first one that may be the flagged request or come after it.
	flaggedAt int64
	handled   int64 // requests net/http hands to the handler (all but OPTIONS *), so far
	// bodiesRead is how many of those have been read from the connection to the end of their
	// body: net/http holds the rest of such a body in its buffer, and reading it cannot wait.
	bodiesRead int64
	offset     int64 // bytes fed before the current p

	// The current line (request line, header, trailer).
	line      lineKind
	lineLen   int  // its bytes so far, the LF excluded
	firstByte byte // its first byte
	nameLen   int  // bytes of its name matched against nameCL and nameTE
	candCL    bool // its name may still be Content-Length
	candTE    bool // its name may still be Transfer-Encoding

	// The request line: method, target and version, as far as framing needs them.
	start     int64 // the stream offset of the request line
	field     int   // 0 method, 1 target, 2 version
	method    [8]byte
	methodLen int
	targetLen int
	starOnly  bool // the target is "*"
	proto     [9]byte
	protoLen  int

	// The current request's headers.
	lastHeader lineKind // the kind of the header line before; lineStart before the first
	clLines    int
	teLines    int
	clBad      bool  // a Content-Length net/http refuses, or two that are not the same string
	clValue    int64 // the first Content-Length's value, its digits and their hash
	clDigits   int
	clHash     uint64
	teChunked  bool // the first Transfer-Encoding is "chunked"
	folded     bool // a header continues on another line
	// The value of the Content-Length or Transfer-Encoding line being read.
	valPhase  uint8 // 0 leading blanks, 1 the value, 2 trailing blanks, 3 not a value net/http takes
	valNum    int64
	valDigits int
	valHash   uint64
	valTE     int // bytes of "chunked" matched

	remaining int64 // of the body (framingBody) or of the chunk (framingChunkData)
	skipped   int   // CR and LF skipped after a POST
	// The chunk size line.
	hexDigits int
	chunkSize uint64
	chunkTail uint8 // 0 digits, 1 trailing blanks, 2 an extension (after ';')
	chunkCR   bool  // the last byte was a CR, which must end the line
	crlf      int   // bytes of a chunk's CRLF seen

	// onRequest, when set (tests), is told every request's framing at the end of its headers.
	onRequest func(framingRecord)
}

// framingRecord is what the framer found of one request, for tests.
type framingRecord struct {
	start, end int64 // the stream offsets of its request line and past its headers' blank line
	handled    bool  // net/http hands it to the handler (it is not OPTIONS *)
	chunked    bool
	length     int64 // its Content-Length, when not chunked (0 without one)
	flag       framingFlag
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + ('a' - 'A')
	}
	return b
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

// feed follows p, the next bytes net/http read from the connection.
func (f *framer) feed(p []byte) {
	for len(p) > 0 && f.state != framingStopped {
		var n int
		switch f.state {
		case framingRequestLine:
			n = f.requestLine(p)
		case framingHeaders, framingTrailer:
			n = f.headerLine(p)
		case framingBody:
			n = int(min(int64(len(p)), f.remaining))
			f.remaining -= int64(n)
			if f.remaining == 0 {
				f.endBody(f.offset + int64(n))
			}
		case framingChunkLine:
			n = f.chunkLine(p)
		case framingChunkData:
			n = int(min(int64(len(p)), f.remaining))
			f.remaining -= int64(n)
			if f.remaining == 0 {
				f.state, f.crlf = framingChunkCRLF, 0
			}
		case framingChunkCRLF:
			for n < len(p) && f.crlf < 2 {
				if p[n] != "\r\n"[f.crlf] {
					f.stop() // "malformed chunked encoding"
					return
				}
				n++
				f.crlf++
			}
			if f.crlf == 2 {
				f.startChunkLine()
			}
		case framingAfterPost:
			for n < len(p) && f.skipped < 4 && (p[n] == '\r' || p[n] == '\n') {
				n++
				f.skipped++
			}
			if n < len(p) || f.skipped == 4 {
				f.startRequest(f.offset + int64(n))
			}
		}
		f.offset += int64(n)
		p = p[n:]
	}
}

// stop ends the tracking where net/http refuses the request: it closes the connection.
func (f *framer) stop() { f.state = framingStopped }

func (f *framer) startRequest(at int64) {
	*f = framer{state: framingRequestLine, start: at, handled: f.handled, bodiesRead: f.bodiesRead, offset: f.offset, onRequest: f.onRequest}
}

// requestLine reads the request line as net/http's parseRequestLine cuts it: the method up to
// the first space, the target up to the second, the version after it.
func (f *framer) requestLine(p []byte) int {
	for i := 0; i < len(p); {
		b := p[i]
		if b == '\n' {
			f.endRequestLine()
			return i + 1
		}
		switch f.field {
		case 0:
			if b == ' ' {
				f.field = 1
			} else if f.methodLen < len(f.method) {
				f.method[f.methodLen] = b
				f.methodLen++
			} else {
				f.methodLen = len(f.method) + 1 // longer than any method the framer looks for
			}
			i++
		case 1:
			// The target: only whether it is "*" matters, so skip to its end.
			j := bytes.IndexByte(p[i:], ' ')
			k := bytes.IndexByte(p[i:], '\n')
			if j < 0 || k >= 0 && k < j {
				if k < 0 {
					k = len(p) - i
				}
				f.noteTarget(p[i : i+k])
				i += k
				continue
			}
			f.noteTarget(p[i : i+j])
			f.field = 2
			i += j + 1
		default:
			if f.protoLen < len(f.proto) {
				f.proto[f.protoLen] = b
			}
			f.protoLen++
			i++
		}
	}
	return len(p)
}

func (f *framer) noteTarget(b []byte) {
	if len(b) > 0 {
		f.starOnly = f.targetLen == 0 && len(b) == 1 && b[0] == '*'
		f.targetLen += len(b)
	}
}

// endRequestLine checks the request line as net/http does what framing depends on: a
// version net/http serves over HTTP/1 (it answers 505 and closes for others).
func (f *framer) endRequestLine() {
	n := f.protoLen
	if n > len(f.proto) || f.field != 2 || f.methodLen == 0 || f.targetLen == 0 {
		f.stop() // malformed
		return
	}
	if n > 0 && f.proto[n-1] == '\r' {
		n-- // bufio's ReadLine drops the CR of a CRLF
	}
	proto := f.proto[:n]
	if len(proto) != 8 || string(proto[:5]) != "HTTP/" || proto[6] != '.' ||
		proto[5] < '0' || proto[5] > '9' || proto[7] < '0' || proto[7] > '9' {
		f.stop()
		return
	}
	major, minor := proto[5]-'0', proto[7]-'0'
	pri := string(f.method[:min(f.methodLen, len(f.method))]) == "PRI" && f.starOnly
	if major != 1 && !(major == 2 && minor == 0 && pri) {
		f.stop() // 505
		return
	}
	f.state = framingHeaders
	f.line, f.lineLen = lineStart, 0
}

// http11 says whether the request's version is HTTP/1.1 or later (its Transfer-Encoding
// counts).
func (f *framer) http11() bool {
	major, minor := f.proto[5]-'0', f.proto[7]-'0'
	return major > 1 || major == 1 && minor >= 1
}

// headerLine reads header lines (or trailer lines): a blank line ends the block, a line that
// starts with a space or tab continues the one before, and a Content-Length's or
// Transfer-Encoding's value is read; other lines are skipped to their LF. It returns at the
// end of p or of the block.
func (f *framer) headerLine(p []byte) int {
	state := f.state
	i := 0
	for i < len(p) {
		b := p[i]
		if b == '\n' {
			i++
			f.endLine(f.offset + int64(i))
			if f.state != state {
				return i
			}
			continue
		}
		switch f.line {
		case lineStart:
			f.firstByte = b
			f.line = lineSkip
			if state != framingHeaders || isBlank(b) || b == '\r' {
				break
			}
			var name string
			switch lower(b) {
			case 'c':
				name, f.candCL, f.candTE = nameCL, true, false
			case 't':
				name, f.candCL, f.candTE = nameTE, false, true
			default:
				continue // skipped below
			}
			if len(p)-i < len(name) { // the name may end in the next piece: byte by byte
				f.line, f.nameLen = lineName, 0
				continue
			}
			if equalFoldASCII(p[i:i+len(name)], name) {
				f.startValue(name)
				i += len(name)
				f.lineLen += len(name)
			}
			continue
		case lineName:
			c := lower(b)
			f.candCL = f.candCL && c == nameCL[f.nameLen]
			f.candTE = f.candTE && c == nameTE[f.nameLen]
			f.nameLen++
			switch {
			case f.candCL && f.nameLen == len(nameCL):
				f.startValue(nameCL)
			case f.candTE && f.nameLen == len(nameTE):
				f.startValue(nameTE)
			case !f.candCL && !f.candTE:
				f.line = lineSkip
			}
		case lineCL:
			f.clByte(b)
		case lineTE:
			f.teByte(b)
		case lineSkip:
			j := bytes.IndexByte(p[i:], '\n')
			if j < 0 {
				f.lineLen += len(p) - i
				return len(p)
			}
			f.lineLen += j
			i += j
			continue // the LF, above
		}
		f.lineLen++
		i++
	}
	return len(p)
}

// startValue begins reading a Content-Length's (name nameCL) or Transfer-Encoding's value.
func (f *framer) startValue(name string) {
	f.valPhase = 0
	if name == nameCL {
		f.line = lineCL
		f.clLines++
		f.valNum, f.valDigits, f.valHash = 0, 0, fnvOffset
		return
	}
	f.line = lineTE
	f.teLines++
	f.valTE = 0
}

// equalFoldASCII says whether b is s (lower case) in any case of its ASCII letters.
func equalFoldASCII(b []byte, s string) bool {
	for i := range len(s) {
		if lower(b[i]) != s[i] {
			return false
		}
	}
	return true
}

// A CR counts as a blank in a value: the one before the LF is dropped by net/http, and one
// anywhere else makes net/http refuse the request (it is not a byte a header may hold), which
// closes the connection, whatever the framer makes of it.

// clByte reads a byte of a Content-Length's value: blanks, digits, blanks, as net/http trims
// it and parses it (strconv.ParseUint, 63 bits).
func (f *framer) clByte(b byte) {
	switch {
	case f.valPhase == 3:
	case isBlank(b) || b == '\r':
		if f.valPhase == 1 {
			f.valPhase = 2
		}
	case '0' <= b && b <= '9' && f.valPhase <= 1:
		f.valPhase = 1
		d := int64(b - '0')
		if f.valNum > (1<<63-1-d)/10 {
			f.valPhase = 3 // over 63 bits
			return
		}
		f.valNum = f.valNum*10 + d
		f.valDigits++
		f.valHash = (f.valHash ^ uint64(b)) * fnvPrime
	default:
		f.valPhase = 3
	}
}

// teByte reads a byte of a Transfer-Encoding's value: whether it is "chunked", in any case,
// between blanks.
func (f *framer) teByte(b byte) {
	switch {
	case f.valPhase == 3:
	case isBlank(b) || b == '\r':
		if f.valPhase == 1 {
			f.valPhase = 2
		}
	case f.valPhase <= 1 && f.valTE < len("chunked") && lower(b) == "chunked"[f.valTE]:
		f.valPhase = 1
		f.valTE++
	default:
		f.valPhase = 3
	}
}

// endLine ends a header or trailer line, at the stream offset past its LF.
func (f *framer) endLine(at int64) {
	kind, first, n := f.line, f.firstByte, f.lineLen
	f.line, f.lineLen = lineStart, 0
	if n == 0 || n == 1 && first == '\r' { // a blank line ends the block
		if f.state == framingTrailer {
			f.endBody(at)
		} else {
			f.endHeaders(at)
		}
		return
	}
	if f.state == framingTrailer {
		return
	}
	if isBlank(first) { // a continuation of the line before (obs-fold)
		if f.lastHeader == lineStart {
			f.stop() // net/http: "malformed MIME header initial line"
		}
		f.folded = true
		return
	}
	switch kind {
	case lineName:
		f.stop() // a line that ended inside what could be a framing header's name has no colon
		return
	case lineCL:
		f.endCL()
	case lineTE:
		f.teChunked = f.teLines == 1 && f.valPhase != 3 && f.valTE == len("chunked")
	}
	f.lastHeader = kind
}

// endCL takes a Content-Length line's value as net/http's fixLength does: every one must be
// the same string, and a number.
func (f *framer) endCL() {
	if f.valPhase == 3 || f.valDigits == 0 {
		f.clBad = true
		return
	}
	if f.clLines == 1 {
		f.clValue, f.clDigits, f.clHash = f.valNum, f.valDigits, f.valHash
		return
	}
	if f.valDigits != f.clDigits || f.valHash != f.clHash {
		f.clBad = true
	}
}

// endHeaders decides the request's framing as net/http's readTransfer does, and whether it is
// ambiguous; at is the stream offset past the headers' blank line.
func (f *framer) endHeaders(at int64) {
	http11 := f.http11()
	handled := !(f.starOnly && string(f.method[:min(f.methodLen, len(f.method))]) == "OPTIONS")
	flag := framingOK
	switch {
	case f.teLines > 0 && f.clLines > 0:
		flag = framingBoth
	case f.folded:
		flag = framingFolded
	case f.teLines > 0 && !http11:
		flag = framingTE10
	}
	chunked := f.teLines > 0 && http11
	if f.onRequest != nil {
		f.onRequest(framingRecord{start: f.start, end: at, handled: handled, chunked: chunked, length: f.clValue, flag: flag})
	}
	if flag != framingOK {
		f.flag, f.flaggedAt = flag, f.handled
		f.stop()
		return
	}
	if handled {
		f.handled++
	}
	switch {
	case f.clBad:
		f.stop() // 400
	case chunked && (f.teLines != 1 || !f.teChunked):
		f.stop() // 501: more than one Transfer-Encoding, or not chunked
	case chunked:
		f.startChunkLine()
	case f.clValue > 0:
		f.state, f.remaining = framingBody, f.clValue
	default:
		f.endBody(at)
	}
}

// endBody ends the request's body at the stream offset at: the next request starts, after a
// POST once net/http skipped up to four CR or LF.
func (f *framer) endBody(at int64) {
	f.bodiesRead = f.handled // this request's, if it is the handler's, and all before it
	if string(f.method[:min(f.methodLen, len(f.method))]) == "POST" {
		f.state, f.skipped = framingAfterPost, 0
		return
	}
	f.startRequest(at)
}

func (f *framer) startChunkLine() {
	f.state = framingChunkLine
	f.hexDigits, f.chunkSize, f.chunkTail, f.chunkCR = 0, 0, 0, false
}

// chunkLine reads a chunk's size line as net/http's chunked reader does: hex digits (at most
// 16), then blanks or an extension after ';', ended by a CRLF (no bare LF, no other CR).
func (f *framer) chunkLine(p []byte) int {
	for i, b := range p {
		switch {
		case f.chunkCR && b != '\n':
			f.stop() // "invalid CR in chunked line"
			return i
		case b == '\n':
			if !f.chunkCR || f.hexDigits == 0 {
				f.stop() // "chunked line ends with bare LF", or no size
				return i
			}
			f.endChunkLine()
			return i + 1
		case b == '\r':
			f.chunkCR = true
		case f.chunkTail == 2: // in an extension: anything
		case f.chunkTail == 0 && b == ';':
			f.chunkTail = 2
		case isBlank(b) && f.hexDigits > 0:
			f.chunkTail = 1
		case f.chunkTail == 0 && hexValue(b) >= 0:
			if f.hexDigits == 16 {
				f.stop() // "http chunk length too large"
				return i
			}
			f.chunkSize = f.chunkSize<<4 | uint64(hexValue(b))
			f.hexDigits++
		default:
			f.stop() // "invalid byte in chunk length"
			return i
		}
	}
	return len(p)
}

func (f *framer) endChunkLine() {
	if f.chunkSize == 0 {
		f.state = framingTrailer
		f.line, f.lineLen = lineStart, 0
		return
	}
	if f.chunkSize > 1<<62 {
		f.stop() // a chunk net/http could not finish reading anyway
		return
	}
	f.state, f.remaining = framingChunkData, int64(f.chunkSize)
}

func hexValue(b byte) int {
	switch {
	case '0' <= b && b <= '9':
		return int(b - '0')
	case 'a' <= b && b <= 'f':
		return int(b-'a') + 10
	case 'A' <= b && b <= 'F':
		return int(b-'A') + 10
	}
	return -1
}

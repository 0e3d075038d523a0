package httpapi

import (
	"strconv"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// tooLargeError is every 413 of POST /v1/normalize, however the size was found. It unwraps to
// the core's PayloadTooLargeError, which gives it its class and the error object's limit; its
// message says what was measured, the limit, and what can be done about it, where the core's
// can name neither the server's setting nor what to trim.
type tooLargeError struct {
	what  string // what was found over what, e.g. "request body of 2048 bytes (its Content-Length) is over"
	after string // said of the limit, if anything
	ptl   *normalize.PayloadTooLargeError
}

// tooLargeAdvice ends every 413: the two ways out, the operator's and the client's. A result's
// bulk is its transcript; gzip is no way out, since the limit counts decoded bytes.
const tooLargeAdvice = "; the operator raises the limit with normalizer serve --body-limit or NORMALIZER_BODY_LIMIT; " +
	"a client sends less by trimming the result's messages (the transcript), which is usually most of its size " +
	"(gzip does not help: the limit counts decoded bytes)"

func (e *tooLargeError) Error() string {
	return e.what + " the body limit of " + limitText(e.ptl.Limit) + e.after + tooLargeAdvice
}

func (e *tooLargeError) Unwrap() error { return e.ptl }

// RejectionMessage puts this wording in the error object (normalize.WordedRejection).
func (e *tooLargeError) RejectionMessage() string { return e.Error() }

// limitText is a byte count, with the size as --body-limit would take it when it is a whole
// number of KiB, MiB or GiB.
func limitText(n int64) string {
	s := strconv.FormatInt(n, 10) + " bytes"
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return s + " (" + strconv.FormatInt(n/u.size, 10) + u.name + ")"
		}
	}
	return s
}

// tooLargeByLength is a body whose Content-Length is over the limit: none of it was read.
func tooLargeByLength(length, limit int64) error {
	return &tooLargeError{
		what: "request body of " + strconv.FormatInt(length, 10) + " bytes (its Content-Length) is over",
		ptl:  &normalize.PayloadTooLargeError{Size: length, Limit: limit},
	}
}

// tooLargeWhileReading is a body found over the limit while reading it: got is limit+1, the
// bytes read (decoded, for gzip) when reading stopped.
func tooLargeWhileReading(gzipped bool, got, limit int64) error {
	what := "request body of more than " + strconv.FormatInt(limit, 10) + " bytes (reading stopped there) is over"
	if gzipped {
		what = "gzip body decoding to more than " + strconv.FormatInt(limit, 10) + " bytes (decoding stopped there) is over"
	}
	return &tooLargeError{what: what, ptl: &normalize.PayloadTooLargeError{Size: got, Limit: limit, AtLeast: true}}
}

// tooLargeCompressed is a gzip body whose compressed bytes passed their bound (wire) before
// its decoded bytes (got) passed the limit: a stream of empty gzip members, for one.
func tooLargeCompressed(wire, got, limit int64) error {
	return &tooLargeError{
		what: "gzip body of more than " + strconv.FormatInt(wire, 10) +
			" compressed bytes (reading stopped there) is over the bound on compressed bytes for",
		after: ": limit + limit/1024 + 64 KiB, more than deflate needs for any body within the limit",
		ptl:   &normalize.PayloadTooLargeError{Size: got, Limit: limit, AtLeast: true},
	}
}

// tooLargeCore is the core's own PayloadTooLargeError, should it return one (the body read
// is never over the limit it is given, so it should not): it reads like the others.
func tooLargeCore(ptl *normalize.PayloadTooLargeError) error {
	size := strconv.FormatInt(ptl.Size, 10) + " bytes"
	if ptl.AtLeast {
		size = "more than " + strconv.FormatInt(ptl.Limit, 10) + " bytes"
	}
	return &tooLargeError{what: "request body of " + size + " is over", ptl: ptl}
}

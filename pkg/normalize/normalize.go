// Package normalize turns the raw bytes of an agent handler's result into the platform's
// normalized record, or rejects them, as the platform's wire contract says.
//
// A result is a JSON string (the final answer itself), or an object with a non-empty
// final_response and, for rich trace rendering, messages and metadata. Normalization enforces
// the final answer, caps it at 50,000 characters, flattens nested tool calls, and
// drops invalid messages and metadata keys with soft warnings: malformed rich mode is never
// fatal, an empty answer is.
//
// The package is the contract only. Advice for a person porting an agent (the explain view's
// notes, and the hints a rejection ends with) comes from an Advisor (WithAdvisor), package
// porting's in the service and the command line; it reads the View of what Normalize found,
// and a caller without one pays nothing for it.
//
// Each soft warning (Result.Warnings), and each note of the explain view (WithExplain with an
// Advisor, Result.Notes), is a softwarn.Warning: its path and JSON Pointer, a stable code and the action
// taken, and what it says in parts (what was found, what was expected, what was done, the fix),
// which its message, the soft_warnings line, is composed from. The codes are listed, with an
// example each, in docs/codes.md.
//
// The input is read once, by a validating scanner that records where values are rather than
// decoding them; values that pass through are written out as the bytes they arrived as.
//
// # Rejections
//
// Normalize returns a *ResponseShapeError, *InvalidJSONError or *PayloadTooLargeError; each
// unwraps to a sentinel (ErrResponseShape, ErrInvalidJSON, ErrPayloadTooLarge) and AppendError
// writes the contract's error object for it. A ResponseShapeError's message is composed from
// its parts too: what was found and wanted (Got, Want), the problem, what the result looks like
// and the fix.
package normalize

import (
	"bytes"
	"errors"
	"math"
	"sync"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/messages"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Limits and texts of the contract.
const (
	// MaxChars is the cap on final_response, in Unicode code points.
	MaxChars = 50_000
	// TruncationMarker is appended to a final_response cut at MaxChars.
	TruncationMarker = "…[truncated]"
	// DefaultMaxBytes is the default limit on the size of one raw result: 20 MiB.
	DefaultMaxBytes = 20 << 20
	// DefaultMaxDepth (900) is the default limit on nested arrays and objects, counting the
	// result object itself: a margin under where the platform's parser, Python 3.11's json,
	// gives up (995 levels at a module's top level, fewer the deeper json.loads is called; a
	// record nests no deeper than its result), so that it reads the record from up to 96
	// frames deep (docs/contract.md).
	// (messages.Check applies it to one message, two levels down as in a result.)
	DefaultMaxDepth = jsonscan.DefaultMaxDepth
	// MaxIntDigits (4300) is the most digits an integer literal may have, its sign not
	// counted: what the platform's parser, CPython's json, reads (sys.get_int_max_str_digits());
	// a longer one is InvalidJSON. Numbers with a fraction or an exponent have no limit.
	MaxIntDigits = jsonscan.MaxIntDigits
	// DefaultMaxWarnings (1000) is the default number of soft warnings a record lists; past it
	// one warning counts the rest. No real transcript comes near it; a hostile one can hold
	// millions of invalid entries, whose warnings would cost far more memory than the input.
	// (messages.Check lists at most as many.)
	DefaultMaxWarnings = softwarn.DefaultLimit
)

// Option changes how Normalize works.
type Option func(*config)

type config struct {
	maxBytes    int64
	maxDepth    int
	maxWarnings int
	explain     bool
	advisor     Advisor
	fixes       FixFunc // with explain: what appends a diagnostic's machine-applicable fix
	// built: made by newConfig. The zero Normalizer's config is not, and Normalize uses
	// defaults instead: its zeros would mean no size or warning limit and a depth of 0.
	built bool
}

func newConfig(opts []Option) config {
	c := config{maxBytes: DefaultMaxBytes, maxDepth: DefaultMaxDepth, maxWarnings: DefaultMaxWarnings, built: true}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// defaults is the configuration of New() without options, which the zero Normalizer uses.
var defaults = newConfig(nil)

// The options that take a limit share one rule: n <= 0 means the default (DefaultMaxBytes,
// DefaultMaxDepth, DefaultMaxWarnings), as a zero in a caller's configuration struct should,
// never "no limit" and never a limit of 0. A caller that wants no limit passes the largest
// value of the type (math.MaxInt64, math.MaxInt).

// WithMaxBytes rejects input longer than n bytes as PayloadTooLarge. n <= 0 means
// DefaultMaxBytes; past 2 GiB - 1 (math.MaxInt32), the hard limit of offsets kept in 32 bits,
// input is rejected whatever n is, so WithMaxBytes(math.MaxInt64) is no limit but that one.
func WithMaxBytes(n int64) Option {
	return func(c *config) {
		if n <= 0 {
			n = DefaultMaxBytes
		}
		c.maxBytes = n
	}
}

// WithMaxDepth rejects input that nests arrays and objects deeper than n levels, counting the
// result object itself, as InvalidJSON. n <= 0 means DefaultMaxDepth. The platform's parser
// gives up a little past DefaultMaxDepth, so a record nested much deeper would be rejected
// there; a limit past about 995 is for a platform whose Python reads deeper (3.12 or later).
// A command line flag, which can say what is wrong, refuses 0 instead (--max-depth).
func WithMaxDepth(n int) Option {
	return func(c *config) {
		if n <= 0 {
			n = DefaultMaxDepth
		}
		c.maxDepth = n
	}
}

// WithMaxWarnings lists at most n soft warnings, and one more that counts the rest (and at
// most n notes in the explain view, and one that counts the rest). n <= 0 means
// DefaultMaxWarnings; WithMaxWarnings(math.MaxInt) lists every one.
func WithMaxWarnings(n int) Option {
	return func(c *config) {
		if n <= 0 {
			n = DefaultMaxWarnings
		}
		c.maxWarnings = n
	}
}

// WithExplain makes the record carry diagnostics: every warning with its pointer, code and
// action, plus the notes of the Advisor, if any (WithAdvisor; package porting's notes help a
// person porting an agent: tool calls nothing answers, answers to no call, content blocks of
// another API).
func WithExplain() Option { return func(c *config) { c.explain = true } }

// Normalizer normalizes results with fixed options. It is safe for concurrent use. Its zero
// value (var n Normalizer) works as New() does, with the default limits.
type Normalizer struct{ cfg config }

// New returns a Normalizer with the given options.
func New(opts ...Option) *Normalizer { return &Normalizer{cfg: newConfig(opts)} }

// PeakHeapRatio is the most heap one Normalize and the record's AppendJSON hold at once, the
// input and the record included, as a multiple of the input's size: what a caller sizing
// memory by the bytes it has in flight reserves per byte. Results as agents send them stay
// near 2; the ceiling is for input built to cost the most, transcripts of nothing but tiny
// tool calls (up to 4x measured, and 5.6x with explain, which keeps a table of every call
// and an index of their ids). TestMemoryBound holds each costly shape under it.
func (n *Normalizer) PeakHeapRatio() float64 {
	if n.cfg.explain {
		return peakRatioExplain
	}
	return peakRatio
}

const (
	peakRatio        = 4.5
	peakRatioExplain = 6.5
)

// Normalize is New(opts...).Normalize(raw).
func Normalize(raw []byte, opts ...Option) (*Result, error) {
	n := Normalizer{cfg: newConfig(opts)}
	return n.Normalize(raw)
}

// Normalize reads one raw handler result and returns its record, or a rejection. The Result
// refers to raw: raw must not be changed while the Result is in use.
func (n *Normalizer) Normalize(raw []byte) (*Result, error) {
	cfg := &n.cfg
	if !cfg.built {
		cfg = &defaults
	}
	if int64(len(raw)) > cfg.maxBytes {
		return nil, &PayloadTooLargeError{Size: int64(len(raw)), Limit: cfg.maxBytes}
	}
	if len(raw) > math.MaxInt32 { // offsets are stored in 32 bits
		return nil, &PayloadTooLargeError{Size: int64(len(raw)), Limit: math.MaxInt32}
	}
	r := begin(cfg)
	r.s.ResetRecordingWS(raw, cfg.maxDepth)
	r.beginNotes()
	if err := r.read(); err != nil {
		r.Release()
		if cfg.advisor != nil {
			err = cfg.advisor.Hint(err, raw, cfg.maxDepth)
			if e := (*ResponseShapeError)(nil); errors.As(err, &e) && e.Advice != nil {
				switch {
				case !cfg.explain:
					e.Advice = nil // advice, as notes, is for the explain view
				case cfg.fixes != nil:
					e.AdviceFix = cfg.fixes(raw)(nil, *e.Advice)
				}
			}
		}
		return nil, err
	}
	if r.lint != nil {
		r.notes, r.lint = r.lint.End(), nil
	}
	return r, nil
}

// begin takes a Result from the pool for a walk with cfg.
func begin(cfg *config) *Result {
	r := resultPool.Get().(*Result)
	r.released = false
	r.explain, r.maxWarnings, r.advisor = cfg.explain, cfg.maxWarnings, cfg.advisor
	r.fixes = cfg.fixes
	r.warn.SetLimit(cfg.maxWarnings)
	return r
}

// NormalizeLine normalizes the line at the start of data as Normalize normalizes that line
// alone, and returns where it ends: the line is data up to its first '\n', or all of data if
// it has none, a '\r' before the '\n' being part of the terminator; end is the index of the
// '\n', or len(data). A line that becomes a record is read once, as it is normalized: cutting
// JSON lines apart before normalizing them read every byte twice, and the first read took a
// quarter of a batch's time on results of megabytes, which outgrow the CPU's cache before the
// second. A line that is rejected is cut out and handed to Normalize, for its exact error.
func (n *Normalizer) NormalizeLine(data []byte) (res *Result, end int, err error) {
	cfg := &n.cfg
	if !cfg.built {
		cfg = &defaults
	}
	// No more than the longest line accepted, with its "\r\n": past that the line is
	// rejected whatever it holds, and is not read through. Offsets are kept in 32 bits.
	window := data
	if limit := min(cfg.maxBytes, math.MaxInt32-2) + 2; int64(len(window)) > limit {
		window = window[:limit]
	}
	r := begin(cfg)
	r.s.ResetLine(window, cfg.maxDepth)
	r.beginNotes()
	if r.read() == nil {
		end := r.s.Pos() // the '\n', or the window's end
		size := lineSize(data, end)
		if (end < len(window) || len(window) == len(data)) && int64(size) <= cfg.maxBytes {
			r.s.CutInput(size)
			if r.lint != nil {
				r.notes, r.lint = r.lint.End(), nil
			}
			return r, end, nil
		}
	}
	r.Release()
	if end = bytes.IndexByte(data, '\n'); end < 0 {
		end = len(data)
	}
	res, err = n.Normalize(data[:lineSize(data, end)])
	return res, end, err
}

// lineSize is the size of the line of data that ends at end (its '\n', or the end of data),
// without its terminator: a '\r' before the '\n' is part of it.
func lineSize(data []byte, end int) int {
	if end < len(data) && end > 0 && data[end-1] == '\r' {
		return end - 1
	}
	return end
}

// resultPool recycles Results, with their slices, between calls: a caller that is done with a
// Result calls Release, and the next Normalize allocates almost nothing.
var resultPool = sync.Pool{New: func() any { return new(Result) }}

// pooledCap bounds what a released Result keeps: a result with a huge transcript should not pin
// its memory in the pool.
const pooledCap = 1 << 14

// Release returns r to a pool for a later Normalize to reuse. Calling it is optional (a Result
// that is not released is collected as usual); after it, neither r nor anything obtained from it
// (Warnings, Notes) may be used: r's methods panic with "normalize: Result used after Release"
// (a programming error; a wrong record must not reach the platform).
//
// Release on a nil *Result does nothing, so that the error path may release too
// (res, err := n.Normalize(raw); defer res.Release()). A second Release of the same Result
// does nothing either, as long as no Normalize has taken it from the pool since: once one
// has, r is that call's Result, and a stale Release by its old owner cannot be told from the
// new owner's (pooling cannot detect it): it would recycle a Result still in use. Release a
// Result once, when done with it.
func (r *Result) Release() {
	if r == nil || r.released {
		return
	}
	r.released = true
	if r.msgs.Cap() > pooledCap || cap(r.meta.members.List) > pooledCap || r.warn.Cap() > pooledCap {
		return // too big to keep: let the collector have it
	}
	r.s.Forget() // Normalize resets it: only the input must not be kept
	r.warn.SetLimit(0)
	r.msgs.Reset(nil, nil)
	r.msgs.Observer = nil
	r.meta.reset()
	r.fields = [3]field{}
	r.final, r.finalKind, r.truncated, r.explain, r.replaying, r.notes = nil, 0, false, false, false, nil
	r.advisor, r.lint = nil, nil
	r.fixes, r.fixBuf, r.fixEnds = nil, nil, nil
	resultPool.Put(r)
}

// Result is a normalized record.
type Result struct {
	s         jsonscan.Scanner
	warn      softwarn.Collector
	msgs      messages.Reader
	meta      metadata
	fields    [3]field
	final     []byte // the final_response string token to write, quotes included
	finalBuf  []byte // readFinal's buffer for a final_response it rewrites; Release keeps it
	finalKind jsonscan.Kind
	truncated bool
	explain   bool
	fixes     FixFunc
	fixBuf    []byte // the fixes' members, made once (fixData)
	fixEnds   []int
	replaying bool // reading the result object a second time (see replay)
	notes     []softwarn.Warning
	advisor   Advisor
	lint      Notes // with explain and an Advisor: the notes being found, while r is read
	// maxWarnings is the configured limit, kept for a replay.
	maxWarnings int
	// released: Release was called, and no Normalize has taken r from the pool since.
	released bool
}

// usedAfterRelease is the panic of a Result's methods after Release.
const usedAfterRelease = "normalize: Result used after Release"

// live panics if r was released: one predictable branch on the methods that read r.
func (r *Result) live() {
	if r.released {
		panic(usedAfterRelease)
	}
}

// The top-level keys the record is made of, in record order.
const (
	fieldFinal = iota
	fieldMessages
	fieldMetadata
)

var fieldNames = [...]string{"final_response", "messages", "metadata"}

// field tracks one top-level key: whether it was seen, and the warnings its value caused, which
// a later duplicate of the key makes void; how often it came, and where its last value starts.
type field struct {
	seen             bool
	warnFrom, warnTo int
	count, last      int
}

func (r *Result) read() error {
	s := &r.s
	r.finalKind = jsonscan.None
	var probe probeKeys
	switch kind := s.Peek(); kind {
	case jsonscan.None:
		if s.Pos() < len(s.Data()) { // a NUL byte, which Peek cannot tell from the end
			s.SkipValue()
			break
		}
		s.Fail(s.Pos(), "no JSON value in the input; expected one JSON value (a string or an object with final_response)")
	case jsonscan.String:
		r.finalKind = jsonscan.String
		r.readFinal(s.StringValue(), s.StrFlags())
	case jsonscan.Object:
		probe = r.readObject()
		if r.needsReplay() {
			r.replay()
		}
	default:
		s.SkipValue()
		r.finalKind = kind
	}
	if s.AtEnd(); s.Err() != nil {
		return invalidJSON(s.Data(), s.Err())
	}
	r.warn.Close()
	return r.shapeError(probe)
}

// probeKeys records which of the SDK's result attributes a result object has.
type probeKeys uint8

// probeOrder is build_response's probe order after final_response.
var probeOrder = [...]string{"final_output", "output", "message"}

func (p probeKeys) first() (string, bool) {
	for i, name := range probeOrder {
		if p&(1<<i) != 0 {
			return name, true
		}
	}
	return "", false
}

func (r *Result) readObject() (probe probeKeys) {
	s := &r.s
	start := 0
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name, flags := s.Key()
		if flags&jsonscan.Escaped != 0 {
			name = s.KeyName() // unescaped; nearly every key has no escape, and needs no call
		}
		if r.lint != nil {
			s.Peek()
			start = s.Pos()
		}
		switch string(name) {
		case "final_response":
			if r.begin(fieldFinal) {
				r.finalKind = s.ValueKind()
				if r.finalKind == jsonscan.String {
					r.readFinal(s.StringValue(), s.StrFlags())
				} else {
					s.SkipValue()
				}
			}
			r.end(fieldFinal)
		case "messages":
			if r.begin(fieldMessages) {
				r.readMessages()
			}
			r.end(fieldMessages)
		case "metadata":
			if r.begin(fieldMetadata) {
				r.meta.read(s, &r.warn)
			}
			r.end(fieldMetadata)
		default:
			for i, key := range probeOrder {
				if string(name) == key {
					probe |= 1 << i
				}
			}
			s.SkipValue()
		}
		if r.lint != nil && s.Err() == nil {
			r.lint.Member(name, jsonscan.Span{Start: start, End: s.Pos()})
		}
	}
	return probe
}

// needsReplay reports whether the first reading of a result object must be replaced: a
// duplicated top-level key voided the warnings of its earlier value, but the list had been full,
// so warnings that stand were counted instead of listed.
func (r *Result) needsReplay() bool {
	if r.s.Err() != nil || r.warn.Skipped() == 0 {
		return false
	}
	for _, f := range r.fields {
		if f.count > 1 {
			return true
		}
	}
	return false
}

// replay reads the result object again, taking only the last value of each top-level key, so
// that the warnings listed are exactly those that stand. Only a hostile result pays for it.
func (r *Result) replay() {
	r.s.Restart()
	r.warn.SetLimit(r.maxWarnings)
	r.meta.reset()
	r.final, r.finalKind, r.truncated, r.replaying = nil, jsonscan.None, false, true
	r.beginNotes() // the first reading's notes are void with its warnings
	for i := range r.fields {
		r.fields[i].seen = false
	}
	r.s.Peek()
	r.readObject()
}

// begin starts reading a value of top-level key f and reports whether to read it. A duplicate
// voids the warnings of the earlier value. On replay only the key's last value is read.
func (r *Result) begin(f int) bool {
	fl := &r.fields[f]
	if r.replaying {
		if r.s.Pos() != fl.last {
			r.s.SkipValue()
			return false
		}
		if fl.count > 1 {
			r.warn.Add(duplicateTopLevel(f))
		}
		fl.warnFrom = r.warn.Len()
		return true
	}
	fl.count++
	fl.last = r.s.Pos()
	from := r.warn.Len()
	if fl.seen {
		n := fl.warnTo - fl.warnFrom
		r.warn.Remove(fl.warnFrom, fl.warnTo)
		for i := range r.fields {
			if r.fields[i].seen && r.fields[i].warnFrom >= fl.warnTo {
				r.fields[i].warnFrom -= n
				r.fields[i].warnTo -= n
			}
		}
		// The duplicate warning belongs to this value's warnings, so that a third value
		// replaces it with its own: one warning however often the key repeats.
		from = r.warn.Len()
		r.warn.Add(duplicateTopLevel(f))
	}
	fl.seen = true
	fl.warnFrom = from
	return true
}

func duplicateTopLevel(f int) softwarn.Warning {
	return softwarn.At(fieldNames[f]).Warning(softwarn.DuplicateKey, softwarn.Dropped,
		softwarn.Parts{Problem: `duplicate key "` + fieldNames[f] + `" in the result`, Done: softwarn.LastValueKept})
}

func (r *Result) end(f int) { r.fields[f].warnTo = r.warn.Len() }

func (r *Result) readMessages() {
	s := &r.s
	r.msgs.Reset(s, &r.warn)
	r.msgs.KeepFlatCalls = r.explain // the explain view reads every kept call from the table
	r.msgs.Observer = nil
	if r.lint != nil {
		r.lint.MessagesBegin()
		r.msgs.Observer = (*observer)(r)
	}
	switch kind := s.ValueKind(); kind { // read just after the key "messages"
	case jsonscan.Array:
		r.msgs.ReadArray()
	case jsonscan.Null:
		s.SkipValue()
	default:
		v := s.SkipValue()
		if s.Err() == nil {
			fix := serializedTwice(s.Data(), v, kind, jsonscan.Array)
			if kind == jsonscan.Object {
				fix = "a single message must be wrapped in an array: [{...}]"
			}
			r.warn.Add(softwarn.At("messages").Warning(softwarn.MessagesNotArray, softwarn.Dropped, softwarn.Parts{
				Found: kind.Describe(), Expected: "an array of message objects", Done: "messages was dropped and the run is graded on final_response alone", Fix: fix}))
		}
	}
}

func (r *Result) shapeError(probe probeKeys) error {
	switch r.finalKind {
	case jsonscan.String:
		if len(r.final) > 2 {
			return nil
		}
		return &ResponseShapeError{Path: "final_response", Got: "empty string", Want: "non-empty string", Problem: EmptyResponseMessage}
	case jsonscan.Null:
		return &ResponseShapeError{Path: "final_response", Got: "null", Want: "non-empty string", Problem: EmptyResponseMessage}
	case jsonscan.None:
		e := &ResponseShapeError{Path: "final_response", Got: GotNoFinalResponse, Want: "object with final_response",
			Problem: `the result object has no "final_response" key; expected {"final_response": "<the agent's answer>", ...}`}
		if name, ok := probe.first(); ok {
			e.Probe = name
			e.Detail = `. It has "` + name + `": it looks like a serialized agent result that did not go through build_response, which moves final_response, final_output, output or message (in that order) to final_response`
		}
		return e
	}
	if r.fields[fieldFinal].seen {
		return &ResponseShapeError{Path: "final_response", Got: r.finalKind.Name(), Want: "non-empty string",
			Problem: "final_response is " + r.finalKind.Describe() + `; expected a non-empty string`,
			Detail:  FinalExample}
	}
	return &ResponseShapeError{Got: r.finalKind.Name(), Want: "string or object",
		Problem: "the result is " + r.finalKind.Describe() + `; expected a non-empty string or an object with "final_response"`}
}

// invalidJSON places a syntax error as Python's json module does (jsonscan's LineColumn: line,
// and column in characters, as the platform's parser reports them); the byte offset is there
// for tools.
func invalidJSON(data []byte, e *jsonscan.SyntaxError) error {
	line, col := e.LineColumn(data)
	return &InvalidJSONError{Offset: e.Offset, Line: line, Column: col, Reason: e.Reason, Found: e.Found, JSONLines: e.JSONLines, TooDeep: e.TooDeep, TooManyDigits: e.TooManyDigits}
}

func appendString(dst []byte, s string) []byte { return jsonscan.AppendString(dst, s) }

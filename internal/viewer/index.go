// Package viewer indexes a corpus of raw handler results, a JSON Lines file of results or a
// golden directory, for `normalizer view`: it reads the corpus once and keeps, per result, only
// where its bytes lie and a summary of what the explaining normalizer made of it (the verdict,
// the rejection's class, the counts of warnings and notes, the set of their codes). A page of
// summaries is found by filter and paging (Find); a result's bytes are read back from the file
// when asked for (Raw). The table page that browses the index is embedded here too (Assets).
//
// # Memory
//
// A JSON Lines file is read as a stream by package batch's pipeline, as `normalizer normalize
// --jsonl` reads it, so memory is the pipeline's chunks plus a few dozen bytes a line: no line
// is held once summarized, and a line over the limit is not held at all. Bad lines (not JSON,
// over the limit, empty) are items with their rejection, as in the --jsonl output.
package viewer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/batch"
	"github.com/dystopic/normalizer/internal/golden"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Kind is what a corpus is.
type Kind string

// The kinds of corpus.
const (
	KindJSONL  Kind = "jsonl"  // a file of one raw result per line
	KindGolden Kind = "golden" // a directory of golden cases: each NAME.input.json is a result
)

// Options configure Open. The zero value is usable.
type Options struct {
	// MaxBytes is the longest result (line) that is normalized; a longer one is a
	// PayloadTooLarge item. <= 0 means normalize.DefaultMaxBytes.
	MaxBytes int64
	// MaxDepth is the deepest nesting accepted; <= 0 means normalize.DefaultMaxDepth.
	MaxDepth int
	// Workers normalize the lines of a JSON Lines file; <= 0 means GOMAXPROCS.
	Workers int
}

func (o *Options) setDefaults() {
	if o.MaxBytes <= 0 {
		o.MaxBytes = normalize.DefaultMaxBytes
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = normalize.DefaultMaxDepth
	}
}

// normalizer is the explaining normalizer of `normalizer normalize --explain`, whose
// diagnostics give an item its codes.
func (o *Options) normalizer() *normalize.Normalizer {
	return porting.New(normalize.WithMaxBytes(o.MaxBytes), normalize.WithMaxDepth(o.MaxDepth), normalize.WithExplain())
}

// Index is a corpus's results, summarized. It is safe for concurrent use once Open returned.
type Index struct {
	path  string
	kind  Kind
	file  *os.File // KindJSONL: the file the items are read back from
	items []item
	names []string // KindGolden: each item's case name, relative to the directory
	paths []string // KindGolden: each item's input file
	sets  [][]softwarn.Code
}

// item is one result: where its bytes are, and its summary. Its code set is an index into
// Index.sets, which holds each distinct set once (a corpus has few).
type item struct {
	off      int64 // KindJSONL: the line's offset; KindGolden: 0
	size     int64 // the line's length without its terminator, or the input file's size
	set      uint32
	warnings uint32
	notes    uint32
	class    classID
}

// classID is a verdict and a rejection's class in a byte.
type classID uint8

const (
	accepted classID = iota
	classInvalidJSON
	classResponseShape
	classPayloadTooLarge
	classInternal // not a rejection of the contract: should not happen
)

// classes are the names of the classIDs after accepted, the order of by_class.
var classes = []normalize.Class{"", normalize.ClassInvalidJSON, normalize.ClassResponseShape, normalize.ClassPayloadTooLarge, normalize.ClassInternal}

func classOf(err error) classID {
	c, ok := normalize.ClassOf(err)
	if !ok {
		return classInternal
	}
	if i := slices.Index(classes, c); i > 0 {
		return classID(i)
	}
	return classInternal
}

// Open indexes the corpus at path: a directory is a golden directory, anything else a JSON
// Lines file. A corpus that cannot be read is an error; a result that is bad is an item.
func Open(ctx context.Context, path string, opts Options) (*Index, error) {
	opts.setDefaults()
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return openGolden(ctx, path, opts)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	ix, err := scanLines(ctx, f, opts)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("index %s: %w", path, err)
	}
	ix.path, ix.file = path, f
	return ix, nil
}

// Close lets go of the file the items are read back from.
func (ix *Index) Close() error {
	if ix.file == nil {
		return nil
	}
	return ix.file.Close()
}

// Len is the number of items.
func (ix *Index) Len() int { return len(ix.items) }

// Path is the corpus as given to Open.
func (ix *Index) Path() string { return ix.path }

// Kind is what the corpus is.
func (ix *Index) Kind() Kind { return ix.kind }

// scanLines indexes the JSON Lines in r, read once as a stream.
func scanLines(ctx context.Context, r io.Reader, opts Options) (*Index, error) {
	ix := &Index{kind: KindJSONL}
	w := &summaryWriter{ix: ix, sets: map[string]uint32{}}
	_, err := batch.Run(ctx, r, w, opts.normalizer(), batch.Options{
		Workers: opts.Workers, MaxLineBytes: opts.MaxBytes, WideReason: porting.WideReason, Render: renderSummary,
	})
	if err == nil {
		err = w.err
	}
	if err == nil && len(w.partial) > 0 {
		err = errors.New("summary cut short") // cannot happen: every summary ends in "\n"
	}
	if err != nil {
		return nil, err
	}
	ix.items = slices.Clip(ix.items)
	return ix, nil
}

// renderSummary is the batch pipeline's output for a line: its summary, one text line, which
// summaryWriter reads back in input order:
//
//	RAW SIZE CLASS WARNINGS NOTES CODE,CODE,...
//
// with CLASS a classID and "-" for no codes.
func renderSummary(dst []byte, n *normalize.Normalizer, l batch.Line) ([]byte, batch.Outcome) {
	s, o := summarize(n, l.Bytes, l.Err)
	dst = strconv.AppendInt(dst, l.Raw, 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, l.Size, 10)
	dst = fmt.Appendf(dst, " %d %d %d ", s.class, s.warnings, s.notes)
	if len(s.codes) == 0 {
		dst = append(dst, '-')
	}
	for i, c := range s.codes {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, c...)
	}
	return append(dst, '\n'), o
}

// summary is what an item keeps of its normalization.
type summary struct {
	class           classID
	warnings, notes uint32
	codes           []softwarn.Code // sorted, each once
}

// summarize normalizes raw with n, unless err already rejects it.
func summarize(n *normalize.Normalizer, raw []byte, err error) (summary, batch.Outcome) {
	var res *normalize.Result
	if err == nil {
		res, err = n.Normalize(raw)
	}
	if err != nil {
		c := classOf(err)
		return summary{class: c}, batch.Outcome{Class: classes[c]}
	}
	defer res.Release()
	warns, notes := res.Warnings(), res.Notes()
	// The problems the record reports, as the service counts them: those listed, plus those
	// past the list's cap, for which the one warnings_limited warning stands.
	count := len(warns)
	if more := res.WarningsNotListed(); more > 0 {
		count += more - 1
	}
	s := summary{warnings: uint32(count), notes: uint32(len(notes))}
	for _, w := range slices.Concat(warns, notes) {
		s.codes = append(s.codes, w.Code)
	}
	slices.Sort(s.codes)
	s.codes = slices.Compact(s.codes)
	return s, batch.Outcome{Warnings: int(s.warnings), Truncated: res.Truncated()}
}

// summaryWriter reads the summaries renderSummary wrote, in input order, into the index.
type summaryWriter struct {
	ix      *Index
	sets    map[string]uint32 // a code set, as written, to its index in ix.sets
	off     int64
	partial []byte // a summary not ended yet (a write need not end at a line's end)
	err     error
}

func (w *summaryWriter) Write(p []byte) (int, error) {
	n := len(p)
	if len(w.partial) > 0 {
		i := strings.IndexByte(string(p), '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			return n, nil
		}
		w.partial = append(w.partial, p[:i]...)
		w.line(string(w.partial))
		w.partial, p = w.partial[:0], p[i+1:]
	}
	for len(p) > 0 {
		i := strings.IndexByte(string(p), '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			break
		}
		w.line(string(p[:i]))
		p = p[i+1:]
	}
	if w.err != nil {
		return 0, w.err
	}
	return n, nil
}

// line adds the item a summary describes.
func (w *summaryWriter) line(s string) {
	f := strings.Fields(s)
	if len(f) != 6 {
		w.err = fmt.Errorf("bad summary %q", s)
		return
	}
	var v [5]int64
	for i := range v {
		x, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil || x < 0 {
			w.err = fmt.Errorf("bad summary %q", s)
			return
		}
		v[i] = x
	}
	raw, size := v[0], v[1]
	it := item{off: w.off, size: size, class: classID(min(v[2], int64(classInternal))),
		warnings: uint32(min(v[3], math.MaxUint32)), notes: uint32(min(v[4], math.MaxUint32))}
	it.set = w.intern(f[5])
	w.ix.items = append(w.ix.items, it)
	w.off += raw
}

// intern is the index in ix.sets of a code set as renderSummary writes it.
func (w *summaryWriter) intern(codes string) uint32 {
	if id, ok := w.sets[codes]; ok {
		return id
	}
	var set []softwarn.Code
	if codes != "-" {
		for c := range strings.SplitSeq(codes, ",") {
			set = append(set, softwarn.Code(c))
		}
	}
	return internSet(w.ix, w.sets, codes, set)
}

func internSet(ix *Index, ids map[string]uint32, key string, set []softwarn.Code) uint32 {
	if id, ok := ids[key]; ok {
		return id
	}
	id := uint32(len(ix.sets))
	ix.sets = append(ix.sets, set)
	ids[key] = id
	return id
}

// openGolden indexes the cases of a golden directory: each input file is an item, named by
// its case.
func openGolden(ctx context.Context, dir string, opts Options) (*Index, error) {
	inputs, err := golden.Inputs(dir)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", dir, err)
	}
	ix := &Index{path: dir, kind: KindGolden}
	n := opts.normalizer()
	ids := map[string]uint32{}
	for _, in := range inputs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		it, err := goldenItem(n, in, opts.MaxBytes)
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", dir, err)
		}
		it.set = internSet(ix, ids, strings.Join(codeStrings(it.codes), ","), it.codes)
		ix.items = append(ix.items, it.item)
		name, err := filepath.Rel(dir, in)
		if err != nil {
			name = in
		}
		ix.names = append(ix.names, filepath.ToSlash(strings.TrimSuffix(name, golden.InputSuffix)))
		ix.paths = append(ix.paths, in)
	}
	return ix, nil
}

type summarized struct {
	item
	summary
}

// goldenItem reads and summarizes one case's input; one over the limit is not read.
func goldenItem(n *normalize.Normalizer, path string, limit int64) (summarized, error) {
	st, err := os.Stat(path)
	if err != nil {
		return summarized{}, err
	}
	if !st.Mode().IsRegular() {
		return summarized{}, fmt.Errorf("%s: not a regular file", path)
	}
	size := st.Size()
	var s summary
	if size > limit {
		s, _ = summarize(n, nil, &normalize.PayloadTooLargeError{Size: size, Limit: limit})
	} else {
		b, err := os.ReadFile(path)
		if err != nil {
			return summarized{}, err
		}
		size = int64(len(b))
		s, _ = summarize(n, b, nil)
	}
	return summarized{item{size: size, class: s.class, warnings: s.warnings, notes: s.notes}, s}, nil
}

func codeStrings(codes []softwarn.Code) []string {
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = string(c)
	}
	return out
}

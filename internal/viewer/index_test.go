package viewer

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/jsonlgen"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// expected is what the index must say of one result, worked out apart from the pipeline: the
// explaining normalizer on the line, or PayloadTooLarge for a line over the limit.
func expected(t *testing.T, n *normalize.Normalizer, i int, line []byte, limit int64) Summary {
	t.Helper()
	s := Summary{Item: i, Line: int64(i) + 1, Verdict: Accepted, Codes: []softwarn.Code{}, Bytes: int64(len(line))}
	if int64(len(line)) > limit {
		s.Verdict, s.Class = Rejected, normalize.ClassPayloadTooLarge
		return s
	}
	res, err := n.Normalize(line)
	if err != nil {
		c, ok := normalize.ClassOf(err)
		require.True(t, ok, "line %d: %v", i+1, err)
		s.Verdict, s.Class = Rejected, c
		return s
	}
	defer res.Release()
	// The warnings_limited warning stands for the ones not listed; it is not one more.
	s.Warnings, s.Notes = len(res.Warnings()), len(res.Notes())
	if more := res.WarningsNotListed(); more > 0 {
		s.Warnings += more - 1
	}
	for _, w := range append(res.Warnings(), res.Notes()...) {
		if !slices.Contains(s.Codes, w.Code) {
			s.Codes = append(s.Codes, w.Code)
		}
	}
	slices.Sort(s.Codes)
	return s
}

// corpus writes lines to a file and returns its path.
func corpus(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "corpus.jsonl")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

func open(t *testing.T, path string, opts Options) *Index {
	t.Helper()
	ix, err := Open(context.Background(), path, opts)
	require.NoError(t, err)
	t.Cleanup(func() { ix.Close() })
	return ix
}

// all pages through q and returns every item it selects, checking each page's bounds.
func all(t *testing.T, ix *Index, q Query) []Summary {
	t.Helper()
	var got []Summary
	q.Limit = MaxLimit
	for q.Offset = 0; ; q.Offset += MaxLimit {
		p := ix.Find(q)
		require.LessOrEqual(t, len(p.Items), MaxLimit)
		require.Equal(t, min(MaxLimit, max(0, p.Matching-q.Offset)), len(p.Items), "page at %d", q.Offset)
		got = append(got, p.Items...)
		if q.Offset+MaxLimit >= p.Matching {
			return got
		}
	}
}

func readRaw(t *testing.T, ix *Index, i int) []byte {
	t.Helper()
	r, size, err := ix.Raw(i)
	require.NoError(t, err)
	defer r.Close()
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, size, int64(len(b)))
	return b
}

// A corpus of 10,000 generated results, a few of them malformed, blank or over the limit:
// every item's summary is what the explaining normalizer says of its line, its bytes are the
// line's, and every filter selects exactly the items it should, in order, page by page, with
// the counts of each facet over the other filters.
func TestIndex10k(t *testing.T) {
	g := jsonlgen.New(7, true)
	var data []byte
	var lines [][]byte
	for i := range 10000 {
		start := len(data)
		data = g.Line(data)
		lines = append(lines, data[start:])
		if i%97 == 0 {
			data = append(data, '\r') // CRLF lines too
		}
		data = append(data, '\n')
	}
	const limit = 16 << 10
	ix := open(t, corpus(t, data), Options{MaxBytes: limit, Workers: 2})
	require.Equal(t, len(lines), ix.Len())
	n := porting.New(normalize.WithMaxBytes(limit), normalize.WithExplain())
	want := make([]Summary, len(lines))
	for i, l := range lines {
		want[i] = expected(t, n, i, l, limit)
	}
	got := all(t, ix, Query{})
	require.Equal(t, want, got)
	for _, i := range []int{0, 1, 96, 97, 5000, 9999} {
		assert.Equal(t, string(lines[i]), string(readRaw(t, ix, i)), "item %d", i)
	}

	classesSeen, codesSeen := map[normalize.Class]bool{}, map[softwarn.Code]bool{}
	for _, s := range want {
		classesSeen[s.Class] = true
		for _, c := range s.Codes {
			codesSeen[c] = true
		}
	}
	for _, c := range []normalize.Class{normalize.ClassInvalidJSON, normalize.ClassResponseShape, normalize.ClassPayloadTooLarge} {
		require.True(t, classesSeen[c], "the corpus has no %s line", c)
	}
	require.GreaterOrEqual(t, len(codesSeen), 5, "the corpus has too few codes to filter by")

	var queries []Query
	for c := range codesSeen {
		queries = append(queries, Query{Code: c}, Query{Code: c, Verdict: Accepted})
	}
	for c := range classesSeen {
		if c != "" {
			queries = append(queries, Query{Class: c}, Query{Class: c, Verdict: Accepted})
		}
	}
	queries = append(queries, Query{Verdict: Accepted}, Query{Verdict: Rejected}, Query{Verdict: Rejected, Code: softwarn.DuplicateKey})
	for _, q := range queries {
		var wantItems []Summary
		byCode, byClass, byVerdict := map[softwarn.Code]int{}, map[normalize.Class]int{}, map[string]int{Accepted: 0, Rejected: 0}
		for _, s := range want {
			code := q.Code == "" || slices.Contains(s.Codes, q.Code)
			class := q.Class == "" || s.Class == q.Class
			verdict := q.Verdict == "" || s.Verdict == q.Verdict
			if code && class && verdict {
				wantItems = append(wantItems, s)
			}
			if class && verdict {
				for _, c := range s.Codes {
					byCode[c]++
				}
			}
			if code && verdict && s.Class != "" {
				byClass[s.Class]++
			}
			if code && class {
				byVerdict[s.Verdict]++
			}
		}
		assert.Equal(t, wantItems, all(t, ix, q), "%+v", q)
		p := ix.Find(q)
		assert.Equal(t, len(wantItems), p.Matching, "%+v", q)
		assert.Equal(t, byCode, p.ByCode, "%+v: by code", q)
		assert.Equal(t, byClass, p.ByClass, "%+v: by class", q)
		assert.Equal(t, byVerdict, p.ByVerdict, "%+v: by verdict", q)
		assert.Equal(t, 10000, p.Total)
	}

	p := ix.Find(Query{Offset: 9990, Limit: 50})
	assert.Len(t, p.Items, 10)
	assert.Equal(t, 9990, p.Items[0].Item)
	p = ix.Find(Query{Offset: 20000})
	assert.Empty(t, p.Items)
	assert.NotNil(t, p.Items, "an empty page is [], not null")
	assert.Equal(t, MaxLimit, ix.Find(Query{Limit: 5000}).Limit)
}

// Bad lines are items with their rejection, each in its place: empty and blank lines, lines
// that are not JSON, lines over the limit (never held), a last line without a terminator.
func TestIndexBadLines(t *testing.T) {
	ok := `{"final_response":"fine"}`
	tests := []struct {
		name  string
		line  string
		class normalize.Class
	}{
		{"good", ok, ""},
		{"empty", "", normalize.ClassInvalidJSON},
		{"blank", "  \t", normalize.ClassInvalidJSON},
		{"not JSON", "{nope", normalize.ClassInvalidJSON},
		{"no final_response", `{"answer":"x"}`, normalize.ClassResponseShape},
		{"at the limit", `"` + strings.Repeat("x", 62) + `"`, ""},
		{"over the limit", `"` + strings.Repeat("x", 63) + `"`, normalize.ClassPayloadTooLarge},
		{"far over the limit", strings.Repeat("y", 1<<20), normalize.ClassPayloadTooLarge},
		{"last, no terminator", ok, ""},
	}
	var data []byte
	for i, tt := range tests {
		data = append(data, tt.line...)
		if i < len(tests)-1 {
			data = append(data, "\r\n"...)
		}
	}
	ix := open(t, corpus(t, data), Options{MaxBytes: 64})
	got := all(t, ix, Query{})
	require.Len(t, got, len(tests))
	for i, tt := range tests {
		assert.Equal(t, tt.class, got[i].Class, tt.name)
		assert.Equal(t, tt.class == "", got[i].Verdict == Accepted, tt.name)
		assert.Equal(t, int64(len(tt.line)), got[i].Bytes, tt.name)
		assert.Equal(t, tt.line, string(readRaw(t, ix, i)), tt.name)
	}
}

// An input in UTF-16 is cut where UTF-16 ends a line, as --jsonl cuts it, and every line is
// an InvalidJSON item.
func TestIndexUTF16(t *testing.T) {
	var data []byte
	data = append(data, 0xFF, 0xFE)
	for _, r := range `{"final_response":"a"}` + "\n" + `{"final_response":"b"}` + "\n" {
		data = append(data, byte(r), 0)
	}
	ix := open(t, corpus(t, data), Options{})
	got := all(t, ix, Query{})
	require.Len(t, got, 2)
	for _, s := range got {
		assert.Equal(t, normalize.ClassInvalidJSON, s.Class)
	}
}

// A golden directory's items are its cases, named by them, in the order check checks them;
// each one's bytes are its input file's.
func TestIndexGolden(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "explain")
	ix := open(t, dir, Options{})
	inputs, err := filepath.Glob(filepath.Join(dir, "*.input.json"))
	require.NoError(t, err)
	require.Equal(t, len(inputs), ix.Len())
	assert.Equal(t, KindGolden, ix.Kind())
	n := porting.New(normalize.WithExplain())
	got := all(t, ix, Query{})
	for i, in := range inputs {
		b, err := os.ReadFile(in)
		require.NoError(t, err)
		w := expected(t, n, i, b, normalize.DefaultMaxBytes)
		w.Line, w.Name = 0, strings.TrimSuffix(filepath.Base(in), ".input.json")
		assert.Equal(t, w, got[i])
		assert.Equal(t, b, readRaw(t, ix, i), w.Name)
	}
	withCodes := 0
	for _, s := range got {
		if len(s.Codes) > 0 {
			withCodes++
		}
	}
	assert.Greater(t, withCodes, len(got)/2, "the explain cases are there for their diagnostics")
}

// Raw says which items there are, and refuses to read back bytes that are no longer the ones
// indexed.
func TestRawErrors(t *testing.T) {
	path := corpus(t, []byte("{\"final_response\":\"a\"}\n{\"final_response\":\"b\"}\n"))
	ix := open(t, path, Options{})
	for _, i := range []int{-1, 2} {
		_, _, err := ix.Raw(i)
		assert.ErrorIs(t, err, ErrNoItem, "item %d", i)
		assert.ErrorContains(t, err, "from 0 to 1")
	}
	require.NoError(t, os.Truncate(path, 30))
	_, _, err := ix.Raw(1)
	assert.ErrorIs(t, err, ErrChanged)
	assert.Equal(t, `{"final_response":"a"}`, string(readRaw(t, ix, 0)))

	dir := t.TempDir()
	in := filepath.Join(dir, "case.input.json")
	require.NoError(t, os.WriteFile(in, []byte(`{"final_response":"a"}`), 0o644))
	gx := open(t, dir, Options{})
	require.NoError(t, os.WriteFile(in, []byte(`{"final_response":"longer"}`), 0o644))
	_, _, err = gx.Raw(0)
	assert.ErrorIs(t, err, ErrChanged)
}

// A corpus that cannot be read is an error naming it, not an empty index.
func TestOpenErrors(t *testing.T) {
	_, err := Open(context.Background(), filepath.Join(t.TempDir(), "missing.jsonl"), Options{})
	assert.ErrorIs(t, err, os.ErrNotExist)
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "loop.input.json"), 0o755))
	ix, err := Open(context.Background(), dir, Options{})
	require.NoError(t, err, "a directory named like an input is walked into, not read")
	assert.Equal(t, 0, ix.Len())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Open(ctx, corpus(t, bytes.Repeat([]byte("{}\n"), 1000)), Options{})
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
}

func TestParseQuery(t *testing.T) {
	tests := []struct {
		name  string
		query string
		want  Query
		err   string
	}{
		{"none", "", Query{Limit: DefaultLimit}, ""},
		{"all", "offset=200&limit=10&code=duplicate_key&class=InvalidJSON&verdict=rejected",
			Query{Offset: 200, Limit: 10, Code: softwarn.DuplicateKey, Class: normalize.ClassInvalidJSON, Verdict: Rejected}, ""},
		{"empty values are absent", "offset=&limit=&code=&class=&verdict=", Query{Limit: DefaultLimit}, ""},
		{"limit capped", "limit=100000", Query{Limit: MaxLimit}, ""},
		{"negative offset", "offset=-1", Query{}, `query parameter offset: got "-1", expected a whole number, 0 or more`},
		{"zero limit", "limit=0", Query{}, `query parameter limit: got "0", expected a whole number, 1 or more`},
		{"not a number", "limit=ten", Query{}, `query parameter limit: got "ten", expected a whole number, 1 or more`},
		{"unknown code", "code=nope", Query{}, `query parameter code: got "nope", expected a warning's or a note's code, as in the record's diagnostics`},
		{"unknown class", "class=invalidjson", Query{}, `query parameter class: got "invalidjson", expected one of InvalidJSON, ResponseShapeError, PayloadTooLarge, Internal`},
		{"bad verdict", "verdict=ok", Query{}, `query parameter verdict: got "ok", expected accepted or rejected`},
		{"twice", "code=duplicate_key&code=duplicate_key", Query{}, `query parameter code: got 2 values, expected one`},
		{"unknown parameter", "clas=InvalidJSON", Query{}, `query parameter "clas": got an unknown parameter, expected one of offset, limit, code, class, verdict`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := url.ParseQuery(tt.query)
			require.NoError(t, err)
			got, err := ParseQuery(v)
			if tt.err != "" {
				var qe *QueryError
				require.ErrorAs(t, err, &qe)
				assert.Equal(t, tt.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// A result with more warnings than a record lists counts each problem once: its warnings
// column is the number of problems, as the service counts them, not the listed ones plus the
// unlisted plus the warnings_limited warning that stands for them.
func TestIndexWarningsPastTheList(t *testing.T) {
	const problems = 1010
	line := []byte(`{"final_response":"ok","messages":[`)
	for i := range problems {
		if i > 0 {
			line = append(line, ',')
		}
		line = append(line, `{"role":"x","content":"hi"}`...)
	}
	line = append(line, "]}\n"...)
	ix := open(t, corpus(t, line), Options{})
	p := ix.Find(Query{})
	require.Len(t, p.Items, 1)
	assert.Equal(t, problems, p.Items[0].Warnings)
	assert.Contains(t, p.Items[0].Codes, softwarn.Code("warnings_limited"))
}

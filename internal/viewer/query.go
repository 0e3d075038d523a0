package viewer

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Paging of Find: the page size when none is asked for, and the most a page holds.
const (
	DefaultLimit = 50
	MaxLimit     = 200
)

// Verdicts of a result.
const (
	Accepted = "accepted"
	Rejected = "rejected"
)

// Query selects a page of items: those that match every filter that is set, from Offset on,
// at most Limit of them.
type Query struct {
	Offset  int
	Limit   int             // 1 to MaxLimit; 0 means DefaultLimit
	Code    softwarn.Code   // a warning's or a note's code; "" for any
	Class   normalize.Class // a rejection's class; "" for any
	Verdict string          // Accepted or Rejected; "" for any
}

// Page is a page of items, the number that match, and the counts the filters offer: each
// facet (code, class, verdict) counted over the items the other two filters select, so that
// a filter's choices are what changing it would show.
type Page struct {
	Source    string                  `json:"source"` // the corpus as given
	Kind      Kind                    `json:"kind"`
	Total     int                     `json:"total"`    // items in the corpus
	Matching  int                     `json:"matching"` // items that match the query
	Offset    int                     `json:"offset"`
	Limit     int                     `json:"limit"`
	Items     []Summary               `json:"items"`
	ByCode    map[softwarn.Code]int   `json:"by_code"`
	ByClass   map[normalize.Class]int `json:"by_class"`
	ByVerdict map[string]int          `json:"by_verdict"`
}

// Summary is one item as the table shows it.
type Summary struct {
	Item     int             `json:"item"`           // its index, from 0: GET /v1/corpus/items/N
	Line     int64           `json:"line,omitempty"` // KindJSONL: its line, from 1
	Name     string          `json:"name,omitempty"` // KindGolden: its case's name
	Verdict  string          `json:"verdict"`
	Class    normalize.Class `json:"class,omitempty"` // a rejected item's class
	Warnings int             `json:"warnings"`
	Notes    int             `json:"notes"`
	Codes    []softwarn.Code `json:"codes"` // of its warnings and notes, sorted, each once
	Bytes    int64           `json:"bytes"` // its size
}

// QueryError is a query parameter that is not one Find takes.
type QueryError struct {
	Param string // the parameter, as named in the query string
	Got   string // its value, or what is wrong with it
	Want  string // what it takes
}

func (e *QueryError) Error() string {
	return fmt.Sprintf("query parameter %s: got %s, expected %s", e.Param, e.Got, e.Want)
}

// queryParams are the parameters ParseQuery takes.
var queryParams = []string{"offset", "limit", "code", "class", "verdict"}

// ParseQuery reads a Query from the query string of GET /v1/corpus. A parameter given twice,
// one not known, or a value out of range is a *QueryError; a limit over MaxLimit is MaxLimit.
func ParseQuery(v url.Values) (Query, error) {
	var q Query
	names := make([]string, 0, len(v))
	for name := range v {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		switch {
		case !slices.Contains(queryParams, name):
			return q, &QueryError{Param: strconv.Quote(name), Got: "an unknown parameter", Want: "one of " + strings.Join(queryParams, ", ")}
		case len(v[name]) > 1:
			return q, &QueryError{Param: name, Got: strconv.Itoa(len(v[name])) + " values", Want: "one"}
		}
	}
	var err error
	if q.Offset, err = intParam(v, "offset", 0, 0); err != nil {
		return q, err
	}
	if q.Limit, err = intParam(v, "limit", DefaultLimit, 1); err != nil {
		return q, err
	}
	q.Limit = min(q.Limit, MaxLimit)
	if c := v.Get("code"); c != "" {
		if !slices.Contains(slices.Concat(softwarn.WarningCodes(), softwarn.NoteCodes()), softwarn.Code(c)) {
			return q, &QueryError{Param: "code", Got: strconv.Quote(c), Want: "a warning's or a note's code, as in the record's diagnostics"}
		}
		q.Code = softwarn.Code(c)
	}
	if c := v.Get("class"); c != "" {
		if !slices.Contains(classes[1:], normalize.Class(c)) {
			return q, &QueryError{Param: "class", Got: strconv.Quote(c), Want: "one of " + classList()}
		}
		q.Class = normalize.Class(c)
	}
	switch verdict := v.Get("verdict"); verdict {
	case "", Accepted, Rejected:
		q.Verdict = verdict
	default:
		return q, &QueryError{Param: "verdict", Got: strconv.Quote(verdict), Want: Accepted + " or " + Rejected}
	}
	return q, nil
}

func classList() string {
	var s []string
	for _, c := range classes[1:] {
		s = append(s, string(c))
	}
	return strings.Join(s, ", ")
}

// intParam is a whole number of at least low, or def when the parameter is absent or empty.
func intParam(v url.Values, name string, def, low int) (int, error) {
	s := v.Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < low {
		return 0, &QueryError{Param: name, Got: strconv.Quote(s), Want: fmt.Sprintf("a whole number, %d or more", low)}
	}
	return n, nil
}

// Find returns the page of items q selects, in corpus order. It reads every item's summary
// once; nothing is read from the corpus.
func (ix *Index) Find(q Query) Page {
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	q.Limit = min(q.Limit, MaxLimit)
	q.Offset = max(q.Offset, 0)
	page := Page{Source: ix.path, Kind: ix.kind, Total: len(ix.items), Offset: q.Offset, Limit: q.Limit,
		Items: []Summary{}, ByCode: map[softwarn.Code]int{}, ByClass: map[normalize.Class]int{}, ByVerdict: map[string]int{}}
	hasCode := make([]bool, len(ix.sets)) // the sets that hold q.Code
	for i, set := range ix.sets {
		hasCode[i] = q.Code == "" || slices.Contains(set, q.Code)
	}
	want := accepted
	if q.Class != "" {
		want = classID(slices.Index(classes, q.Class))
	}
	perSet := make([]int, len(ix.sets)) // items of each set the class and verdict filters select
	var perClass [len(classIDs)]int
	var perVerdict [2]int // accepted, rejected
	for i := range ix.items {
		it := &ix.items[i]
		code := hasCode[it.set]
		class := q.Class == "" || it.class == want
		verdict := q.Verdict == "" || (q.Verdict == Accepted) == (it.class == accepted)
		if class && verdict {
			perSet[it.set]++
		}
		if code && verdict {
			perClass[it.class]++
		}
		if code && class {
			perVerdict[min(it.class, 1)]++
		}
		if code && class && verdict {
			if page.Matching >= q.Offset && len(page.Items) < q.Limit {
				page.Items = append(page.Items, ix.summary(i))
			}
			page.Matching++
		}
	}
	for i, n := range perSet {
		for _, c := range ix.sets[i] {
			if n > 0 {
				page.ByCode[c] += n
			}
		}
	}
	for c, n := range perClass[1:] {
		if n > 0 {
			page.ByClass[classes[c+1]] = n
		}
	}
	page.ByVerdict[Accepted], page.ByVerdict[Rejected] = perVerdict[0], perVerdict[1]
	return page
}

// classIDs lists every classID, for arrays indexed by one.
var classIDs = [...]classID{accepted, classInvalidJSON, classResponseShape, classPayloadTooLarge, classInternal}

// summary is item i as a Summary.
func (ix *Index) summary(i int) Summary {
	it := &ix.items[i]
	s := Summary{Item: i, Verdict: Accepted, Warnings: int(it.warnings), Notes: int(it.notes),
		Codes: ix.sets[it.set], Bytes: it.size}
	if s.Codes == nil {
		s.Codes = []softwarn.Code{}
	}
	if it.class != accepted {
		s.Verdict, s.Class = Rejected, classes[it.class]
	}
	if ix.kind == KindGolden {
		s.Name = ix.names[i]
	} else {
		s.Line = int64(i) + 1
	}
	return s
}

// ErrNoItem is the error of Raw for an index out of range.
var ErrNoItem = errors.New("no such item")

// ErrChanged is the error of Raw for an item whose file changed since it was indexed.
var ErrChanged = errors.New("the corpus changed since it was indexed; restart normalizer view to index it again")

// Raw opens item i's bytes, as they are in the corpus (a line without its terminator, or a
// case's input file), and returns their size; the caller closes the reader.
func (ix *Index) Raw(i int) (io.ReadCloser, int64, error) {
	if i < 0 || i >= len(ix.items) {
		return nil, 0, fmt.Errorf("item %d: %w; the corpus has %d, from 0 to %d", i, ErrNoItem, len(ix.items), len(ix.items)-1)
	}
	it := ix.items[i]
	if ix.kind == KindJSONL {
		if st, err := ix.file.Stat(); err != nil || st.Size() < it.off+it.size {
			return nil, 0, fmt.Errorf("item %d of %s: %w", i, ix.path, ErrChanged)
		}
		return io.NopCloser(io.NewSectionReader(ix.file, it.off, it.size)), it.size, nil
	}
	f, err := os.Open(ix.paths[i])
	if err != nil {
		return nil, 0, fmt.Errorf("item %d: %w", i, err)
	}
	if st, err := f.Stat(); err != nil || st.Size() != it.size {
		f.Close()
		return nil, 0, fmt.Errorf("item %d, %s: %w", i, ix.paths[i], ErrChanged)
	}
	return f, it.size, nil
}

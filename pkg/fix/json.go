package fix

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// span is a value's bytes in a document, [start, end).
type span struct{ start, end int }

// member is where one element of a container is: its value and, for an object's member, its
// key token; for an array's element key is the value.
type member struct {
	key, value span
}

// errSyntax is what the locator reports for bytes that are not JSON where it reads.
var errSyntax = errors.New("not JSON where the pointer leads")

// parsePointer splits an RFC 6901 pointer into its unescaped tokens; "" is the whole document.
func parsePointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, errors.New("a JSON pointer starts with /: " + strconv.Quote(p))
	}
	toks := strings.Split(p[1:], "/")
	for i, t := range toks {
		if strings.Contains(t, "~") {
			var b strings.Builder
			for j := 0; j < len(t); j++ {
				if t[j] != '~' {
					b.WriteByte(t[j])
					continue
				}
				if j+1 == len(t) || (t[j+1] != '0' && t[j+1] != '1') {
					return nil, errors.New("a ~ in a JSON pointer is ~0 or ~1: " + strconv.Quote(p))
				}
				if t[j+1] == '0' {
					b.WriteByte('~')
				} else {
					b.WriteByte('/')
				}
				j++
			}
			toks[i] = b.String()
		}
	}
	return toks, nil
}

// escapeToken escapes a key for a JSON pointer.
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// parentOf splits a pointer into its parent and its last token, unescaped.
func parentOf(p string) (string, string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", ""
	}
	last := p[i+1:]
	last = strings.NewReplacer("~1", "/", "~0", "~").Replace(last)
	return p[:i], last
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(data []byte, i int) int {
	for i < len(data) && isWS(data[i]) {
		i++
	}
	return i
}

// skipValue returns the end of the value that starts at data[i] (no whitespace before it), or
// -1 when it is not a value. It counts the bytes it reads in *work.
func skipValue(data []byte, i int, work *int) int {
	if i >= len(data) {
		return -1
	}
	start := i
	defer func() { *work += i - start }()
	switch c := data[i]; {
	case c == '"':
		return skipString(data, i)
	case c == '{' || c == '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				e := skipString(data, i)
				if e < 0 {
					return -1
				}
				i = e
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					i++
					return i
				}
			}
			i++
		}
		return -1
	default:
		for i < len(data) {
			c := data[i]
			if c == ',' || c == '}' || c == ']' || isWS(c) {
				break
			}
			i++
		}
		if i == start {
			return -1
		}
		return i
	}
}

func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// elements lists the members of the object or array at sp, in order.
func elements(data []byte, sp span, work *int) ([]member, error) {
	if sp.end-sp.start < 2 || (data[sp.start] != '{' && data[sp.start] != '[') {
		return nil, errSyntax
	}
	obj := data[sp.start] == '{'
	var out []member
	i := skipWS(data, sp.start+1)
	if i < sp.end && (data[i] == '}' || data[i] == ']') {
		return out, nil
	}
	for i < sp.end {
		var m member
		if obj {
			e := skipValue(data, i, work)
			if e < 0 || data[i] != '"' {
				return nil, errSyntax
			}
			m.key = span{i, e}
			i = skipWS(data, e)
			if i >= sp.end || data[i] != ':' {
				return nil, errSyntax
			}
			i = skipWS(data, i+1)
		}
		e := skipValue(data, i, work)
		if e < 0 {
			return nil, errSyntax
		}
		m.value = span{i, e}
		if !obj {
			m.key = m.value
		}
		out = append(out, m)
		i = skipWS(data, e)
		if i >= sp.end {
			return nil, errSyntax
		}
		if data[i] == ',' {
			i = skipWS(data, i+1)
			continue
		}
		if data[i] == '}' || data[i] == ']' {
			return out, nil
		}
		return nil, errSyntax
	}
	return nil, errSyntax
}

// keyText is the text of the key token tok.
func keyText(tok []byte) (string, bool) {
	if bytes.IndexByte(tok, '\\') < 0 {
		return string(tok[1 : len(tok)-1]), true
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return "", false
	}
	return s, true
}

// find returns the index of the member named key of an object (the last one, as the platform's
// parser keeps the last of a key given twice), or of element key of an array; -1 when there is
// none.
func find(data []byte, container byte, ms []member, key string) int {
	if container == '[' {
		n, err := strconv.Atoi(key)
		if err != nil || n < 0 || n >= len(ms) || (len(key) > 1 && key[0] == '0') {
			return -1
		}
		return n
	}
	at := -1
	for j, m := range ms {
		if k, ok := keyText(data[m.key.start:m.key.end]); ok && k == key {
			at = j
		}
	}
	return at
}

// Doc is a JSON document read by pointer, without decoding it: where the values are, so that
// a patch can change their bytes and leave the rest as it was. It remembers the containers it
// has listed, and gives up (no value) past a budget of bytes read, so that many diagnostics on
// a large document cost a bounded multiple of its size.
type Doc struct {
	data   []byte
	lists  map[string][]member // the members of each container listed, by pointer
	spans  map[string]span
	work   int
	budget int // bytes the locator may read; <= 0: no limit
}

// NewDoc reads data as a document. The locator reads at most 16 times its size (and 1 MiB
// more) in all, however many values are looked up.
func NewDoc(data []byte) *Doc {
	return &Doc{data: data, budget: 16*len(data) + 1<<20}
}

// Bytes is the document.
func (d *Doc) Bytes() []byte { return d.data }

// Value returns the bytes of the value at pointer p.
func (d *Doc) Value(p string) ([]byte, bool) {
	sp, ok := d.span(p)
	if !ok {
		return nil, false
	}
	return d.data[sp.start:sp.end], true
}

// Has reports whether there is a value at p.
func (d *Doc) Has(p string) bool { _, ok := d.span(p); return ok }

func (d *Doc) span(p string) (span, bool) {
	if sp, ok := d.spans[p]; ok {
		return sp, true
	}
	if p == "" {
		i := skipWS(d.data, 0)
		e := skipValue(d.data, i, &d.work)
		if e < 0 {
			return span{}, false
		}
		return d.remember(p, span{i, e}), true
	}
	parent, key := parentOf(p)
	if _, err := parsePointer(p); err != nil {
		return span{}, false
	}
	ms, c, ok := d.members(parent)
	if !ok {
		return span{}, false
	}
	j := find(d.data, c, ms, key)
	if j < 0 {
		return span{}, false
	}
	return d.remember(p, ms[j].value), true
}

func (d *Doc) remember(p string, sp span) span {
	if d.spans == nil {
		d.spans = make(map[string]span)
	}
	d.spans[p] = sp
	return sp
}

// members lists the container at p and says which it is, '{' or '['.
func (d *Doc) members(p string) ([]member, byte, bool) {
	sp, ok := d.span(p)
	if !ok || (d.data[sp.start] != '{' && d.data[sp.start] != '[') {
		return nil, 0, false
	}
	if ms, ok := d.lists[p]; ok {
		return ms, d.data[sp.start], true
	}
	if d.budget > 0 && d.work > d.budget {
		return nil, 0, false
	}
	ms, err := elements(d.data, sp, &d.work)
	if err != nil {
		return nil, 0, false
	}
	if d.lists == nil {
		d.lists = make(map[string][]member)
	}
	d.lists[p] = ms
	return ms, d.data[sp.start], true
}

// duplicated reports whether pointer p, read in the document, passes through an object that
// holds the key of its next step twice. A step the document does not hold ends the walk: an
// earlier operation of the patch makes it.
func (d *Doc) duplicated(p string) bool {
	toks, err := parsePointer(p)
	if err != nil {
		return false
	}
	at := ""
	for _, t := range toks {
		ms, c, ok := d.members(at)
		if !ok {
			return false
		}
		if c == '{' {
			n := 0
			for _, m := range ms {
				if k, ok := keyText(d.data[m.key.start:m.key.end]); ok && k == t {
					n++
				}
			}
			if n > 1 {
				return true
			}
		}
		at = child(at, t)
	}
	return false
}

// Keys returns the keys of the object at p, in order (a key given twice, each time).
func (d *Doc) Keys(p string) ([]string, bool) {
	ms, c, ok := d.members(p)
	if !ok || c != '{' {
		return nil, false
	}
	keys := make([]string, 0, len(ms))
	for _, m := range ms {
		k, ok := keyText(d.data[m.key.start:m.key.end])
		if !ok {
			return nil, false
		}
		keys = append(keys, k)
	}
	return keys, true
}

// Len returns the number of elements of the array at p.
func (d *Doc) Len(p string) (int, bool) {
	ms, c, ok := d.members(p)
	if !ok || c != '[' {
		return 0, false
	}
	return len(ms), true
}

// String returns the text of the string at p.
func (d *Doc) String(p string) (string, bool) {
	v, ok := d.Value(p)
	if !ok || len(v) == 0 || v[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// Kind is the first byte of the value at p: '{', '[', '"', 'n' (null), 't', 'f', or '0' for a
// number; 0 when there is none.
func (d *Doc) Kind(p string) byte {
	v, ok := d.Value(p)
	if !ok || len(v) == 0 {
		return 0
	}
	switch c := v[0]; {
	case c == '-' || (c >= '0' && c <= '9'):
		return '0'
	default:
		return c
	}
}

// child is the pointer of member key of p.
func child(p, key string) string { return p + "/" + escapeToken(key) }

// index is the pointer of element i of p.
func index(p string, i int) string { return p + "/" + strconv.Itoa(i) }

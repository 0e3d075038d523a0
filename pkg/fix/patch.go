package fix

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// Op is one RFC 6902 operation: "add", "remove", "replace" or "move" (the ones fixes use).
// Value is the JSON text of the value, as the input writes it where it was copied from; nil
// for an operation without one.
type Op struct {
	Op    string
	From  string
	Path  string
	Value []byte
}

// appendJSON appends the operation as a compact JSON object.
func (o Op) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"op":`...)
	dst = appendString(dst, o.Op)
	if o.Op == "move" || o.Op == "copy" {
		dst = append(dst, `,"from":`...)
		dst = appendString(dst, o.From)
	}
	dst = append(dst, `,"path":`...)
	dst = appendString(dst, o.Path)
	if o.Value != nil {
		dst = append(dst, `,"value":`...)
		var b bytes.Buffer
		if json.Compact(&b, o.Value) != nil {
			dst = append(dst, "null"...) // never: values are the input's, or built from it
		} else {
			dst = append(dst, b.Bytes()...)
		}
	}
	return append(dst, '}')
}

func appendString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return append(dst, b...)
}

// Apply applies ops to the JSON document data in order, as RFC 6902 says, and returns the new
// document. It edits the bytes: what no operation touches keeps its bytes, whitespace
// included. A moved value keeps its bytes too; an added one is written as Value holds it.
func Apply(data []byte, ops []Op) ([]byte, error) {
	out := data
	for _, op := range ops {
		var err error
		out, err = applyOne(out, op)
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func applyOne(data []byte, op Op) ([]byte, error) {
	d := &Doc{data: data}
	switch op.Op {
	case "replace":
		if op.Value == nil {
			return nil, errors.New("replace " + strconv.Quote(op.Path) + " has no value")
		}
		sp, ok := d.span(op.Path)
		if !ok {
			return nil, errors.New("replace: no value at " + strconv.Quote(op.Path))
		}
		return splice(data, sp, op.Value), nil
	case "add":
		if op.Value == nil {
			return nil, errors.New("add " + strconv.Quote(op.Path) + " has no value")
		}
		return add(d, op.Path, op.Value)
	case "remove":
		return remove(d, op.Path)
	case "move":
		if op.From == op.Path {
			return data, nil
		}
		if len(op.Path) > len(op.From) && op.Path[:len(op.From)] == op.From && op.Path[len(op.From)] == '/' {
			return nil, errors.New("move: " + strconv.Quote(op.Path) + " is inside " + strconv.Quote(op.From))
		}
		v, ok := d.Value(op.From)
		if !ok {
			return nil, errors.New("move: no value at " + strconv.Quote(op.From))
		}
		v = append([]byte(nil), v...)
		fromParent, _ := parentOf(op.From)
		toParent, toKey := parentOf(op.Path)
		if fromParent == toParent && d.Kind(fromParent) == '{' && !d.Has(op.Path) {
			// A key renamed in its object: the key's token changes, nothing else moves.
			ms, _, _ := d.members(fromParent)
			_, fromKey := parentOf(op.From)
			j := find(data, '{', ms, fromKey)
			return splice(data, ms[j].key, appendString(nil, toKey)), nil
		}
		out, err := remove(d, op.From)
		if err != nil {
			return nil, err
		}
		return add(&Doc{data: out}, op.Path, v)
	}
	return nil, errors.New("unsupported operation " + strconv.Quote(op.Op))
}

func splice(data []byte, sp span, with []byte) []byte {
	out := make([]byte, 0, len(data)-(sp.end-sp.start)+len(with))
	out = append(out, data[:sp.start]...)
	out = append(out, with...)
	return append(out, data[sp.end:]...)
}

// add adds value at p: a member of an object (replacing one of that name), or an element of an
// array before index n ("-": at the end).
func add(d *Doc, p string, value []byte) ([]byte, error) {
	if p == "" {
		sp, ok := d.span("")
		if !ok {
			return nil, errors.New("add: the document is not JSON")
		}
		return splice(d.data, sp, value), nil
	}
	parent, key := parentOf(p)
	ms, c, ok := d.members(parent)
	if !ok {
		return nil, errors.New("add: no object or array at " + strconv.Quote(parent))
	}
	sp, _ := d.span(parent)
	data := d.data
	if c == '{' {
		if j := find(data, c, ms, key); j >= 0 {
			return splice(data, ms[j].value, value), nil
		}
		colon := ":"
		if len(ms) > 0 && ms[0].value.start > ms[0].key.end+1 && data[ms[0].value.start-1] == ' ' {
			colon = ": "
		}
		m := append(appendString(nil, key), colon...)
		return insert(data, sp, ms, len(ms), append(m, value...)), nil
	}
	n := len(ms)
	if key != "-" {
		var err error
		n, err = strconv.Atoi(key)
		if err != nil || n < 0 || n > len(ms) || (len(key) > 1 && key[0] == '0') {
			return nil, errors.New("add: no index " + strconv.Quote(key) + " in the array at " + strconv.Quote(parent))
		}
	}
	return insert(data, sp, ms, n, value), nil
}

// insert puts elem (a member's text or an element) before element n of the container at sp,
// separated as its elements are.
func insert(data []byte, sp span, ms []member, n int, elem []byte) []byte {
	if len(ms) == 0 {
		return splice(data, span{sp.start + 1, sp.start + 1}, elem)
	}
	// The separator: a comma and what follows it between the first two elements, or the
	// whitespace before the first, for a container written one element a line.
	sep := []byte(",")
	if len(ms) > 1 {
		between := data[ms[0].value.end:ms[1].key.start]
		sep = append([]byte(","), between[bytes.IndexByte(between, ',')+1:]...)
	} else if lead := data[sp.start+1 : ms[0].key.start]; bytes.IndexByte(lead, '\n') >= 0 {
		sep = append([]byte(","), lead...)
	}
	if n < len(ms) {
		at := ms[n].key.start
		ins := append(append([]byte(nil), elem...), sep...)
		return splice(data, span{at, at}, ins)
	}
	at := ms[len(ms)-1].value.end
	ins := append(sep, elem...)
	return splice(data, span{at, at}, ins)
}

// remove removes the value at p, with its key and one separator.
func remove(d *Doc, p string) ([]byte, error) {
	if p == "" {
		return nil, errors.New("remove: the whole document cannot be removed")
	}
	parent, key := parentOf(p)
	ms, c, ok := d.members(parent)
	if !ok {
		return nil, errors.New("remove: no object or array at " + strconv.Quote(parent))
	}
	j := find(d.data, c, ms, key)
	if j < 0 {
		return nil, errors.New("remove: no value at " + strconv.Quote(p))
	}
	sp, _ := d.span(parent)
	var cut span
	switch {
	case len(ms) == 1:
		cut = span{sp.start + 1, sp.end - 1}
	case j+1 < len(ms):
		cut = span{ms[j].key.start, ms[j+1].key.start}
	default:
		cut = span{ms[j-1].value.end, ms[j].value.end}
	}
	out := splice(d.data, cut, nil)
	if c == '{' {
		// A key given twice: the platform keeps the last, so removing it leaves the one before
		// in force. Remove those too, so that the key is gone as the patch says.
		d2 := &Doc{data: out}
		if d2.Has(p) {
			return remove(d2, p)
		}
	}
	return out, nil
}

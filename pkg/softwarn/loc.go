package softwarn

import (
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
)

// maxSteps is how many steps a Loc holds in place: the deepest place a warning is built at,
// messages[i].tool_calls[j].function.KEY, is six. A deeper Loc keeps the steps before its last
// ones in another (see Loc.outer).
const maxSteps = 6

// Loc is a place in the handler result: the keys and indexes that lead to it from the top
// level, held as they are. Its dotted path and its JSON Pointer are written out only when
// asked for (Path and Pointer build them, AppendPath and AppendPointer append them): building
// a Loc, and a warning at it, allocates nothing. A Loc is a value that nothing changes once it
// is built, safe to share between goroutines. The zero Loc is the top level.
type Loc struct {
	keys  [maxSteps]string // step k's key, when it is a key
	index [maxSteps]int    // step k's index, when it is an index
	n     uint8            // the steps held
	isIdx uint8            // bit k: step k is an index
	// outer holds the maxSteps steps before these, when there were more (a new one each time
	// a Loc that holds maxSteps steps gets another: no warning is built that deep).
	outer *Loc
}

// At returns the location of a top-level key.
func At(key string) Loc { return Loc{}.Key(key) }

// Key returns the location of member key inside the object at l. A key longer than
// MaxKeyShown bytes is cut, with "…", in the path and the pointer alike (which then points
// nowhere): a hostile key can be megabytes, and a warning would hold it twice, escaped.
func (l Loc) Key(key string) Loc {
	l = l.room()
	l.keys[l.n] = jsonscan.Cut(key, MaxKeyShown)
	l.n++
	return l
}

// Index returns the location of element i of the array at l.
func (l Loc) Index(i int) Loc {
	l = l.room()
	l.index[l.n] = i
	l.isIdx |= 1 << l.n
	l.n++
	return l
}

// room returns l with room for one more step.
func (l Loc) room() Loc {
	if l.n < maxSteps {
		return l
	}
	outer := l
	return Loc{outer: &outer}
}

// Warning builds the warning at l that says p.
func (l Loc) Warning(code Code, action Action, p Parts) Warning {
	return Warning{Code: code, Action: action, Parts: p, at: l}
}

// Path is the dotted path of l: messages[3].tool_calls[0], metadata["a.b"]. A key that is not
// an identifier is quoted as QuoteKey quotes it, in brackets. It is a new string on each call.
func (l Loc) Path() string { return string(l.appendPath(make([]byte, 0, l.PathLen()), false)) }

// Pointer is the RFC 6901 JSON Pointer of l: /messages/3/tool_calls/0, /metadata/a.b. It is a
// new string on each call.
func (l Loc) Pointer() string {
	return string(l.appendPointer(make([]byte, 0, l.PointerLen()), false))
}

// AppendPath appends Path.
func (l Loc) AppendPath(dst []byte) []byte { return l.appendPath(dst, false) }

// AppendPointer appends Pointer.
func (l Loc) AppendPointer(dst []byte) []byte { return l.appendPointer(dst, false) }

// AppendQuotedPath appends Path as a JSON string.
func (l Loc) AppendQuotedPath(dst []byte) []byte {
	return append(l.appendPath(append(dst, '"'), true), '"')
}

// AppendQuotedPointer appends Pointer as a JSON string.
func (l Loc) AppendQuotedPointer(dst []byte) []byte {
	return append(l.appendPointer(append(dst, '"'), true), '"')
}

// PathLen is the length of Path in bytes.
func (l Loc) PathLen() int {
	n := 0
	if l.outer != nil {
		n = l.outer.PathLen()
	}
	for k := range int(l.n) {
		switch key := l.keys[k]; {
		case l.isIdx&(1<<k) != 0:
			n += len("[]") + digits(l.index[k])
		case isIdent(key):
			if k > 0 || l.outer != nil {
				n++ // the dot
			}
			n += len(key)
		default:
			var buf [2*MaxKeyShown + 8]byte // most keys' quoted forms fit: no allocation
			n += len("[]") + len(appendQuotedKey(buf[:0], key))
		}
	}
	return n
}

// PointerLen is the length of Pointer in bytes.
func (l Loc) PointerLen() int {
	n := 0
	if l.outer != nil {
		n = l.outer.PointerLen()
	}
	for k := range int(l.n) {
		if l.isIdx&(1<<k) != 0 {
			n += 1 + digits(l.index[k])
			continue
		}
		key := l.keys[k]
		n += 1 + len(key) + strings.Count(key, "~") + strings.Count(key, "/")
	}
	return n
}

// appendPath appends the dotted path, escaped for a JSON string's content when quoted.
func (l *Loc) appendPath(dst []byte, quoted bool) []byte {
	if l.outer != nil {
		dst = l.outer.appendPath(dst, quoted)
	}
	for k := range int(l.n) {
		switch key := l.keys[k]; {
		case l.isIdx&(1<<k) != 0:
			dst = append(strconv.AppendInt(append(dst, '['), int64(l.index[k]), 10), ']')
		case isIdent(key): // nothing in it to escape
			if k > 0 || l.outer != nil {
				dst = append(dst, '.')
			}
			dst = append(dst, key...)
		default:
			start := len(dst) + 1
			dst = appendQuotedKey(append(dst, '['), key)
			if quoted {
				dst = escapeQuotedKey(dst, start)
			}
			dst = append(dst, ']')
		}
	}
	return dst
}

// appendPointer appends the JSON Pointer, escaped for a JSON string's content when quoted.
func (l *Loc) appendPointer(dst []byte, quoted bool) []byte {
	if l.outer != nil {
		dst = l.outer.appendPointer(dst, quoted)
	}
	for k := range int(l.n) {
		dst = append(dst, '/')
		if l.isIdx&(1<<k) != 0 {
			dst = strconv.AppendInt(dst, int64(l.index[k]), 10)
			continue
		}
		// RFC 6901: "~" is written "~0" and "/" "~1". The pieces between them are whole
		// characters, escaped apart as a JSON string may be.
		key := l.keys[k]
		for {
			i := strings.IndexAny(key, "~/")
			if i < 0 {
				break
			}
			dst = appendText(dst, key[:i], quoted)
			if key[i] == '~' {
				dst = append(dst, "~0"...)
			} else {
				dst = append(dst, "~1"...)
			}
			key = key[i+1:]
		}
		dst = appendText(dst, key, quoted)
	}
	return dst
}

// topLevel is the top-level key that Path starts with: "" when it starts with an index or a
// quoted key.
func (l Loc) topLevel() string {
	for l.outer != nil {
		l = *l.outer
	}
	if l.n == 0 || l.isIdx&1 != 0 || !isIdent(l.keys[0]) {
		return ""
	}
	return l.keys[0]
}

func appendText(dst []byte, s string, quoted bool) []byte {
	if quoted {
		return jsonscan.AppendStringContent(dst, s)
	}
	return append(dst, s...)
}

// escapeQuotedKey escapes dst[start:], a key as appendQuotedKey quotes it, for a JSON string's
// content, as jsonscan.AppendStringContent would: the quoted key holds no control character, no
// invalid UTF-8 and no U+2028 or U+2029 (strconv.Quote and jsonscan.AppendString escape them),
// so that only its quotes and backslashes need a backslash. It moves the bytes in place.
func escapeQuotedKey(dst []byte, start int) []byte {
	extra := 0
	for _, c := range dst[start:] {
		if c == '"' || c == '\\' {
			extra++
		}
	}
	end := len(dst)
	dst = append(dst, make([]byte, extra)...)
	for i, j := end-1, len(dst)-1; i >= start; i-- {
		c := dst[i]
		dst[j] = c
		j--
		if c == '"' || c == '\\' {
			dst[j] = '\\'
			j--
		}
	}
	return dst
}

// digits is the length of i in decimal.
func digits(i int) int {
	n := 1
	if i < 0 {
		n++
	}
	for i >= 10 || i <= -10 {
		i /= 10
		n++
	}
	return n
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

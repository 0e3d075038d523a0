package jsonscan

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// refMember is the reference model's member: name, value, whether reported as duplicated.
type refMember struct {
	name  string
	value Span
	dup   bool
}

// escapedKey writes name as a JSON key token, escaping some characters at random.
func escapedKey(rng *rand.Rand, name string) (string, bool) {
	var b strings.Builder
	b.WriteByte('"')
	esc := false
	for _, c := range []byte(name) {
		if rng.IntN(3) == 0 {
			b.WriteString(`\u00` + strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16))
			esc = true
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String(), esc
}

// TestMembersDifferential runs random Reset/Begin/Drop/Put sequences (keys spelled with random
// \u00XX escapes, empty keys, names that share Put's name bit, objects past 16 members) against
// a map-free reference: Put's answer, every member's name and value, and Find must agree.
// (Written by a reviewer, helper-19.)
func TestMembersDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"", "a", "b", "ab", "ac", "ba", "role", "rolf", "content", "contenu", "tool_call_id", "tool_calls",
		"x", "y", "z", "aa", "ab", "abc", "abd", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "q", "r", "s", "t", "u", "v", "w"}
	big, dups := 0, 0
	defer func() { t.Logf("objects over 16: %d, duplicates: %d", big, dups) }()
	for iter := 0; iter < 3000; iter++ {
		var m Members
		var data []byte
		var ref []refMember // the current object
		var kept int        // members of earlier objects still in List
		m.Reset()
		check := func(step string) {
			if got := len(m.List) - m.start; got != len(ref) {
				t.Fatalf("iter %d %s: %d members, want %d", iter, step, got, len(ref))
			}
			for j, r := range ref {
				i := m.start + j
				if string(m.Name(data, i)) != r.name || m.List[i].Value() != r.value {
					t.Fatalf("iter %d %s: member %d is %q %v, want %q %v", iter, step, j, m.Name(data, i), m.List[i].Value(), r.name, r.value)
				}
			}
		}
		ops := 1 + rng.IntN(80)
		pool := alphabet[:1+rng.IntN(len(alphabet))]
		for op := 0; op < ops; op++ {
			switch r := rng.IntN(100); {
			case r < 3:
				m.Reset()
				ref, kept = nil, 0
			case r < 8: // keep this object (a rebuilt message), begin the next
				kept += len(ref)
				m.Begin()
				ref = nil
			case r < 10:
				m.Drop()
				ref = nil
				m.Begin()
			default:
				name := pool[rng.IntN(len(pool))]
				tok, esc := escapedKey(rng, name)
				start := len(data)
				data = append(data, tok...)
				key := Span{start, len(data)}
				val := Span{len(data), len(data) + 1}
				data = append(data, ' ')
				var flags StrFlags
				if esc {
					flags = Escaped
				}
				got := m.Put(data, key, flags, val, false)
				want := -1
				found := false
				for j := range ref {
					if ref[j].name == name {
						found = true
						ref[j].value = val
						if !ref[j].dup {
							ref[j].dup = true
							want = m.start + j
						}
						break
					}
				}
				if !found {
					ref = append(ref, refMember{name: name, value: val})
				}
				if got >= 0 {
					dups++
				}
				if len(ref) == smallObject+1 && !found {
					big++
				}
				if got != want {
					t.Fatalf("iter %d op %d: Put(%s) = %d, want %d (object of %d)", iter, op, tok, got, want, len(ref))
				}
			}
			_ = kept
			check("op " + strconv.Itoa(op))
			// Find agrees with the reference for every name of the pool.
			for _, name := range pool {
				i := m.Find(data, name)
				j := -1
				for k := range ref {
					if ref[k].name == name {
						j = m.start + k
					}
				}
				if i != j {
					t.Fatalf("iter %d: Find(%q) = %d, want %d", iter, name, i, j)
				}
			}
		}
	}
}

// TestRewind: a walk rewound to a Mark reads what follows it again exactly as the first time:
// the same keys, the same whitespace count, and values compacted the same from the runs it
// records (the runs past the Mark are forgotten, not recorded twice).
func TestRewind(t *testing.T) {
	doc := []byte(`[{"a": 1, "b" : [ 2, {"c":  3} ]}, {"d": "x y"}]`)
	var s Scanner
	s.ResetRecordingWS(doc, DefaultMaxDepth)
	require.True(t, s.ArrayStart())
	mark := s.Mark()
	walk := func() []string {
		var out []string
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			ws := s.WS()
			v := s.SkipValue()
			out = append(out, string(s.KeyName()), string(s.AppendValue(nil, v, s.WS() != ws)))
		}
		return append(out, fmt.Sprint(s.Pos(), s.WS(), len(s.runs)))
	}
	first := walk()
	s.Rewind(mark)
	require.Equal(t, first, walk())
	require.True(t, s.ArrayNext())
	require.Equal(t, []string{"d", `"x y"`, fmt.Sprint(len(doc)-1, 10, 10)}, walk())
	require.False(t, s.ArrayNext())
	require.True(t, s.AtEnd())
}

// TestStartAtDepthLimit: ObjectStart and ArrayStart step in at once where a key or a value
// follows the opening byte, and open is called for anything else (whitespace, an empty
// container, a wrong byte); either way a walk of n levels passes a limit of n and fails one of
// n-1 as too deep, and an error stops the walk.
func TestStartAtDepthLimit(t *testing.T) {
	for _, sep := range []string{"", " ", "\n"} {
		for n := 1; n <= 4; n++ {
			// n levels, alternating objects and arrays: {"k":[{"k":[... 1 ...]}]}
			var open, closing string
			for l := range n {
				if l%2 == 0 {
					open += "{" + sep + `"k":`
					closing = sep + "}" + closing
				} else {
					open += "[" + sep
					closing = sep + "]" + closing
				}
			}
			doc := []byte(open + "1" + closing)
			for _, limit := range []int{n, n - 1} {
				var s Scanner
				s.Reset(doc, limit)
				var walk func(level int) bool
				walk = func(level int) bool {
					if level == n {
						s.SkipValue()
						return s.Err() == nil
					}
					if level%2 == 0 {
						if !s.ObjectStart() {
							return false
						}
						if !walk(level + 1) {
							return false
						}
						return !s.ObjectNext() && s.Err() == nil
					}
					if !s.ArrayStart() {
						return false
					}
					if !walk(level + 1) {
						return false
					}
					return !s.ArrayNext() && s.Err() == nil
				}
				ok := walk(0) && s.AtEnd()
				if limit == n {
					require.True(t, ok, "%q, limit %d: %v", doc, limit, s.Err())
				} else {
					require.False(t, ok, "%q, limit %d", doc, limit)
					require.NotNil(t, s.Err(), "%q, limit %d", doc, limit)
					require.True(t, s.Err().TooDeep, "%q, limit %d: %v", doc, limit, s.Err())
				}
			}
		}
	}
	for _, doc := range []string{`{}`, `[]`, `{ }`, `[ ]`, `{"a":1}`, `[1]`, `{1}`, `[}`, `{`, `[`, `{"`, `["`} {
		var s Scanner
		s.Reset([]byte(doc), DefaultMaxDepth)
		if doc[0] == '{' {
			for more := s.ObjectStart(); more; more = s.ObjectNext() {
				s.SkipValue()
			}
		} else {
			for more := s.ArrayStart(); more; more = s.ArrayNext() {
				s.SkipValue()
			}
		}
		ok := s.AtEnd()
		require.Equal(t, json.Valid([]byte(doc)), ok, "%q: %v", doc, s.Err())
	}
}

// TestValueKindIsPeek: just after ObjectStart or ObjectNext reports a member, ValueKind says
// what Peek says, and Peek moves nothing (the member's scan left no whitespace before the
// value): after keys of every scan, whitespace of every kind or none, a value of every kind,
// a control character, the end of input.
func TestValueKindIsPeek(t *testing.T) {
	keys := []string{`"a"`, `"` + strings.Repeat("k", 20) + `"`, `"` + strings.Repeat("k", 40) + `"`, `"\u0061"`, `"é"`}
	seps := []string{":", ": ", ":  ", ":\n\t", " :", " : \r\n ", ":\x01"}
	values := []string{`1`, `-2`, `"s"`, `{"x":1}`, `[1]`, `true`, `false`, `null`, `x`, ``}
	for _, key := range keys {
		for _, sep := range seps {
			for _, v := range values {
				for _, pad := range []string{"", strings.Repeat(" ", 40)} {
					doc := []byte(`{` + key + sep + v + `,` + key + sep + v + `}` + pad)
					var s Scanner
					s.Reset(doc, DefaultMaxDepth)
					for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
						k, pos := s.ValueKind(), s.Pos()
						require.Equal(t, s.Peek(), k, "%q at %d", doc, pos)
						require.Equal(t, pos, s.Pos(), "%q: Peek moved", doc)
						s.SkipValue()
					}
				}
			}
		}
	}
}

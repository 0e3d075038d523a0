package softwarn

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/jsonscan"
)

// refLoc builds the path and the pointer as strings, a step at a time, as Loc did before it
// held its steps: what a Loc writes must be the same bytes.
type refLoc struct{ path, pointer string }

func (l refLoc) key(key string) refLoc {
	key = jsonscan.Cut(key, MaxKeyShown)
	seg := key
	if !isIdent(key) {
		seg = "[" + QuoteKey(key) + "]"
	} else if l.path != "" {
		seg = "." + key
	}
	return refLoc{l.path + seg, l.pointer + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(key)}
}

func (l refLoc) index(i int) refLoc {
	s := strconv.Itoa(i)
	return refLoc{l.path + "[" + s + "]", l.pointer + "/" + s}
}

// step is a key, or an index when key is "#" and i its value.
type step struct {
	key string
	i   int
}

func build(steps []step) (Loc, refLoc) {
	var l Loc
	var ref refLoc
	for _, s := range steps {
		if s.key == "#" {
			l, ref = l.Index(s.i), ref.index(s.i)
		} else {
			l, ref = l.Key(s.key), ref.key(s.key)
		}
	}
	return l, ref
}

// checkLoc holds every way a Loc is written to the reference: Path and Pointer, their lengths,
// appended raw and as JSON strings, and in a warning's soft_warnings line.
func checkLoc(t *testing.T, l Loc, ref refLoc) {
	t.Helper()
	assert.Equal(t, ref.path, l.Path(), "path")
	assert.Equal(t, ref.pointer, l.Pointer(), "pointer")
	assert.Equal(t, len(ref.path), l.PathLen(), "path length")
	assert.Equal(t, len(ref.pointer), l.PointerLen(), "pointer length")
	assert.Equal(t, "x"+ref.path, string(l.AppendPath([]byte("x"))))
	assert.Equal(t, "x"+ref.pointer, string(l.AppendPointer([]byte("x"))))
	assert.Equal(t, "x"+string(jsonscan.AppendString(nil, ref.path)), string(l.AppendQuotedPath([]byte("x"))), "quoted path")
	assert.Equal(t, "x"+string(jsonscan.AppendString(nil, ref.pointer)), string(l.AppendQuotedPointer([]byte("x"))), "quoted pointer")
	w := l.Warning(DuplicateKey, Dropped, Parts{Problem: `duplicate key "\a"`, Done: LastValueKept})
	text := ref.path + `: duplicate key "\a"; ` + LastValueKept
	assert.Equal(t, text, w.String())
	assert.Equal(t, len(text), w.textLen())
	assert.Equal(t, string(jsonscan.AppendString(nil, text)), string(w.AppendQuoted(nil)))
	assert.Equal(t, ref.path, w.Path())
	assert.Equal(t, ref.pointer, w.Pointer())
	assert.Equal(t, l, w.Loc())
}

// TestLocWrites: every kind of step, alone, first and nested: identifiers, keys the path
// quotes (separators, quotes and backslashes, control characters, U+2028, a lone surrogate,
// invalid UTF-8, non-ASCII, the empty key, a leading digit), keys the pointer escapes (~ and
// /, as ~0 and ~1), keys cut at MaxKeyShown, indexes, and Locs deeper than a Loc holds.
func TestLocWrites(t *testing.T) {
	long := strings.Repeat("é", MaxKeyShown)
	keys := []string{
		"messages", "tool_calls", "_x9", "a.b", "a/b", "a~b", "~/~", "~0", "~1", `a"b`, `a\b`, "a b", "a[0]",
		"", "1x", "x1", "a\x01", "a\n\t", "\x7f", "\u2028\u2029", "\xed\xa0\x80x", "\xff", "é", "日本",
		"\U0001F600", "\u00ad", "a<b>&", long, strings.Repeat(`"`, 3*MaxKeyShown), strings.Repeat(`\`, MaxKeyShown+1),
		strings.Repeat("k", MaxKeyShown), strings.Repeat("k", MaxKeyShown+1), strings.Repeat("/", MaxKeyShown),
	}
	indexes := []int{0, 3, 9, 10, 99, 100, 12345, math.MaxInt, math.MinInt, -1}
	for _, k := range keys {
		for _, prefix := range [][]step{nil, {{key: "metadata"}}, {{key: "messages"}, {key: "#", i: 3}}, {{key: "#", i: 7}}} {
			steps := append(append([]step(nil), prefix...), step{key: k})
			l, ref := build(steps)
			t.Run(ref.path, func(t *testing.T) { checkLoc(t, l, ref) })
			l, ref = build(append(steps, step{key: "#", i: 2}, step{key: "name"}))
			t.Run(ref.path, func(t *testing.T) { checkLoc(t, l, ref) })
		}
	}
	for _, i := range indexes {
		l, ref := build([]step{{key: "messages"}, {key: "#", i: i}, {key: "tool_calls"}, {key: "#", i: i}})
		t.Run(ref.path, func(t *testing.T) { checkLoc(t, l, ref) })
	}
	var deep []step
	for i := range 3*maxSteps + 1 {
		if i%2 == 0 {
			deep = append(deep, step{key: keys[i%len(keys)]})
		} else {
			deep = append(deep, step{key: "#", i: i})
		}
		l, ref := build(deep)
		t.Run("deep "+strconv.Itoa(i), func(t *testing.T) { checkLoc(t, l, ref) })
	}
	checkLoc(t, Loc{}, refLoc{})
}

// TestLocSteps: a Loc extended twice from the same one keeps the two apart (a Loc is a value),
// and the same steps make equal Locs, however deep.
func TestLocSteps(t *testing.T) {
	m := At("messages").Index(1)
	a, b := m.Key("role"), m.Key("content")
	assert.Equal(t, "messages[1].role", a.Path())
	assert.Equal(t, "messages[1].content", b.Path())
	assert.Equal(t, "messages[1]", m.Path())
	deep := func() Loc {
		l := At("a")
		for i := range 2 * maxSteps {
			l = l.Index(i)
		}
		return l
	}
	assert.Equal(t, deep(), deep())
	assert.Equal(t, "a[0][1][2][3][4][5][6][7][8][9][10][11]", deep().Path())
	assert.Equal(t, "messages", At("messages").topLevel())
	assert.Equal(t, "metadata", At("metadata").Key("a.b").topLevel())
	assert.Equal(t, "", At("a.b").topLevel(), "a quoted key starts the path with a bracket")
	assert.Equal(t, "", Loc{}.Index(0).topLevel())
	assert.Equal(t, "", Loc{}.topLevel())
	assert.Equal(t, "a", deep().topLevel())
}

// TestLocNoAllocs: a Loc and a warning at it are built, and written, without allocating,
// but for keys that need quoting in a path, which allocate nothing either when appended raw.
func TestLocNoAllocs(t *testing.T) {
	dst := make([]byte, 0, 1024)
	i := 3
	allocs := testing.AllocsPerRun(100, func() {
		w := At("messages").Index(i).Key("tool_calls").Index(i).Key("function").Key("a/b~c").
			Warning(ToolCallInvalid, Dropped, Parts{Found: "x"})
		dst = w.AppendQuoted(dst[:0])
		at := w.Loc()
		dst = at.AppendQuotedPointer(at.AppendQuotedPath(dst))
		_ = at.PathLen() + at.PointerLen()
		dst = At("metadata").Key(`a."b"`).AppendPath(dst)
	})
	assert.Zero(t, allocs)
}

// TestWarningsReadConcurrently: nothing in a Warning or a Loc changes when it is read, so that
// the warnings of one Result may be read from several goroutines at once (this runs under
// -race in scripts/test.sh).
func TestWarningsReadConcurrently(t *testing.T) {
	var c Collector
	for i := range 50 {
		c.Add(At("messages").Index(i).Key("a~/\"b").Warning(MessageNotObject, Dropped, Parts{Found: "x"}))
	}
	ws := c.Warnings()
	var wg sync.WaitGroup
	got := make([][]string, 4)
	for g := range got {
		wg.Go(func() {
			for _, w := range ws {
				got[g] = append(got[g], w.Path()+" "+w.Pointer()+" "+w.String()+string(w.AppendQuoted(nil)))
			}
		})
	}
	wg.Wait()
	for _, g := range got[1:] {
		require.Equal(t, got[0], g)
	}
	assert.Equal(t, `messages[49]["a~/\"b"] /messages/49/a~0~1"b messages[49]["a~/\"b"]: found x"messages[49][\"a~/\\\"b\"]: found x"`, got[0][49])
}

// FuzzLoc holds a Loc of fuzzed keys and indexes to the reference, written every way.
func FuzzLoc(f *testing.F) {
	f.Add("messages", 3, "a.b/c~d", 0, uint8(0b0101))
	f.Add("", -1, "\xed\xa0\x80\"\\\x01\u2028", math.MaxInt, uint8(0b1111_1010))
	f.Fuzz(func(t *testing.T, k1 string, i1 int, k2 string, i2 int, shape uint8) {
		var steps []step
		for b := range 8 { // bit b: step b is an index; the length from the high bits
			if b > int(shape>>5)+3 {
				break
			}
			switch {
			case shape&(1<<b) != 0 && b%2 == 0:
				steps = append(steps, step{key: "#", i: i1})
			case shape&(1<<b) != 0:
				steps = append(steps, step{key: "#", i: i2})
			case b%2 == 0:
				steps = append(steps, step{key: k1})
			default:
				steps = append(steps, step{key: k2})
			}
		}
		l, ref := build(steps)
		checkLoc(t, l, ref)
	})
}

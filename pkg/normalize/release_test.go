package normalize_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// The panic of a Result's methods after Release.
const usedAfterRelease = "normalize: Result used after Release"

// Release on the nil Result of a rejection does nothing, so the error path can release too.
func TestReleaseNilIsNoOp(t *testing.T) {
	res, err := normalize.New().Normalize([]byte(`{"final_response":""}`))
	require.Error(t, err)
	require.Nil(t, res)
	assert.NotPanics(t, res.Release)
	var none *normalize.Result
	assert.NotPanics(t, none.Release)
}

// A second Release does nothing: a Result released twice was in the pool twice, and two later
// Normalize calls got the same *Result, the first showing the second's record.
func TestReleaseTwiceIsNoOp(t *testing.T) {
	n := normalize.New()
	inputs := []string{`"first"`, `"second"`}
	want := make([]string, len(inputs))
	for i, in := range inputs {
		res, err := normalize.Normalize([]byte(in))
		require.NoError(t, err)
		want[i] = string(res.AppendJSON(nil))
	}
	for round := range 50 {
		old, err := n.Normalize([]byte(`"old"`))
		require.NoError(t, err)
		old.Release()
		old.Release()
		a, err := n.Normalize([]byte(inputs[0]))
		require.NoError(t, err)
		b, err := n.Normalize([]byte(inputs[1]))
		require.NoError(t, err)
		require.NotSame(t, a, b, "round %d: two live Results are one", round)
		require.Equal(t, want[0], string(a.AppendJSON(nil)))
		require.Equal(t, want[1], string(b.AppendJSON(nil)))
		a.Release()
		b.Release()
	}
}

// After Release a Result's methods panic instead of writing a wrong record (AppendJSON wrote
// {"final_response":,...}); a Result too big for the pool as well.
func TestUseAfterReleasePanics(t *testing.T) {
	methods := map[string]func(*normalize.Result){
		"AppendJSON":        func(r *normalize.Result) { r.AppendJSON(nil) },
		"MarshalJSON":       func(r *normalize.Result) { _, _ = r.MarshalJSON() },
		"SizeHint":          func(r *normalize.Result) { r.SizeHint() },
		"FinalResponse":     func(r *normalize.Result) { _ = r.FinalResponse() },
		"Warnings":          func(r *normalize.Result) { r.Warnings() },
		"WarningsNotListed": func(r *normalize.Result) { r.WarningsNotListed() },
		"SoftWarnings":      func(r *normalize.Result) { r.SoftWarnings() },
		"Notes":             func(r *normalize.Result) { r.Notes() },
		"RichMode":          func(r *normalize.Result) { r.RichMode() },
		"Messages":          func(r *normalize.Result) { r.Messages() },
		"NumMessages":       func(r *normalize.Result) { r.NumMessages() },
		"Metadata":          func(r *normalize.Result) { r.Metadata() },
		"Truncated":         func(r *normalize.Result) { r.Truncated() },
	}
	huge := `{"final_response":"x","messages":[` + strings.Repeat(`{"role":"user","content":"a","content":"b"},`, 40_000) + `1]}`
	for _, in := range []struct{ name, raw string }{{"pooled", `{"final_response":"ok","messages":[{"role":"user"}]}`}, {"too big to pool", huge}} {
		for name, call := range methods {
			t.Run(in.name+"/"+name, func(t *testing.T) {
				res, err := normalize.New().Normalize([]byte(in.raw))
				require.NoError(t, err)
				assert.NotPanics(t, func() { call(res) })
				res.Release()
				assert.PanicsWithValue(t, usedAfterRelease, func() { call(res) })
			})
		}
	}
}

// With Release, a result that needs no warning allocates nothing, as README's "The library"
// says: the released flag and its checks cost no allocation. (A warning's place allocates
// nothing either: TestReleasedWarningsAllocateNothing.)
func TestReleasedCleanResultAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocations: run without -race (scripts/test.sh runs this package again without it)")
	}
	n := normalize.New()
	for _, in := range benchInputs[:2] { // small and medium: no warnings
		dst := make([]byte, 0, 2*len(in.doc))
		allocs := leastAllocs(50, func() {
			res, err := n.Normalize(in.doc)
			if err != nil || len(res.Warnings()) > 0 {
				t.Fatalf("%s: not a clean result: %v", in.name, err)
			}
			dst = res.AppendJSON(dst[:0])
			res.Release()
		})
		assert.Zero(t, allocs, in.name)
	}
}

// TestReleasedWarningsAllocateNothing: with Release, warnings whose texts are fixed (those of
// the dirty benchmark input but the one that quotes a number, and two more) allocate nothing:
// a warning's place is written into the record from its keys and indexes, never built as a
// string. A warning that quotes the input (a number, a key) allocates that text.
func TestReleasedWarningsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocations: run without -race (scripts/test.sh runs this package again without it)")
	}
	in := []byte(`{"final_response":"ok","messages":[{"role":"user","content":"hi"},` +
		`{"role":"developer","content":"be brief"},{"role":"user","content":{"type":"text","text":"bare"}},` +
		`{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},` +
		`{"role":"assistant","tool_calls":[{"id":"c","arguments":"{}"}]},"just a string",` +
		`{"role":"assistant","tool_calls":{"id":"c"}},{"role":"user","thinking":5}]}`)
	n := normalize.New()
	res, err := n.Normalize(in)
	require.NoError(t, err)
	want := string(res.AppendJSON(nil))
	require.Len(t, res.Warnings(), 7, want)
	res.Release()
	dst := make([]byte, 0, 2*len(want))
	allocs := leastAllocs(50, func() {
		res, err := n.Normalize(in)
		if err != nil || len(res.Warnings()) != 7 {
			t.Fatalf("not the result with seven warnings: %v", err)
		}
		dst = res.AppendJSON(dst[:0])
		res.Release()
	})
	assert.Zero(t, allocs)
	assert.Equal(t, want, string(dst))
}

package codedoc

import (
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/fix"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// TestEveryCodeHasOneEntry: the reference has one entry per code, in the order softwarn
// declares them, each with what triggers it and an input.
func TestEveryCodeHasOneEntry(t *testing.T) {
	var got []softwarn.Code
	for _, e := range Entries {
		got = append(got, e.Code)
		assert.NotEmpty(t, e.Trigger, e.Code)
		assert.NotEmpty(t, e.Input, e.Code)
	}
	require.Equal(t, append(append(softwarn.WarningCodes(), softwarn.NoteCodes()...), softwarn.AdviceCodes()...), got)
}

// TestExamples: each example gets its code, a warning's as a soft warning and a note's as a
// note, and a fix, the message's own or, where it names none, the entry's.
func TestExamples(t *testing.T) {
	warnings := map[softwarn.Code]bool{}
	for _, c := range softwarn.WarningCodes() {
		warnings[c] = true
	}
	for i := range Entries {
		e := &Entries[i]
		t.Run(string(e.Code), func(t *testing.T) {
			x, err := e.Run()
			require.NoError(t, err)
			want := "note"
			switch {
			case warnings[e.Code]:
				want = "warning"
			case slices.Contains(softwarn.AdviceCodes(), e.Code):
				want = "advice"
			}
			assert.Equal(t, want, x.Severity)
		})
	}
}

// TestDocIsCurrent: docs/codes.md is what Markdown writes today.
func TestDocIsCurrent(t *testing.T) {
	want, err := Markdown()
	require.NoError(t, err)
	got, err := os.ReadFile("../../docs/codes.md")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "docs/codes.md is stale: run go generate ./internal/codedoc")
}

// TestFixables: the reference says when each code that can have a fix has one, and only those.
func TestFixables(t *testing.T) {
	for _, c := range append(softwarn.WarningCodes(), softwarn.NoteCodes()...) {
		_, said := fixables[c]
		if said != fix.Has(c) {
			t.Errorf("%s: fix.Has is %v, but the reference's fixables entry is there: %v", c, fix.Has(c), said)
		}
	}
}

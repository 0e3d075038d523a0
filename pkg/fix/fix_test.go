package fix_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/fix"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// TestEveryCode: every code either can have a fix or says why it never has one.
func TestEveryCode(t *testing.T) {
	for _, c := range append(softwarn.WarningCodes(), softwarn.NoteCodes()...) {
		require.True(t, fix.Has(c) != (fix.WhyNone(c) != ""), "%s: a fix, or a reason for none, not both", c)
	}
}

// TestApply checks the byte edits against a JSON Patch library, on documents written in
// several ways.
func TestApply(t *testing.T) {
	docs := []string{
		`{"a":1,"b":[1,2,3],"c":{"d":"x"},"e":{}}`,
		"{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2,\n    3\n  ],\n  \"c\": {\n    \"d\": \"x\"\n  },\n  \"e\": {}\n}\n",
		` { "a" : 1 , "b" : [ 1 , 2 , 3 ] , "c" : { "d" : "x" } , "e" : { } } `,
	}
	ops := [][]fix.Op{
		{{Op: "replace", Path: "/a", Value: []byte(`"one"`)}},
		{{Op: "replace", Path: "", Value: []byte(`[1]`)}},
		{{Op: "remove", Path: "/a"}},
		{{Op: "remove", Path: "/e"}},
		{{Op: "remove", Path: "/b/0"}, {Op: "remove", Path: "/b/1"}},
		{{Op: "remove", Path: "/c/d"}},
		{{Op: "add", Path: "/e/f", Value: []byte(`true`)}},
		{{Op: "add", Path: "/c/g", Value: []byte(`{"h": null}`)}},
		{{Op: "add", Path: "/a", Value: []byte(`2`)}},
		{{Op: "add", Path: "/b/0", Value: []byte(`0`)}},
		{{Op: "add", Path: "/b/3", Value: []byte(`4`)}},
		{{Op: "add", Path: "/b/-", Value: []byte(`4`)}},
		{{Op: "move", From: "/a", Path: "/z"}},
		{{Op: "move", From: "/a", Path: "/c"}},
		{{Op: "move", From: "/c/d", Path: "/e/d"}},
		{{Op: "move", From: "/b/2", Path: "/b/0"}},
		{{Op: "move", From: "/a", Path: "/b/1"}},
		{{Op: "add", Path: "/we~1ird~0key", Value: []byte(`1`)}, {Op: "move", From: "/we~1ird~0key", Path: "/x"}},
	}
	for _, doc := range docs {
		for _, patch := range ops {
			ours, err := fix.Apply([]byte(doc), patch)
			require.NoError(t, err, "%s on %s", fix.Fix{Patch: patch}.PatchJSON(), doc)
			p, err := jsonpatch.DecodePatch(fix.Fix{Patch: patch}.PatchJSON())
			require.NoError(t, err)
			theirs, err := p.Apply([]byte(doc))
			require.NoError(t, err)
			require.True(t, reflect.DeepEqual(decode(t, theirs), decode(t, ours)), "%s on %q: the library makes %s, ours %s", fix.Fix{Patch: patch}.PatchJSON(), doc, theirs, ours)
		}
	}
}

// TestApplyKeepsFormatting: what no operation touches keeps its bytes.
func TestApplyKeepsFormatting(t *testing.T) {
	doc := "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ]\n}\n"
	out, err := fix.Apply([]byte(doc), []fix.Op{{Op: "add", Path: "/b/-", Value: []byte("3")}, {Op: "move", From: "/a", Path: "/A"}, {Op: "add", Path: "/c", Value: []byte(`"x"`)}})
	require.NoError(t, err)
	require.Equal(t, "{\n  \"A\": 1,\n  \"b\": [\n    1,\n    2,\n    3\n  ],\n  \"c\": \"x\"\n}\n", string(out))
}

// TestApplyErrors: an operation that does not apply is an error, not a guess.
func TestApplyErrors(t *testing.T) {
	for _, op := range []fix.Op{
		{Op: "remove", Path: "/nope"},
		{Op: "replace", Path: "/a/b", Value: []byte("1")},
		{Op: "add", Path: "/b/9", Value: []byte("1")},
		{Op: "move", From: "/b", Path: "/b/0"},
		{Op: "remove", Path: ""},
		{Op: "test", Path: "/a", Value: []byte("1")},
	} {
		_, err := fix.Apply([]byte(`{"a":1,"b":[1]}`), []fix.Op{op})
		require.Error(t, err, "%+v", op)
	}
}

// TestDocBudget: the locator stops reading past its budget rather than read a document once
// per lookup.
func TestDocBudget(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"metadata":{`)
	for i := range 2000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k`)
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(`":1`)
	}
	b.WriteString(`}}`)
	d := fix.NewDoc(b.Bytes())
	for range 100 {
		_, ok := d.Value("/metadata/ka")
		require.True(t, ok, "a container listed once is looked up from its list")
	}
}

func decode(t *testing.T, b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v), "%s", b)
	return v
}

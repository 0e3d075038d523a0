package softwarn

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/jsonscan"
)

func TestLoc(t *testing.T) {
	tests := []struct {
		name          string
		loc           Loc
		path, pointer string
	}{
		{"top", At("messages"), "messages", "/messages"},
		{"index", At("messages").Index(3), "messages[3]", "/messages/3"},
		{"deep", At("messages").Index(3).Key("tool_calls").Index(0), "messages[3].tool_calls[0]", "/messages/3/tool_calls/0"},
		{"key", At("metadata").Key("model"), "metadata.model", "/metadata/model"},
		{"odd key", At("metadata").Key("a.b/c~d"), `metadata["a.b/c~d"]`, "/metadata/a.b~1c~0d"},
		{"empty key", At("metadata").Key(""), `metadata[""]`, "/metadata/"},
		{"digit first", At("metadata").Key("1x"), `metadata["1x"]`, "/metadata/1x"},
		// A key sent as "\ud800" is unescaped to the three bytes that stand for the lone
		// surrogate: the path names it as sent; the pointer keeps the key, which the record's
		// writer sends back as \ud800, so that it resolves.
		{"lone surrogate key", At("metadata").Key("\xed\xa0\x80x"), `metadata["\ud800x"]`, "/metadata/\xed\xa0\x80x"},
		{"control character key", At("metadata").Key("a\x01"), `metadata["a\x01"]`, "/metadata/a\x01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.path, tt.loc.Path())
			assert.Equal(t, tt.pointer, tt.loc.Pointer())
			w := tt.loc.Warning(MessageNotObject, Dropped, Parts{Found: "a number"})
			assert.Equal(t, tt.path+": found a number", w.String())
		})
	}
}

func TestCollectorLimit(t *testing.T) {
	var c Collector
	c.SetLimit(2)
	for i := range 5 {
		c.Add(At("messages").Index(i).Warning(MessageNotObject, Dropped, Parts{Found: "x"}))
	}
	require.True(t, c.Full())
	c.Skip("metadata")
	c.Close()
	ws := c.Warnings()
	require.Len(t, ws, 3)
	assert.Equal(t, WarningsLimited, ws[2].Code)
	assert.Equal(t, "messages", ws[2].Path())
	assert.Contains(t, ws[2].Message(), "4 more warnings (the first about messages)")

	c.SetLimit(0)
	assert.Empty(t, c.Warnings())
	c.Add(At("metadata").Warning(MetadataNotObject, Dropped, Parts{Found: "x"}))
	c.Add(At("messages").Warning(MessagesNotArray, Dropped, Parts{Found: "y"}))
	c.Remove(0, 1)
	assert.Equal(t, []string{"messages: found y"}, Strings(c.Warnings()))
	c.Close()
	assert.Len(t, c.Warnings(), 1, "nothing was skipped")
}

// TestLongKeysAreCut: a key past MaxKeyShown bytes is cut, with "…", in the path, the pointer
// and QuoteKey, on a character boundary; a key within it is shown whole.
func TestLongKeysAreCut(t *testing.T) {
	long := strings.Repeat("é", MaxKeyShown) // two bytes a character
	l := At("metadata").Key(long)
	want := strings.Repeat("é", MaxKeyShown/2) + "…"
	assert.Equal(t, `metadata["`+want+`"]`, l.Path())
	assert.Equal(t, "/metadata/"+want, l.Pointer())
	assert.Equal(t, `"`+want+`"`, QuoteKey(long))
	quotes := strings.Repeat(`"`, 10*MaxKeyShown)
	assert.Len(t, QuoteKey(quotes), 2*MaxKeyShown+2+len("…"), "each quote escaped, the key cut first")
	exact := strings.Repeat("k", MaxKeyShown)
	assert.Equal(t, "metadata."+exact, At("metadata").Key(exact).Path())
}

// TestCloseIdempotent: Close adds its warnings_limited warning once, however often it is called;
// SetLimit starts over.
func TestCloseIdempotent(t *testing.T) {
	var c Collector
	c.SetLimit(1)
	c.Add(At("messages").Index(0).Warning(MessageNotObject, Dropped, Parts{Found: "x"}))
	c.Add(At("messages").Index(1).Warning(MessageNotObject, Dropped, Parts{Found: "y"}))
	c.Close()
	c.Close()
	require.Len(t, c.Warnings(), 2, "one listed warning and one warnings_limited")
	assert.Equal(t, WarningsLimited, c.Warnings()[1].Code)

	c.SetLimit(1)
	c.Add(At("metadata").Warning(MetadataNotObject, Dropped, Parts{Found: "x"}))
	c.Add(At("messages").Warning(MessagesNotArray, Dropped, Parts{Found: "y"}))
	c.Close()
	require.Len(t, c.Warnings(), 2, "SetLimit starts over: Close adds its warning again")
	assert.Contains(t, c.Warnings()[1].Message(), "1 more warnings")
}

// TestMessage: a message is composed from its parts, each part that is empty left out with its
// separator; Len is its length, and the quoted forms are the JSON strings of String and Message.
func TestMessage(t *testing.T) {
	tests := []struct {
		name  string
		parts Parts
		want  string
	}{
		{"found, expected, done, fix", Parts{Found: `"developer"`, Expected: `one of "system", "user"`, Done: "the message was dropped", Fix: `use "system"`},
			`found "developer", expected one of "system", "user"; the message was dropped; use "system"`},
		{"no fix", Parts{Found: "a number", Expected: "an object", Done: "metadata was dropped"}, "found a number, expected an object; metadata was dropped"},
		{"a subject", Parts{Subject: "function.name", Found: "missing", Expected: "the tool's name as a string", Done: "the message was dropped"},
			"function.name is missing, expected the tool's name as a string; the message was dropped"},
		{"a problem", Parts{Problem: `duplicate key "a"`, Done: LastValueKept}, `duplicate key "a"; ` + LastValueKept},
		{"a problem stands for found", Parts{Problem: "has 3 characters", Found: "ignored", Fix: "shorten it"}, "has 3 characters; shorten it"},
		{"done alone", Parts{Done: "it was dropped"}, "it was dropped"},
		{"fix alone", Parts{Fix: "send an object"}, "send an object"},
		{"nothing", Parts{}, ""},
		{"text to escape", Parts{Found: "\"a\\b\"\n", Fix: "\u2028 \xed\xa0\x80"}, "found \"a\\b\"\n; \u2028 \xed\xa0\x80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.parts.Message())
			assert.Equal(t, tt.want, string(tt.parts.AppendMessage([]byte("x")))[1:])
			assert.Equal(t, len(tt.want), tt.parts.Len())
			w := At("messages").Index(1).Warning(MessageRoleInvalid, Dropped, tt.parts)
			assert.Equal(t, "messages[1]: "+tt.want, w.String())
			assert.Equal(t, string(jsonscanString(w.String())), string(w.AppendQuoted(nil)))
			assert.Equal(t, string(jsonscanString(tt.want)), string(w.AppendQuotedMessage(nil)))
			var back string
			require.NoError(t, json.Unmarshal(w.AppendQuoted(nil), &back))
		})
	}
}

// TestWarningsLimitedParts: the warning Close adds says what was left out as its problem, what
// was done and the fix apart.
func TestWarningsLimitedParts(t *testing.T) {
	var c Collector
	c.SetLimit(1)
	c.Add(At("metadata").Warning(MetadataNotObject, Dropped, Parts{Found: "x"}))
	c.Add(At("messages").Warning(MessagesNotArray, Dropped, Parts{Found: "y"}))
	c.Close()
	w := c.Warnings()[1]
	assert.Equal(t, Parts{
		Problem: "1 more warnings (the first about messages) were not listed: a record lists at most 1 (those about final_response are listed even past that)",
		Done:    "what they concern was dropped all the same",
		Fix:     "fix the ones listed and normalize again",
	}, w.Parts)
}

func jsonscanString(s string) []byte { return jsonscan.AppendString(nil, s) }

func TestFinding(t *testing.T) {
	for _, tt := range []struct {
		parts Parts
		want  string
	}{
		{Parts{Found: "a number", Expected: "an object"}, "found a number"},
		{Parts{Subject: "id", Found: "the number 5"}, "id is the number 5"},
		{Parts{Problem: `duplicate key "a"`, Found: "ignored"}, `duplicate key "a"`},
		{Parts{Expected: "an object", Done: "dropped"}, ""},
	} {
		assert.Equal(t, tt.want, tt.parts.Finding(), "%+v", tt.parts)
		assert.True(t, strings.HasPrefix(tt.parts.Message(), tt.want))
	}
}

// TestKeepNeverWrittenOver: a text Keep returned keeps its bytes while more texts are built,
// past the buffer's chunks, and after SetLimit starts the collector over.
func TestKeepNeverWrittenOver(t *testing.T) {
	var c Collector
	var kept, want []string
	for i := range 2000 {
		if i%500 == 499 {
			c.SetLimit(0)
		}
		text := strings.Repeat(string(rune('a'+i%26)), i%200) + "!"
		kept = append(kept, c.Keep(append(c.TextBuf(), text...)))
		want = append(want, text)
	}
	assert.Equal(t, want, kept)
	assert.Empty(t, c.Keep(c.TextBuf()))
}

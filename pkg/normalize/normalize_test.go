package normalize_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// record decodes a record for assertions on its parts.
type record struct {
	FinalResponse string            `json:"final_response"`
	Messages      []json.RawMessage `json:"messages"`
	Metadata      json.RawMessage   `json:"metadata"`
	SoftWarnings  []string          `json:"soft_warnings"`
	RichMode      bool              `json:"rich_mode"`
}

func mustNormalize(t *testing.T, raw string, opts ...normalize.Option) (*normalize.Result, record) {
	t.Helper()
	res, err := normalize.Normalize([]byte(raw), opts...)
	require.NoError(t, err, "Normalize(%.80s)", raw)
	var rec record
	require.NoError(t, json.Unmarshal(res.AppendJSON(nil), &rec))
	return res, rec
}

// Rule 5: the contract's message, byte for byte, for every empty answer.
func TestEmptyResponseMessage(t *testing.T) {
	const want = "Handler returned an empty string for final_response. The platform rejects empty responses (the LLM judge has nothing to grade against). Return at least a one-sentence summary of what the agent did or why it failed."
	require.Equal(t, want, normalize.EmptyResponseMessage)
	for _, input := range []string{`null`, `""`, `{"final_response":null}`, `{"final_response":""}`, ` "" `} {
		_, err := normalize.Normalize([]byte(input))
		var shape *normalize.ResponseShapeError
		require.ErrorAs(t, err, &shape, input)
		assert.Equal(t, want, err.Error(), input)
		assert.True(t, errors.Is(err, normalize.ErrResponseShape))
		assert.Equal(t, `{"error":{"class":"ResponseShapeError","message":"`+want+`","path":"final_response"}}`, string(normalize.AppendError(nil, err)))
	}
}

// Rule 1: malformed input is InvalidJSON with a position; nothing is repaired. The reason says
// what the bytes are; which program writes them is package porting's to say.
func TestInvalidJSON(t *testing.T) {
	tests := []struct {
		name, input  string
		line, column int
		reason       string
	}{
		{"empty", ``, 1, 1, "no JSON value"},
		{"trailing data", `"a" "b"`, 1, 5, "after the top-level value"},
		{"comment", "{\"final_response\":\"a\"/*x*/}", 1, 22, "found a comment after an object member, which JSON does not have: remove it; expected ',' or '}'"},
		{"line comment first", "// result\n\"a\"", 1, 1, "found a comment, which JSON does not have: remove it"},
		{"comment after the value", "\"a\" // done", 1, 5, "found a comment after the top-level value"},
		{"NaN", `{"final_response":"a","metadata":{"x":NaN}}`, 1, 39, "found NaN, which JSON does not have: send null or a string instead"},
		{"lower-case nan", `{"final_response":"a","metadata":{"x":nan}}`, 1, 39, "found nan, which JSON does not have"},
		{"minus Infinity", `{"final_response":"a","metadata":{"x":-Infinity}}`, 1, 40, "found Infinity, which JSON does not have"},
		{"Python None", `{"final_response":"a","metadata":None}`, 1, 34, "found None, which JSON writes null"},
		{"Python True", `{"final_response":"a","messages":[True]}`, 1, 35, "found True, which JSON writes true"},
		{"JavaScript undefined", `{"final_response":"a","metadata":undefined}`, 1, 34, "found undefined, which JSON does not have: send null, or leave the key out"},
		{"single quotes", `'a'`, 1, 1, "unexpected single quote; JSON strings and keys take double quotes"},
		{"Python dict", `{'final_response': 'a'}`, 1, 2, "unexpected single quote; JSON strings and keys take double quotes; expected a string key in double quotes"},
		{"unquoted key", `{final_response: "a"}`, 1, 2, `found the key final_response without quotes; expected a string key in double quotes ("final_response")`},
		{"plain text", "The refund was issued.", 1, 1, `found the text "The", expected a JSON value; a bare answer must be a JSON string, in double quotes`},
		{"plain text starting like null", "no refund", 1, 1, `found the text "no", expected a JSON value`},
		{"word inside", `{"final_response":"a","metadata":{"x":abc}}`, 1, 39, `found the word "abc", expected a value; a string takes double quotes`},
		{"prose starting with None", "None of the orders were refunded.", 1, 1, `found the text "None", expected a JSON value; a bare answer must be a JSON string`},
		{"prose in another script", "Étant donné la commande", 1, 1, `found the text "Étant", expected a JSON value`},
		{"prose word cut on a character", strings.Repeat("é", 40), 1, 1, `found the text "` + strings.Repeat("é", 16) + `…"`},
		{"hyphenated unquoted key", `{final-response: "a"}`, 1, 2, `found the key final-response without quotes; expected a string key in double quotes ("final-response")`},
		{"a word that is no key", `{final response: "a"}`, 1, 2, `unexpected character 'f'; expected a string key in double quotes`},
		{"array closed by a brace", `{"final_response":"a","messages":[1,}`, 1, 37, `unexpected character '}'; expected a value`},
		{"cut-off literal", `{"final_response":"a","metadata":nul`, 1, 34, `invalid literal; expected "null"`},
		{"gzip", "\x1f\x8b\x08\x00", 1, 1, "the input starts with the bytes 1F 8B, the gzip magic: it is compressed; expected JSON text"},
		{"trailing comma", `{"final_response":"a",}`, 1, 22, "trailing comma before '}'; JSON allows none: remove it"},
		{"trailing comma on the line before", "{\"final_response\":\"a\",\n\"messages\":[1,\n  2,\n]}", 3, 4, "trailing comma before ']'; JSON allows none: remove it"},
		{"empty member", `{"final_response":"a",,}`, 1, 23, "unexpected character ','; expected a string key in double quotes"},
		{"empty element", `{"final_response":"a","messages":[1,,2]}`, 1, 37, "unexpected character ','; expected a value"},
		{"invalid utf-8", "\"caf\xc3\"", 1, 5, "invalid UTF-8 byte 0xC3"},
		// Columns count characters, as Python's json module reports them (byte offset 39 here).
		{"column in characters", `{"final_response": "héllo 😀", "x": tru}`, 1, 36, `invalid literal; expected "true"`},
		{"column in characters on a later line", "{\"final_response\": \"a\",\n\"東京\" 1}", 2, 6, "expected ':'"},
		{"second line", "{\n\"final_response\" \"a\"}", 2, 18, "expected ':'"},
		{"unterminated", `"abc`, 1, 5, "unexpected end of input inside the string"},
		{"bad unicode escape", `"\u12G4"`, 1, 2, `invalid escape '\u12G4'`},
		{"lone minus", `-`, 1, 2, "expected a digit"},
		{"bare exponent", `1e`, 1, 3, "in an exponent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			syn := rejected(t, tt.input)
			assert.Equal(t, tt.line, syn.Line, "line")
			assert.Equal(t, tt.column, syn.Column, "column")
			assert.Contains(t, syn.Reason, tt.reason)
			assert.True(t, errors.Is(syn, normalize.ErrInvalidJSON))
			assert.Contains(t, syn.Error(), "line ")
		})
	}
}

// rejected normalizes input, which must be rejected as InvalidJSON, and returns the error.
func rejected(t *testing.T, input string) *normalize.InvalidJSONError {
	t.Helper()
	_, err := normalize.Normalize([]byte(input))
	var syn *normalize.InvalidJSONError
	require.ErrorAs(t, err, &syn)
	return syn
}

func TestMaxDepthIsConfigurable(t *testing.T) {
	doc := `{"final_response":"a","metadata":{"x":[[1]]}}` // depth 4
	_, err := normalize.Normalize([]byte(doc), normalize.WithMaxDepth(4))
	require.NoError(t, err)
	_, err = normalize.Normalize([]byte(doc), normalize.WithMaxDepth(3))
	var syn *normalize.InvalidJSONError
	require.ErrorAs(t, err, &syn)
	assert.Contains(t, syn.Reason, "nesting deeper than 3 levels")
	assert.True(t, syn.TooDeep, "a caller can tell the limit from a syntax error")
	_, err = normalize.Normalize([]byte(`{"final_response":"a",}`), normalize.WithMaxDepth(3))
	require.ErrorAs(t, err, &syn)
	assert.False(t, syn.TooDeep)
}

func TestDeepNestingIsRejectedWithoutRecursion(t *testing.T) {
	doc := `{"final_response":"a","metadata":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`
	_, err := normalize.Normalize([]byte(doc), normalize.WithMaxDepth(1_000_000))
	require.NoError(t, err, "the scanner must not recurse: 100,000 levels cost no stack")
	_, err = normalize.Normalize([]byte(doc))
	require.ErrorIs(t, err, normalize.ErrInvalidJSON)
}

func TestPayloadTooLarge(t *testing.T) {
	_, err := normalize.Normalize([]byte(`"0123456789"`), normalize.WithMaxBytes(10))
	var large *normalize.PayloadTooLargeError
	require.ErrorAs(t, err, &large)
	assert.Equal(t, int64(12), large.Size)
	assert.Equal(t, int64(10), large.Limit)
	assert.Equal(t, `{"error":{"class":"PayloadTooLarge","message":"payload of 12 bytes is over the limit of 10 bytes; send a smaller result or raise the limit","limit":10}}`,
		string(normalize.AppendError(nil, err)))
	_, err = normalize.Normalize([]byte(`"0123456789"`), normalize.WithMaxBytes(math.MaxInt64))
	require.NoError(t, err)
}

// Rule 6: the cap counts code points, as Python's len does.
func TestCap(t *testing.T) {
	emoji := "\U0001F600"
	tests := []struct {
		name, text  string
		truncated   bool
		originalLen int
	}{
		{"ascii exact", strings.Repeat("a", 50000), false, 50000},
		{"ascii over by one", strings.Repeat("a", 50001), true, 50001},
		{"astral exact", strings.Repeat(emoji, 50000), false, 50000},
		{"astral over", strings.Repeat(emoji, 50001), true, 50001},
		{"two-byte over", strings.Repeat("é", 60000), true, 60000},
		{"combining marks", strings.Repeat("e\u0301", 25001), true, 50002},
		{"mixed", strings.Repeat("a"+emoji+"東", 20000), true, 60000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, _ := json.Marshal(map[string]string{"final_response": tt.text})
			res, rec := mustNormalize(t, string(raw))
			assert.Equal(t, tt.truncated, res.Truncated())
			if !tt.truncated {
				assert.Equal(t, tt.text, rec.FinalResponse)
				assert.Empty(t, rec.SoftWarnings)
				return
			}
			runes := []rune(tt.text)
			assert.Equal(t, string(runes[:50000])+"…[truncated]", rec.FinalResponse)
			assert.Equal(t, 50012, utf8.RuneCountInString(rec.FinalResponse))
			require.Len(t, rec.SoftWarnings, 1)
			assert.True(t, strings.HasPrefix(rec.SoftWarnings[0], "final_response: has "))
			assert.Contains(t, rec.SoftWarnings[0], group(tt.originalLen)+" characters")
			assert.Equal(t, softwarn.Truncated, res.Warnings()[0].Action)
		})
	}
}

// group writes n as the warnings do: 50,001.
func group(n int) string {
	digits := strconv.Itoa(n)
	var s []byte
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			s = append(s, ',')
		}
		s = append(s, digits[i])
	}
	return string(s)
}

// Rule 6 with escapes: an escape is one character, a surrogate pair escape is one, and the cut
// keeps the text as written.
func TestCapCountsEscapesAsCharacters(t *testing.T) {
	raw := `{"final_response":"` + strings.Repeat(`\ud83d\ude00`, 50000) + `\n"}`
	res, rec := mustNormalize(t, raw)
	require.True(t, res.Truncated())
	assert.Equal(t, strings.Repeat("\U0001F600", 50000)+"…[truncated]", rec.FinalResponse)
	out := string(res.AppendJSON(nil))
	assert.True(t, strings.HasPrefix(out, `{"final_response":"\ud83d\ude00`), "escapes are kept as written")
}

// Rule 14: a lone surrogate in final_response becomes U+FFFD, one character, one warning.
func TestLoneSurrogates(t *testing.T) {
	res, rec := mustNormalize(t, `{"final_response":"a\ud800b\udc00c\ud83d\ude00"}`)
	assert.Equal(t, "a\uFFFDb\uFFFDc\U0001F600", rec.FinalResponse)
	require.Len(t, res.Warnings(), 1)
	w := res.Warnings()[0]
	assert.Equal(t, softwarn.FinalResponseLoneSurrogate, w.Code)
	assert.Equal(t, softwarn.Replaced, w.Action)
	assert.Contains(t, w.Message(), "2 lone UTF-16 surrogate escapes")

	// Still one character for the cap: 49,999 letters and a lone surrogate fit exactly.
	_, rec = mustNormalize(t, `{"final_response":"`+strings.Repeat("a", 49999)+`\udfff"}`)
	assert.Equal(t, strings.Repeat("a", 49999)+"\uFFFD", rec.FinalResponse)

	// In values that pass through it stays exactly as written.
	res, _ = mustNormalize(t, `{"final_response":"ok","messages":[{"role":"user","content":"\ud800"}],"metadata":{"k":"\udc00"}}`)
	assert.Contains(t, string(res.AppendJSON(nil)), `"content":"\ud800"`)
	assert.Contains(t, string(res.AppendJSON(nil)), `{"k":"\udc00"}`)
	assert.Empty(t, res.Warnings())
}

// Rule 7: each message is kept or dropped on its own, with exactly one warning at its input index.
func TestMessagesDropOneWarningEach(t *testing.T) {
	res, rec := mustNormalize(t, `{"final_response":"ok","messages":[
		{"role":"user","content":"a"},
		{"role":"developer","content":"b","content":"c"},
		{"role":"assistant","tool_calls":[{"name":1},{"name":2}]},
		{"role":"assistant","content":"d"}]}`)
	require.Len(t, rec.Messages, 2)
	assert.JSONEq(t, `{"role":"user","content":"a"}`, string(rec.Messages[0]))
	assert.JSONEq(t, `{"role":"assistant","content":"d"}`, string(rec.Messages[1]))
	require.Len(t, res.Warnings(), 2, "%q", res.SoftWarnings())
	assert.Equal(t, "messages[1].role", res.Warnings()[0].Path())
	assert.Equal(t, "messages[2].tool_calls[0]", res.Warnings()[1].Path())
	assert.True(t, rec.RichMode)
}

// A number megabytes long is judged, and shown in a warning, without a copy of it.
func TestLongNumberIsNotCopied(t *testing.T) {
	n := normalize.New()
	long := "1" + strings.Repeat("0", 1<<20)
	for _, tt := range []struct {
		name, raw string
		warnings  int
	}{
		{"metadata runtime with a long fraction", `{"final_response":"a","metadata":{"agent_runtime_ms":1.` + long + `}}`, 0},
		{"metadata runtime with a long integer part", `{"final_response":"a","metadata":{"agent_runtime_ms":` + long + `.5e-1048500}}`, 0},
		// An integer literal this long is InvalidJSON (MaxIntDigits); a fraction of any length is not.
		{"tool_call_id", `{"final_response":"a","messages":[{"role":"tool","tool_call_id":0.` + long + `,"content":"x"}]}`, 1},
		{"a tool call's id", `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":0.` + long + `,"name":"f"}]}]}`, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			raw := []byte(tt.raw)
			res, err := n.Normalize(raw) // warm the pools
			require.NoError(t, err)
			assert.Len(t, res.Warnings(), tt.warnings)
			res.Release()
			allocated := leastBytes(func() {
				if res, err := n.Normalize(raw); err == nil {
					res.Release()
				}
			})
			assert.Less(t, allocated, uint64(64<<10), "bytes allocated for a %d-byte input", len(raw))
		})
	}
}

// Rule 10: the recognised metadata keys and their numbers, read exactly, as the metadata
// schema states them; and a number the platform's Python reads as inf (a float past the largest
// double) passes no check, since it could not be written back as JSON.
func TestMetadataNumbers(t *testing.T) {
	huge := "1" + strings.Repeat("0", 400)
	tests := []struct {
		value          string
		tokens, runtim bool // whether total_input_tokens / agent_runtime_ms accept it
	}{
		{`10`, true, true}, {`10.0`, true, true}, {`0`, true, true}, {`-0`, true, true}, {`-0.0`, true, true},
		{`1e2`, true, true}, {`1E+2`, true, true}, {`1.5e1`, true, true}, {`150e-1`, true, true}, {`0.1e1`, true, true},
		{`123456789012345678901234`, true, true}, {`1.7976931348623157e308`, true, true},
		// a Python int, exact (up to MaxIntDigits digits); then floats past the largest double, inf in Python
		{huge, true, true},
		{`1e400`, false, false}, {`1.8e308`, false, false}, {huge + `.0`, false, false}, {`-1.8e308`, false, false},
		{huge + `.0e-100`, true, true}, {`0.` + huge[1:] + `1e700`, true, true}, {`0.0001e312`, true, true}, // 1e300, 1e299, 1e308
		{`1.5`, false, true}, {`1e-1`, false, true}, {`0.0001`, false, true}, {`1e-400`, false, true}, {`4815.5`, false, true},
		{`-1`, false, false}, {`-0.5`, false, false}, {`-1e-400`, false, false},
		{`"217"`, false, false}, {`null`, false, false}, {`true`, false, false}, {`[1]`, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			res, rec := mustNormalize(t, `{"final_response":"ok","metadata":{"total_input_tokens":`+tt.value+`,"agent_runtime_ms":`+tt.value+`,"other":`+tt.value+`}}`)
			var kept map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(rec.Metadata, &kept))
			_, hasTokens := kept["total_input_tokens"]
			_, hasRuntime := kept["agent_runtime_ms"]
			assert.Equal(t, tt.tokens, hasTokens, "total_input_tokens")
			assert.Equal(t, tt.runtim, hasRuntime, "agent_runtime_ms")
			assert.Equal(t, tt.value, string(kept["other"]), "opaque keys are kept verbatim")
			if hasTokens {
				assert.Equal(t, tt.value, string(kept["total_input_tokens"]), "numbers are not re-formatted")
			}
			for _, w := range res.Warnings() {
				assert.Equal(t, softwarn.MetadataKeyInvalid, w.Code)
				assert.Regexp(t, `^metadata\.(total_input_tokens|agent_runtime_ms)$`, w.Path())
				pastDouble := strings.HasSuffix(tt.value, "e308") || strings.HasSuffix(tt.value, "e400") || strings.HasSuffix(tt.value, "0.0")
				if pastDouble && !strings.HasPrefix(tt.value, "-") {
					assert.Contains(t, w.Message(), "(past the largest double: Python reads it as inf)")
				} else {
					assert.NotContains(t, w.Message(), "past the largest double", "a negative number fails for its sign")
				}
			}
		})
	}
}

// Rule 13: every warning starts with its path and ": ", and its pointer is the same place.
func TestWarningsStartWithTheirPath(t *testing.T) {
	res, _ := mustNormalize(t, `{"final_response":"`+strings.Repeat("x", 50001)+`","messages":[5,{"role":"user","tool_calls":[1]}],"metadata":{"a/b":1,"a/b":2,"model":3}}`)
	require.Len(t, res.Warnings(), 5)
	pointers := []string{"/final_response", "/messages/0", "/messages/1/tool_calls/0", "/metadata/a~1b", "/metadata/model"}
	for i, w := range res.Warnings() {
		assert.True(t, strings.HasPrefix(res.SoftWarnings()[i], w.Path()+": "))
		assert.Equal(t, pointers[i], w.Pointer())
		assert.Regexp(t, `^[a-z][a-z0-9_]*$`, string(w.Code))
	}
}

// Rule 15: the record's keys, in order, and rich_mode exactly when messages is not null.
func TestRecordKeyOrder(t *testing.T) {
	for _, input := range []string{`"x"`, `{"metadata":{},"messages":[{"role":"user"}],"final_response":"x"}`} {
		res, _ := mustNormalize(t, input)
		dec := json.NewDecoder(strings.NewReader(string(res.AppendJSON(nil))))
		var keys []string
		_, _ = dec.Token()
		for dec.More() {
			tok, err := dec.Token()
			require.NoError(t, err)
			keys = append(keys, tok.(string))
			var skip json.RawMessage
			require.NoError(t, dec.Decode(&skip))
		}
		assert.Equal(t, []string{"final_response", "messages", "metadata", "soft_warnings", "rich_mode"}, keys)
	}
}

// Release recycles Results: a reused Result must never show anything of an earlier one.
func TestReleaseReuse(t *testing.T) {
	inputs := []string{
		`{"final_response":"a","messages":[{"role":"user","content":"x"}],"metadata":{"m":1}}`,
		`"b"`,
		`{"final_response":"c","messages":[{"role":"developer"}],"metadata":5}`,
		`{"final_response":"` + strings.Repeat("d", 50001) + `"}`,
		`"` + strings.Repeat("é\\n", 30000) + `"`,         // cut, into the buffer the one above used
		`{"final_response":"\\ud800 lone","messages":[]}`, // rewritten, shorter than the buffer
	}
	want := make([]string, len(inputs))
	for i, in := range inputs {
		res, err := normalize.Normalize([]byte(in))
		require.NoError(t, err)
		want[i] = string(res.AppendJSON(nil))
	}
	n := normalize.New()
	for round := 0; round < 3; round++ {
		for i := range inputs {
			k := (i*7 + round) % len(inputs)
			res, err := n.Normalize([]byte(inputs[k]))
			require.NoError(t, err)
			require.Equal(t, want[k], string(res.AppendJSON(nil)))
			res.Release()
		}
	}
}

// TestAllocations holds the hot path to its allocation budget: a released Result makes the next
// normalization nearly free, and without Release the cost per message stays in single digits.
func TestAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocations: run without -race (scripts/test.sh runs this package again without it)")
	}
	doc := benchInputs[1].doc // medium: 60 messages with nested tool calls
	n := normalize.New()
	dst := make([]byte, 0, 2*len(doc))
	pooled := leastAllocs(50, func() {
		res, err := n.Normalize(doc)
		require.NoError(t, err)
		dst = res.AppendJSON(dst[:0])
		res.Release()
	})
	assert.LessOrEqual(t, pooled, 2.0, "allocations per result with Release")
	fresh := leastAllocs(20, func() {
		res, err := n.Normalize(doc)
		require.NoError(t, err)
		dst = res.AppendJSON(dst[:0])
	})
	res, _ := n.Normalize(doc)
	perMessage := fresh / float64(res.NumMessages())
	assert.Less(t, perMessage, 2.0, "allocations per message without Release (%.0f per result)", fresh)
}

// The cap's count must match Python's len on every kind of UTF-8, at every alignment.
func TestCapCountMatchesRuneCount(t *testing.T) {
	pieces := []string{"a", "é", "東", "\U0001F600", "e\u0301", "\\n", "\\u00e9", "\\ud83d\\ude00"}
	for _, p := range pieces {
		for pad := 0; pad < 9; pad++ {
			text := strings.Repeat("x", pad) + strings.Repeat(p, 60001)
			res, rec := mustNormalize(t, `{"final_response":"`+text+`"}`)
			require.True(t, res.Truncated())
			var want int
			decoded := ""
			require.NoError(t, json.Unmarshal([]byte(`"`+text+`"`), &decoded))
			want = utf8.RuneCountInString(decoded)
			assert.Contains(t, rec.SoftWarnings[0], "has "+group(want)+" characters", "%q pad %d", p, pad)
		}
	}
}

// Rule 12: one warning names a duplicated top-level key however often it repeats, whether or
// not the warning list is full (a full list makes the reader replay the object).
func TestTopLevelDuplicateWarnedOnce(t *testing.T) {
	for _, repeats := range []int{2, 3, 4} {
		for _, limit := range []int{normalize.DefaultMaxWarnings, 1} {
			t.Run(fmt.Sprintf("repeats=%d/limit=%d", repeats, limit), func(t *testing.T) {
				doc := `{"messages":[1,2]`
				for i := range repeats {
					doc += fmt.Sprintf(`,"final_response":"v%d","metadata":{"model":%d}`, i, i)
				}
				doc += "}"
				res, err := normalize.Normalize([]byte(doc), normalize.WithMaxWarnings(limit))
				require.NoError(t, err)
				defer res.Release()
				assert.Equal(t, fmt.Sprintf("v%d", repeats-1), res.FinalResponse())
				var dups []string
				for _, w := range res.Warnings() {
					if w.Code == softwarn.DuplicateKey {
						dups = append(dups, w.Path())
					}
				}
				// messages[0], messages[1], metadata.model (of the last metadata) and the two
				// duplicates; past the limit one warnings_limited warning stands for the rest.
				problems := len(res.Warnings())
				if more := res.WarningsNotListed(); more > 0 {
					problems += more - 1
				}
				assert.Equal(t, 5, problems, "listed: %q", res.SoftWarnings())
				if limit == 1 {
					return
				}
				assert.ElementsMatch(t, []string{"final_response", "metadata"}, dups, "listed: %q", res.SoftWarnings())
			})
		}
	}
}

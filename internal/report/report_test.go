package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// TestLine: a line is read from the warning's parts: what was found (or the problem), what was
// expected, the fix (without one, "send" what was expected), then what was done.
func TestLine(t *testing.T) {
	at := softwarn.At("messages").Index(0)
	tests := []struct {
		name string
		w    softwarn.Warning
		want string
	}{
		{"found, expected, fix, done", at.Key("role").Warning(softwarn.MessageRoleInvalid, softwarn.Dropped, softwarn.Parts{
			Found: `"model"`, Expected: `one of "user"`, Done: "the message was dropped", Fix: `use "assistant"`}),
			`messages[0].role: found "model"; expected one of "user"; fix: use "assistant"; the message was dropped [dropped, message_role_invalid]`},
		{"a subject", at.Key("tool_calls").Index(0).Warning(softwarn.ToolCallInvalid, softwarn.Dropped, softwarn.Parts{
			Subject: "id", Found: "the number 5", Expected: "a string or null", Done: "the message was dropped", Fix: `send it as a string: "5"`}),
			`messages[0].tool_calls[0]: id is the number 5; expected a string or null; fix: send it as a string: "5"; the message was dropped [dropped, tool_call_invalid]`},
		{"no fix", at.Warning(softwarn.MessageNotObject, softwarn.Dropped, softwarn.Parts{Found: "a number", Expected: "an object", Done: "the message was dropped"}),
			`messages[0]: found a number; expected an object; fix: send an object instead; the message was dropped [dropped, message_not_object]`},
		// The parts are read as they are: a fix holding "; " or " was dropped" stays the fix.
		{"a problem, a fix in two clauses", at.Warning(softwarn.DuplicateKey, softwarn.Dropped, softwarn.Parts{
			Problem: `duplicate key "role"`, Done: softwarn.LastValueKept, Fix: "what was dropped is lost; send it once"}),
			`messages[0]: duplicate key "role"; fix: what was dropped is lost; send it once; ` + softwarn.LastValueKept + ` [dropped, duplicate_key]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Line(tt.w))
		})
	}
}

func TestRecord(t *testing.T) {
	res, err := porting.Normalize([]byte(`{"final_response":"hi","messages":[{"role":"developer","content":"x"},{"role":"assistant","tool_calls":[{"id":"c1","name":"f"}]}]}`), normalize.WithExplain())
	require.NoError(t, err)
	var out bytes.Buffer
	Record(&out, "in.json", res)
	got := out.String()
	assert.Contains(t, got, "in.json: accepted, 1 warning, 1 note\n")
	assert.Contains(t, got, "  final_response: 2 characters\n")
	assert.Contains(t, got, "  messages: 1 kept, rich mode on\n")
	assert.Contains(t, got, "\n  messages[0].role: found \"developer\"; expected ")
	assert.Contains(t, got, "[dropped, message_role_invalid]\n")
	assert.Contains(t, got, "\n  messages[1].tool_calls[0]: tool call \"f\" (id \"c1\") has no tool message answering it; fix: ")

	// Notes are about values kept as sent and about values the contract leaves out without a
	// warning: the heading must hold for both, and each line's action says which.
	res, err = porting.Normalize([]byte(`{"final_response":"None","messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"f","args":{}}]}]}`), normalize.WithExplain())
	require.NoError(t, err)
	out.Reset()
	Record(&out, "in.json", res)
	got = out.String()
	assert.Contains(t, got, "\nNotes: the platform gives no soft warning for these, but the result will not be read as meant\n")
	assert.NotContains(t, got, "nothing was changed")
	assert.Contains(t, got, "the arguments under \"args\" were dropped from the record, so the trace shows this call without arguments [dropped, tool_call_arguments_key]\n")
	assert.Contains(t, got, "[kept, tool_call_unanswered]\n")

	res, err = porting.Normalize([]byte(`"fine"`), normalize.WithExplain())
	require.NoError(t, err)
	out.Reset()
	Record(&out, "in.json", res)
	assert.Equal(t, "in.json: accepted, 0 warnings, 0 notes\n  final_response: 4 characters\n  messages: none kept, rich mode off (the run is graded on final_response alone)\n\nNothing to fix.\n", out.String())
}

func TestRecordTruncated(t *testing.T) {
	res, err := porting.Normalize([]byte(`"`+strings.Repeat("x", normalize.MaxChars+1)+`"`), normalize.WithExplain())
	require.NoError(t, err)
	var out bytes.Buffer
	Record(&out, "in.json", res)
	assert.Contains(t, out.String(), "  final_response: cut at the cap, then \"…[truncated]\" (its warning gives the length)\n")
	assert.Contains(t, out.String(), "\n  final_response: has 50,001 characters, over the cap of 50,000; fix: ")
}

func TestRejection(t *testing.T) {
	_, err := porting.Normalize([]byte(`{"output":"x"}`))
	require.Error(t, err)
	var out bytes.Buffer
	Rejection(&out, "in.json", err)
	assert.Contains(t, out.String(), "in.json: rejected, ResponseShapeError\n  the result object has no \"final_response\" key")
	assert.Contains(t, out.String(), "\n  fix: return {\"final_response\"")
}

// A ResponseShapeError that recognises what was sent ends its message with its own fix, which
// says where the text is: the report's fix line is that one, not the general one, which does
// not. Rule 3's message alone, the contract's empty-answer message and a bare key list keep the
// general fix.
func TestRejectionFixOfRecognisedShape(t *testing.T) {
	const general = "  fix: return {\"final_response\": \"<a non-empty answer>\", ...} from the handler, through build_response\n"
	tests := []struct{ name, input, fix string }{
		{"Gemini response", `{"candidates":[{"content":{"parts":[{"text":"Done."}]}}]}`,
			"  fix: send {\"final_response\": <candidates[0].content.parts[*].text, joined>}\n"},
		{"Responses API response, after rule 3's message", `{"object":"response","output":[{"type":"message","content":[{"type":"output_text","text":"Done."}]}]}`,
			"  fix: send {\"final_response\": response.output_text} (the text of the output_text parts of its message items)\n"},
		{"an answer key", `{"answer":"Done."}`, "  fix: rename the key to \"final_response\"\n"},
		{"a chat message as final_response", `{"final_response":{"role":"assistant","content":"Done."}}`,
			"  fix: send {\"final_response\": <the message's \"content\">}\n"},
		{"a list of messages", `[{"role":"user","content":"hi"}]`,
			"  fix: send {\"final_response\": \"<the agent's answer>\", \"messages\": <this list>}\n"},
		{"rule 3 alone", `{"final_output":"Done."}`, general},
		{"an empty answer", `{"final_response":""}`, general},
		{"keys only", `{"status":"ok"}`, general},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := porting.Normalize([]byte(tt.input))
			require.Error(t, err)
			var out bytes.Buffer
			Rejection(&out, "in.json", err)
			assert.True(t, strings.HasSuffix(out.String(), "\n"+tt.fix), out.String())
			assert.Equal(t, 1, strings.Count(out.String(), "  fix: "), out.String())
		})
	}
}

// Nesting past the limit is no matter of how the text was written: its fix is the structure.
func TestRejectionFixOfTooDeep(t *testing.T) {
	_, err := porting.Normalize([]byte(strings.Repeat("[", 1100) + strings.Repeat("]", 1100)))
	require.Error(t, err)
	var out bytes.Buffer
	Rejection(&out, "in.json", err)
	assert.Contains(t, out.String(), "\n  fix: nest the result less deeply (an encoder writes any depth, so the structure itself must change), or raise --max-depth if the platform's Python reads deeper (3.11's json stops near 995 levels)\n")
	assert.NotContains(t, out.String(), "json.dumps")
}

// An integer past the platform parser's digit limit is valid JSON, which json.dumps would not
// even write: its fix is the value, not the writing.
func TestRejectionFixOfTooManyDigits(t *testing.T) {
	_, err := porting.Normalize([]byte(`{"final_response":"a","metadata":{"id":` + strings.Repeat("1", normalize.MaxIntDigits+1) + `}}`))
	require.Error(t, err)
	var out bytes.Buffer
	Rejection(&out, "in.json", err)
	assert.True(t, strings.HasSuffix(out.String(), "\n  fix: send an integer this long as a string; the platform reads the record with Python's json, which reads no integer of more than 4300 digits\n"), out.String())
	assert.Equal(t, 1, strings.Count(out.String(), "  fix: "), out.String())
}

// The general fix of InvalidJSON holds whatever the cause: json.dumps writes NaN unless told
// not to, and a file in UTF-16 came from an encoder too.
func TestRejectionFixOfInvalidJSON(t *testing.T) {
	for _, input := range []string{`{"final_response":"a",}`, `{"final_response":"a","metadata":{"x":NaN}}`, "\xff\xfe{\x00}\x00"} {
		_, err := porting.Normalize([]byte(input))
		require.Error(t, err)
		var out bytes.Buffer
		Rejection(&out, "in.json", err)
		assert.Contains(t, out.String(), "\n  fix: send exactly one JSON value in UTF-8, as a JSON encoder writes it (Python: json.dumps(result, allow_nan=False)), not built by hand\n")
	}
}

// A note about the place of a warning (the message a warning dropped, or a place inside it) is
// one problem with that warning: it is printed under it, and the notes' heading, which says
// there is no soft warning, is left to the others.
func TestRecordNotesUnderTheirWarnings(t *testing.T) {
	res, err := porting.Normalize([]byte(`{"final_response":"ok","messages":[`+
		`{"role":"user","parts":[{"text":"hi"}]},`+
		`{"role":"model","parts":[{"text":"hello"}]}],`+
		`"metadata":[{"model":"m"},{"total_input_tokens":3}]}`), normalize.WithExplain())
	require.NoError(t, err)
	var out bytes.Buffer
	Record(&out, "in.json", res)
	got := out.String()
	assert.Regexp(t, `\n  messages\[1\]\.role: found "model"[^\n]*\[dropped, message_role_invalid\]\n    note: messages\[1\]: found a Gemini Content[^\n]*\[dropped, message_other_framework\]\n`, got)
	assert.Regexp(t, `\n  metadata: found an array[^\n]*\[dropped, metadata_not_object\]\n    note: metadata: found a list of 2 objects[^\n]*\[dropped, metadata_as_list\]\n`, got)
	// messages[0] is kept: its note has no warning to go under.
	assert.Regexp(t, `\nNotes: the platform gives no soft warning for these[^\n]*\n  messages\[0\]: found "parts"[^\n]*\n$`, got)
}

// TestPlacesOf: a note at place goes under a warning at path exactly when path is place or a
// place inside it.
func TestPlacesOf(t *testing.T) {
	m3 := softwarn.At("messages").Index(3)
	for _, c := range []struct {
		at    softwarn.Loc
		place string
		want  bool
	}{
		{m3, "messages[3]", true},
		{m3.Key("role"), "messages[3]", true},
		{m3.Key("tool_calls").Index(0), "messages[3]", true},
		{softwarn.At("messages").Index(30), "messages[3]", false},
		{softwarn.At("metadata"), "metadata", true},
		{softwarn.At("metadata").Key("model"), "metadata", true},
		{softwarn.At("metadatas"), "metadata", false},
		{softwarn.At("messages"), "messages[0]", false},
		{m3.Key("tool_calls").Index(0), "messages", true},
		{m3.Key("tool_calls").Index(0), "messages[3].tool", false},
	} {
		_, got := placesOf([]softwarn.Warning{c.at.Warning(softwarn.MessageNotObject, softwarn.Dropped, softwarn.Parts{})}, nil)[c.place]
		assert.Equal(t, c.want, got, "%s within %s", c.at.Path(), c.place)
	}
}

// A result without a limit on its warnings, tens of thousands of warnings and notes none of
// which concern the same place, is reported in linear time: each note was compared with every
// warning (1.9 s for 40,000 of each on a 2-core machine; some 50 ms with the index). The work
// is counted, not timed: ten times the warnings and notes take about ten times the steps
// (the quadratic scan took a hundred times).
func TestRecordManyNotesLinear(t *testing.T) {
	steps := func(n int) int {
		doc := `{"final_response":"a","messages":[` + strings.Repeat(`{"role":"assistant","tool_calls":[{"id":"c","name":"f"}]},{"role":"developer","content":"x"},`, n) + `{"role":"user","content":"x"}]}`
		res, err := porting.Normalize([]byte(doc), normalize.WithExplain(), normalize.WithMaxWarnings(math.MaxInt))
		require.NoError(t, err)
		require.Len(t, res.Notes(), n)
		require.GreaterOrEqual(t, len(res.Warnings()), n)
		var steps int
		under, rest := attachNotes(res.Warnings(), res.Notes(), &steps)
		require.Empty(t, under, "no note concerns a warning's place")
		require.Len(t, rest, n)
		return steps
	}
	const n = 4000
	small, large := steps(n), steps(10*n)
	// Linear: 10 times, and a little more as the indexes get a digit longer.
	assert.Less(t, large, 12*small, "steps for %d warnings and notes: %d; for %d: %d", n, small, 10*n, large)
}

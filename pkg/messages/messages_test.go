package messages_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/schemacheck"
	"github.com/dystopic/normalizer/pkg/messages"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name, msg string
		kept      bool
		path      string
		code      softwarn.Code
		contains  string
	}{
		{"user text", `{"role":"user","content":"hi"}`, true, "", "", ""},
		{"openai dump", `{"role":"assistant","content":null,"tool_calls":null,"function_call":null,"refusal":null}`, true, "", "", ""},
		{"no role", `{"content":"x"}`, false, "messages[0]", softwarn.MessageRoleMissing, "found no role"},
		{"developer", `{"role":"developer"}`, false, "messages[0].role", softwarn.MessageRoleInvalid, `use "system"`},
		{"bare part", `{"role":"user","content":{"type":"text"}}`, false, "messages[0].content", softwarn.MessageContentInvalid, "wrap"},
		{"id number", `{"role":"tool","tool_call_id":1}`, false, "messages[0].tool_call_id", softwarn.MessageToolCallIDInvalid, `found the number 1, expected a string (the id of the tool call this message answers) or null; the message was dropped; send it as a string: "1"`},
		{"calls object", `{"role":"assistant","tool_calls":{}}`, false, "messages[0].tool_calls", softwarn.MessageToolCallsInvalid, "wrapped in an array"},
		{"call no name", `{"role":"assistant","tool_calls":[{"id":"a"}]}`, false, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid, "name is missing"},
		{"second call bad", `{"role":"assistant","tool_calls":[{"name":"a"},{"name":1}]}`, false, "messages[0].tool_calls[1]", softwarn.ToolCallInvalid, "name is a number"},
		{"thinking string", `{"role":"assistant","thinking":[{},"x"]}`, false, "messages[0].thinking[1]", softwarn.MessageThinkingInvalid, "found a string"},
		{"not object", `"hello"`, false, "messages[0]", softwarn.MessageNotObject, "plain text"},
		{"role checked first", `{"content":5,"role":"x"}`, false, "messages[0].role", softwarn.MessageRoleInvalid, `found "x"`},
		{"responses item", `{"type":"function_call","name":"f","arguments":"{}","call_id":"c"}`, false, "messages[0]", softwarn.OpenAIResponsesItem, `"role": "assistant"`},
		{"anthropic tool_result", `{"type":"tool_result","tool_use_id":"t","content":"x"}`, false, "messages[0]", softwarn.AnthropicBlockMessage, `"role": "tool"`},
		{"langchain human", `{"type":"human","content":"hi"}`, false, "messages[0]", softwarn.MessageRoleMissing, `this looks like a LangChain message (type "human"): send it with "role": "user"`},
		{"langchain ai", `{"type":"ai","content":"","tool_calls":[{"name":"f","args":{}}]}`, false, "messages[0]", softwarn.MessageRoleMissing, `"role": "assistant", with tool calls as {"id", "name", "arguments"} (LangChain's "args")`},
		{"serialized twice", `"{\"role\": \"user\", \"content\": \"hi\"}"`, false, "messages[0]", softwarn.MessageNotObject, "found a string holding the JSON text of an object, expected a message object; the message was dropped; the message was serialized twice"},
		{"string in braces is not JSON", `"{not json}"`, false, "messages[0]", softwarn.MessageNotObject, "to send plain text"},
		{"call id number", `{"role":"assistant","tool_calls":[{"id":5,"name":"f"}]}`, false, "messages[0].tool_calls[0]", softwarn.ToolCallInvalid, `id is the number 5, expected a string or null; the message was dropped; send it as a string: "5"`},
		{"long role is shortened", `{"role":"` + strings.Repeat("r", 500) + `"}`, false, "messages[0].role", softwarn.MessageRoleInvalid, "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, w, err := checkOne(t, []byte(tt.msg))
			require.NoError(t, err)
			require.Equal(t, tt.kept, kept)
			if tt.kept {
				return
			}
			require.Equal(t, tt.path, w.Path())
			require.Equal(t, tt.code, w.Code)
			require.Equal(t, softwarn.Dropped, w.Action)
			require.Contains(t, w.Message(), tt.contains)
			require.Contains(t, w.Message(), "the message was dropped")
			require.Less(t, len(w.Message()), 600, "a warning must stay readable")
		})
	}
}

// checkOne is messages.Check for a test that looks at one warning: the one that drops a
// message, which must be its only one, or else the first of a kept message's (if any).
func checkOne(t testing.TB, raw []byte) (kept bool, w softwarn.Warning, err error) {
	t.Helper()
	kept, ws, err := messages.Check(raw)
	if err == nil && !kept && len(ws) != 1 {
		t.Fatalf("a dropped message has exactly one warning, got %d for %s", len(ws), raw)
	}
	if len(ws) > 0 {
		w = ws[0]
	}
	return kept, w, err
}

func TestCheckRejectsMalformedJSON(t *testing.T) {
	for _, raw := range []string{``, `{`, `{"role":"user"} x`, `{"role":'user'}`} {
		_, _, err := messages.Check([]byte(raw))
		require.Error(t, err, raw)
	}
}

// schemaKeeps reports whether message.schema.json accepts raw.
func schemaKeeps(t testing.TB, raw []byte) bool {
	return schemacheck.Validate("message.schema.json", raw) == nil
}

// generatedMessages builds messages from every combination of values for the keys the rules
// look at, so that the hand-written rules and the schema are compared well beyond the
// contract's examples.
func generatedMessages() []string {
	values := []string{``, `null`, `"user"`, `"assistant"`, `"tool"`, `"system"`, `"developer"`, `"User"`, `1`, `true`, `{}`, `[]`, `[{}]`, `["x"]`, `[{"name":"f"}]`,
		`[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]`, `[{"function":{"arguments":"{}"}}]`, `[{"function":null,"name":"f"}]`,
		`[{"id":1,"name":"f"}]`, `[{"name":"f"},1]`, `[{"function":"f"}]`, `[{"id":null,"name":"f","arguments":null}]`}
	keys := []string{"role", "content", "tool_call_id", "tool_calls", "thinking"}
	var out []string
	// Each key takes each value while the others take a few typical ones.
	typical := map[string][]string{"role": {`"assistant"`, ``}, "content": {``, `"x"`}, "tool_call_id": {``}, "tool_calls": {``, `[{"name":"f"}]`}, "thinking": {``}}
	for _, key := range keys {
		for _, v := range values {
			for _, r := range typical["role"] {
				for _, c := range typical["content"] {
					for _, tc := range typical["tool_calls"] {
						fields := map[string]string{"role": r, "content": c, "tool_calls": tc, "tool_call_id": "", "thinking": ""}
						fields[key] = v
						var parts []string
						for _, k := range keys {
							if fields[k] != "" {
								parts = append(parts, fmt.Sprintf("%q:%s", k, fields[k]))
							}
						}
						out = append(out, "{"+strings.Join(parts, ",")+"}")
					}
				}
			}
		}
	}
	return append(out, values[1:]...)
}

// TestRulesAgreeWithSchema is the differential test: for every generated message, and every
// message of the golden corpus, the hand-written rules keep exactly what message.schema.json
// accepts.
func TestRulesAgreeWithSchema(t *testing.T) {
	cases := generatedMessages()
	cases = append(cases, goldenMessages(t)...)
	require.Greater(t, len(cases), 900)
	for _, raw := range cases {
		kept, w, err := checkOne(t, []byte(raw))
		require.NoError(t, err, raw)
		require.Equal(t, schemaKeeps(t, []byte(raw)), kept, "rules and schema disagree on %s (warning: %s)", raw, w)
	}
}

// goldenMessages returns every entry of a messages array in the golden inputs that are JSON
// the platform reads (Go's json reads an integer of any length, which Normalize rejects).
func goldenMessages(t testing.TB) []string {
	inputs, _ := filepath.Glob("../../testdata/golden/*.input.json")
	var out []string
	for _, in := range inputs {
		raw, err := os.ReadFile(in)
		require.NoError(t, err)
		if _, err := normalize.Normalize(raw); errors.Is(err, normalize.ErrInvalidJSON) {
			continue
		}
		var doc struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if json.Unmarshal(raw, &doc) == nil {
			for _, m := range doc.Messages {
				out = append(out, string(m))
			}
		}
	}
	return out
}

// FuzzRulesAgreeWithSchema extends the differential test to every message the fuzzer makes.
func FuzzRulesAgreeWithSchema(f *testing.F) {
	for _, m := range generatedMessages() {
		f.Add([]byte(m))
	}
	for _, m := range goldenMessages(f) {
		f.Add([]byte(m))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		kept, w, err := checkOne(t, raw)
		if err != nil {
			return // not one JSON value: nothing to compare
		}
		if !json.Valid(raw) {
			t.Fatalf("Check accepted malformed JSON %q", raw)
		}
		if schemaKeeps(t, raw) != kept {
			t.Fatalf("rules keep=%v, schema disagrees, for %s (warning: %s)", kept, raw, w)
		}
		if !kept && (!strings.HasPrefix(w.Path(), "messages[0]") || w.Message() == "") {
			t.Fatalf("bad warning %+v for %s", w, raw)
		}
	})
}

// TestFunctionDuplicateKeys pins how a tool call's function object reports its duplicate keys:
// the two it reads (name, arguments) by a bit each, any other through its Members, each once
// however often it repeats, an escaped spelling being the same key.
func TestFunctionDuplicateKeys(t *testing.T) {
	call := func(fn string) []byte {
		return []byte(`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":` + fn + `}]}`)
	}
	tests := []struct {
		fn   string
		dups []string // the keys reported, in order
	}{
		{`{"name":"a","arguments":"{}"}`, nil},
		{`{"name":"a","name":"b","name":"c","arguments":"{}"}`, []string{`"name"`}},
		{`{"n\u0061me":"a","name":"b","arguments":"{}","arguments":"[]"}`, []string{`"name"`, `"arguments"`}},
		{`{"name":"a","x":1,"x":2,"x":3,"arguments":"{}"}`, []string{`"x"`}},
		{`{"arguments":"{}","name":"b","x":1,"arguments":"[]","x":2,"name":"c"}`, []string{`"arguments"`, `"x"`, `"name"`}},
	}
	for _, tt := range tests {
		kept, ws, err := messages.Check(call(tt.fn))
		require.NoError(t, err, tt.fn)
		require.True(t, kept, tt.fn)
		var got []string
		for _, w := range ws {
			got = append(got, w.Path()+" "+w.Message())
		}
		require.Len(t, got, len(tt.dups), "%s: %q", tt.fn, got)
		for i, key := range tt.dups {
			require.Contains(t, got[i], "messages[0].tool_calls[0].function."+strings.Trim(key, `"`)+" duplicate key "+key, tt.fn)
		}
	}
}

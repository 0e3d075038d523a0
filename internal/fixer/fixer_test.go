package fixer_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/codedoc"
	"github.com/dystopic/normalizer/internal/fixer"
	"github.com/dystopic/normalizer/internal/testkit/schemacheck"
	"github.com/dystopic/normalizer/pkg/fix"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

var (
	explain = normalize.New(normalize.WithExplain(), normalize.WithAdvisor(porting.Advisor())) // notes, no fixes
	withFix = porting.New(normalize.WithExplain())
)

// corpus is every input of the reference's entries, the explain and golden cases, and the
// cases below, by name.
func corpus(t testing.TB) map[string][]byte {
	c := map[string][]byte{}
	for _, e := range codedoc.Entries {
		c["codes/"+string(e.Code)] = []byte(e.Input)
	}
	for _, dir := range []string{"../../testdata/explain", "../../testdata/golden"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.input.json"))
		require.NoError(t, err)
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			c[filepath.Base(dir)+"/"+strings.TrimSuffix(filepath.Base(f), ".input.json")] = b
		}
	}
	for name, doc := range cases {
		c["case/"+name] = []byte(doc)
	}
	return c
}

// cases hold a fix of each kind, and results written over several lines.
var cases = map[string]string{
	"role-case":           `{"final_response": "ok", "messages": [{"role": "User", "content": "hi"}]}`,
	"role-developer":      `{"final_response": "ok", "messages": [{"role": "developer", "content": "be brief"}, {"role": "user", "content": "hi"}]}`,
	"count-as-string":     "{\n  \"final_response\": \"ok\",\n  \"metadata\": {\n    \"model\": 4,\n    \"total_input_tokens\": \"217\",\n    \"agent_runtime_ms\": \"12.5\",\n    \"total_output_tokens\": null\n  }\n}\n",
	"bare-part":           `{"final_response": "ok", "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}`,
	"single-message":      `{"final_response": "ok", "messages": {"role": "user", "content": "hi"}}`,
	"messages-as-text":    `{"final_response": "ok", "messages": "[{\"role\": \"user\", \"content\": \"hi\"}]"}`,
	"single-call":         `{"final_response": "ok", "messages": [{"role": "assistant", "tool_calls": {"id": "c1", "name": "f", "arguments": {}}}]}`,
	"numeric-ids":         `{"final_response": "ok", "messages": [{"role": "assistant", "tool_calls": [{"id": 1, "name": "f", "arguments": {}}]}, {"role": "tool", "tool_call_id": 1, "content": "x"}]}`,
	"thinking":            `{"final_response": "ok", "messages": [{"role": "assistant", "content": "a", "thinking": "hmm"}, {"role": "assistant", "content": "b", "thinking": {"type": "thinking", "thinking": "x"}}, {"role": "assistant", "content": "c", "thinking": ["y"]}]}`,
	"responses-items":     `{"final_response": "ok", "messages": [{"type": "reasoning", "summary": []}, {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}, {"type": "function_call_output", "call_id": "c1", "output": "18C"}]}`,
	"anthropic-blocks":    `{"final_response": "ok", "messages": [{"role": "assistant", "content": [{"type": "text", "text": "let me look"}, {"type": "tool_use", "id": "t1", "name": "f", "input": {"q": 1}}]}, {"type": "tool_result", "tool_use_id": "t1", "content": "x"}]}`,
	"anthropic-tool-use":  `{"final_response": "ok", "messages": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}, {"role": "tool", "tool_use_id": "t1", "content": "x"}]}`,
	"legacy-call":         `{"final_response": "ok", "messages": [{"role": "assistant", "content": null, "function_call": {"name": "f", "arguments": "{}"}}]}`,
	"serialized":          `{"final_response": "{\"final_response\": \"It is 18C.\", \"messages\": [{\"role\": \"User\", \"content\": \"hi\"}]}"}`,
	"serialized-empty":    `{"final_response": "{\"final_response\": \"\", \"messages\": []}"}`,
	"serialized-twice":    `{"final_response": "{\"final_response\": \"a\", \"final_response\": \"b\"}"}`,
	"metadata-as-text":    `{"final_response": "ok", "metadata": "{\"model\": \"m\"}"}`,
	"metadata-pairs":      `{"final_response": "ok", "metadata": [{"key": "model", "value": "m"}, {"value": 3, "key": "total_input_tokens"}]}`,
	"keys-another-case":   "{\n\t\"final_response\": \"ok\",\n\t\"Messages\": [\n\t\t{\"role\": \"user\", \"content\": \"hi\"}\n\t],\n\t\"Meta-Data\": {\"Model\": \"m\"}\n}",
	"lone-surrogates":     `{"final_response": "a \ud83c b \udc00 c \ud83c\udf0d d \\ud800"}`,
	"nested-fixes":        `{"final_response": "ok", "chat_history": [{"role": "Assistant", "tool_calls": [{"id": 7, "name": "f", "args": {}}]}]}`,
	"gemini-text":         `{"final_response": "ok", "messages": [{"role": "user", "parts": [{"text": "a"}, {"text": "b"}]}]}`,
	"langchain-type":      `{"final_response": "ok", "messages": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {}, "id": "c1"}]}]}`,
	"ai-sdk-json":         `{"final_response": "ok", "messages": [{"role": "assistant", "tool_calls": [{"id": "c1", "name": "f", "arguments": {}}]}, {"role": "tool", "tool_call_id": "c1", "content": {"type": "json", "value": {"a": 1}}}]}`,
	"duplicate-and-fixes": `{"final_response": "ok", "metadata": {"total_input_tokens": "1", "total_input_tokens": "2"}}`,
	"pretty-no-diags":     "{\n  \"final_response\" : \"fine\" ,\n  \"messages\" : [ ]\n}\n",
	"strands-blocks":      `{"final_response": "ok", "messages": [{"role": "assistant", "content": [{"text": "let me look"}, {"toolUse": {"toolUseId": "t1", "name": "f", "input": {"q": 1}}}]}, {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "status": "success", "content": [{"json": {"a": [1, 2]}}]}}]}]}`,
	"strands-text-result": `{"final_response": "ok", "messages": [{"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}]}, {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "status": "error", "content": [{"text": "no such order"}]}}, {"toolResult": {"toolUseId": "t2", "status": "success", "content": []}}]}]}`,
	"llamaindex-kwargs":   `{"final_response": "ok", "messages": [{"role": "assistant", "additional_kwargs": {"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, "blocks": []}, {"role": "tool", "additional_kwargs": {"tool_call_id": "c1", "name": "f"}, "blocks": [{"block_type": "text", "text": "x"}]}]}`,
	"llamaindex-options":  `{"final_response": "ok", "messages": [{"content": "", "role": "assistant", "options": {"toolCall": [{"name": "f", "input": {"q": 1}, "id": "c1"}]}}, {"content": "x", "role": "user", "options": {"toolResult": {"id": "c1", "result": "x", "isError": false}}}]}`,
	"chat-json":           `{"final_response": "{\"object\": \"chat.completion\", \"choices\": [{\"message\": {\"role\": \"assistant\", \"content\": \"It is 18C.\"}}]}", "messages": [{"role": "user", "content": "hi"}]}`,
	"chat-json-tool-call": `{"final_response": "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"Let me look.\",\"tool_calls\":[{\"id\":\"c1\"}]}}]}"}`,
	"chat-json-blank":     `{"final_response": "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"  \"}}]}"}`,
	"responses-json":      `{"final_response": "{\"object\":\"response\",\"output\":[{\"type\":\"reasoning\"},{\"type\":\"message\",\"content\":[{\"type\":\"output_text\",\"text\":\"It is \"},{\"type\":\"output_text\",\"text\":\"18C.\"}]}]}"}`,
	"anthropic-json":      `{"final_response": "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"hm\"},{\"type\":\"text\",\"text\":\"It is 18C.\"}]}"}`,
	"gemini-json":         `{"final_response": "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"hm\",\"thought\":true},{\"text\":\"It is 18C.\"}]}}]}"}`,
}

func diagnostics(t testing.TB, doc []byte) ([]softwarn.Warning, *normalize.Result) {
	res, err := explain.Normalize(doc)
	if err != nil {
		return nil, nil
	}
	return append(slices.Clone(res.Warnings()), res.Notes()...), res
}

// TestFixes checks the properties of fixes on every input of the corpus.
func TestFixes(t *testing.T) {
	fixed := 0
	for name, doc := range corpus(t) {
		t.Run(name, func(t *testing.T) {
			fixed += checkFixes(t, doc)
		})
	}
	require.Greater(t, fixed, 60, "too few fixes in the corpus to check anything")
}

// checkFixes checks every property on doc and returns how many fixes its diagnostics have.
func checkFixes(t testing.TB, doc []byte) int {
	diags, res := diagnostics(t, doc)
	count := 0
	if r, err := withFix.Normalize(doc); err == nil {
		record := r.AppendJSON(nil)
		require.LessOrEqual(t, len(record), r.SizeHint(), "a record past its SizeHint")
		require.NoError(t, schemacheck.Validate("record.schema.json", record), "%s", record)
	}
	if e := (*normalize.ResponseShapeError)(nil); errors.As(rejection(doc), &e) && e.Advice != nil {
		if f, ok := fix.For(fix.NewDoc(doc), *e.Advice); ok {
			count++
			checkAdviceFix(t, doc, *e.Advice, f)
		}
	}
	if res != nil {
		d := fix.NewDoc(doc)
		for _, w := range diags {
			f, ok := fix.For(d, w)
			if !ok {
				continue
			}
			count++
			checkPatch(t, doc, w, f, res)
		}
		if len(diags) == 0 {
			for _, unsafe := range []bool{false, true} {
				require.Equal(t, string(doc), string(fixer.Run(explain, doc, unsafe).Output), "a result without diagnostics must come back byte-identical")
			}
		}
	}
	for _, unsafe := range []bool{false, true} {
		once := fixer.Run(explain, doc, unsafe)
		require.Less(t, once.Rounds, fixer.MaxRounds, "fixing never settled")
		twice := fixer.Run(explain, once.Output, unsafe)
		require.Equal(t, string(once.Output), string(twice.Output), "fixing is not idempotent (unsafe %v)", unsafe)
		require.Zero(t, twice.Applied)
		if once.Applied == 0 {
			require.Equal(t, string(doc), string(once.Output), "no fix applied, yet the bytes changed")
		}
		if res != nil && once.Err == nil {
			after, r := diagnostics(t, once.Output)
			require.GreaterOrEqual(t, r.NumMessages(), res.NumMessages(), "fixes lost kept messages")
			d := fix.NewDoc(once.Output)
			for _, w := range after {
				f, ok := fix.For(d, w)
				require.False(t, ok && (unsafe || f.Applicability == fix.Safe), "a fix left to apply: %s at %s", w.Code, w.Pointer)
			}
		}
	}
	return count
}

// checkPatch checks one fix of doc: it is valid RFC 6902, applied by a JSON Patch library as by
// ours alike; the result is JSON that normalizes with fewer diagnostics of the fixed code and no
// fewer kept messages.
func checkPatch(t testing.TB, doc []byte, w softwarn.Warning, f fix.Fix, before *normalize.Result) {
	ours := applyBoth(t, doc, w, f)
	after, res := diagnostics(t, ours)
	require.NotNil(t, res, "%s: the fix %s gets the result rejected", w.Code, f.PatchJSON())
	require.GreaterOrEqual(t, res.NumMessages(), before.NumMessages(), "%s: the fix %s loses kept messages", w.Code, f.PatchJSON())
	was, is := countCode(append(slices.Clone(before.Warnings()), before.Notes()...), w.Code), countCode(after, w.Code)
	if countCode(after, softwarn.WarningsLimited)+countCode(after, softwarn.NotesLimited) == 0 {
		require.Less(t, is, was, "%s at %s: the fix %s leaves it", w.Code, w.Pointer, f.PatchJSON())
	}
}

// applyBoth applies the fix f of the diagnostic w to doc with our code and with a JSON Patch
// library, checks that both make the same valid JSON, and returns ours.
func applyBoth(t testing.TB, doc []byte, w softwarn.Warning, f fix.Fix) []byte {
	require.Contains(t, []fix.Applicability{fix.Safe, fix.Unsafe}, f.Applicability)
	ours, err := fix.Apply(doc, f.Patch)
	require.NoError(t, err, "%s at %s: %s", w.Code, w.Pointer, f.PatchJSON())
	require.True(t, json.Valid(ours), "%s: not JSON: %s", w.Code, ours)
	p, err := jsonpatch.DecodePatch(f.PatchJSON())
	require.NoError(t, err, "%s: not a JSON Patch: %s", w.Code, f.PatchJSON())
	theirs, err := p.Apply(doc)
	require.NoError(t, err, "%s at %s: %s", w.Code, w.Pointer, f.PatchJSON())
	require.True(t, reflect.DeepEqual(decode(t, theirs), decode(t, ours)), "%s: the library makes\n%s\nours makes\n%s", w.Code, theirs, ours)
	return ours
}

// rejection is the explain view's rejection of doc, or nil.
func rejection(doc []byte) error {
	_, err := explain.Normalize(doc)
	return err
}

// checkAdviceFix checks the fix of a rejection's advice: it is valid RFC 6902, applied by a JSON
// Patch library as by ours alike, and the result it makes is accepted.
func checkAdviceFix(t testing.TB, doc []byte, w softwarn.Warning, f fix.Fix) {
	_, res := diagnostics(t, applyBoth(t, doc, w, f))
	require.NotNil(t, res, "%s: the fix %s leaves the result rejected", w.Code, f.PatchJSON())
}

// TestAdviceFix: a result rejected for its empty final_response, whose transcript ends in an
// assistant's text, is accepted with that text as final_response (an unsafe fix); one whose
// transcript ends in a tool call, or whose answer is in parts, is left rejected.
func TestAdviceFix(t *testing.T) {
	const doc = `{"final_response": "", "messages": [{"role": "user", "content": "Where?"}, {"role": "assistant", "content": "It shipped \u2014 on May 2."}]}`
	out := fixer.Run(explain, []byte(doc), true)
	require.NoError(t, out.Err)
	require.Equal(t, `{"final_response": "It shipped \u2014 on May 2.", "messages": [{"role": "user", "content": "Where?"}, {"role": "assistant", "content": "It shipped \u2014 on May 2."}]}`, string(out.Output))
	require.Equal(t, []softwarn.Code{softwarn.FinalResponseAnswerInMessages}, out.Codes)
	safe := fixer.Run(explain, []byte(doc), false)
	require.Error(t, safe.Err, "the fix is unsafe")
	require.Equal(t, doc, string(safe.Output))
	for _, doc := range []string{
		`{"final_response": null, "messages": [{"role": "assistant", "content": "Let me look.", "tool_calls": [{"id": "c1", "name": "f", "arguments": "{}"}]}]}`,
		`{"final_response": "", "messages": [{"role": "assistant", "content": [{"type": "text", "text": "It shipped."}]}]}`,
	} {
		out := fixer.Run(explain, []byte(doc), true)
		require.Error(t, out.Err, doc)
		require.Equal(t, doc, string(out.Output))
	}
}

func countCode(ws []softwarn.Warning, c softwarn.Code) int {
	n := 0
	for _, w := range ws {
		if w.Code == c {
			n++
		}
	}
	return n
}

func decode(t testing.TB, b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v), "%s", b)
	return v
}

// TestFormattingKept: a fix changes only the bytes it concerns.
func TestFormattingKept(t *testing.T) {
	out := fixer.Run(explain, []byte(cases["count-as-string"]), false)
	require.Equal(t, "{\n  \"final_response\": \"ok\",\n  \"metadata\": {\n    \"model\": \"4\",\n    \"total_input_tokens\": 217,\n    \"agent_runtime_ms\": 12.5\n  }\n}\n", string(out.Output))
	out = fixer.Run(explain, []byte(cases["keys-another-case"]), false)
	require.Equal(t, "{\n\t\"final_response\": \"ok\",\n\t\"messages\": [\n\t\t{\"role\": \"user\", \"content\": \"hi\"}\n\t],\n\t\"metadata\": {\"model\": \"m\"}\n}", string(out.Output))
}

// TestRounds: a fix that reveals another is followed by it, in the next round.
func TestRounds(t *testing.T) {
	out := fixer.Run(explain, []byte(cases["nested-fixes"]), true)
	require.NoError(t, out.Err)
	require.Equal(t, `{"final_response": "ok", "messages": [{"role": "assistant", "tool_calls": [{"id": "7", "name": "f", "arguments": {}}]}]}`, string(out.Output))
	require.Equal(t, []softwarn.Code{softwarn.TopLevelTranscriptKey, softwarn.MessageRoleInvalid, softwarn.ToolCallInvalid, softwarn.ToolCallArgumentsKey}, out.Codes)
	safe := fixer.Run(explain, []byte(cases["nested-fixes"]), false)
	require.Equal(t, cases["nested-fixes"], string(safe.Output), "the transcript's move is unsafe, and nothing safe is reachable without it")
}

// TestUnsafeHeld: without unsafe, an unsafe fix is not applied.
func TestUnsafeHeld(t *testing.T) {
	doc := []byte(cases["role-developer"])
	require.Equal(t, string(doc), string(fixer.Run(explain, doc, false).Output))
	require.Equal(t, `{"final_response": "ok", "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]}`, string(fixer.Run(explain, doc, true).Output))
}

// TestObjectJSON: a final_response that is a model response's JSON text becomes the answer's
// text, with the rest of the result as it was; one without an answer (a tool call, only
// blanks) is left alone.
func TestObjectJSON(t *testing.T) {
	for name, want := range map[string]string{
		"chat-json":           `{"final_response": "It is 18C.", "messages": [{"role": "user", "content": "hi"}]}`,
		"responses-json":      `{"final_response": "It is 18C."}`,
		"anthropic-json":      `{"final_response": "It is 18C."}`,
		"gemini-json":         `{"final_response": "It is 18C."}`,
		"chat-json-tool-call": cases["chat-json-tool-call"],
		"chat-json-blank":     cases["chat-json-blank"],
	} {
		out := fixer.Run(explain, []byte(cases[name]), true)
		require.NoError(t, out.Err, name)
		require.Equal(t, want, string(out.Output), name)
		require.Equal(t, cases[name], string(fixer.Run(explain, []byte(cases[name]), false).Output), "%s: the fix is unsafe", name)
	}
}

// TestKwargsCallsReadable: LlamaIndex's additional_kwargs.tool_calls is moved up only when the
// platform reads each of its calls, since one call it cannot read drops the whole message.
func TestKwargsCallsReadable(t *testing.T) {
	const doc = `{"final_response": "a", "messages": [{"role": "assistant", "content": "x", "additional_kwargs": {"tool_calls": [%s]}}]}`
	for calls, moved := range map[string]bool{
		`{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}`: true,
		`{"id": null, "name": "f", "function": null}`:                                    true,
		`{"name": "f"}, {"id": "c2", "function": {"name": "g"}}`:                         true,
		`1`:                              false,
		`{}`:                             false,
		`{"function": {"name": 1}}`:      false,
		`{"function": "f", "name": "f"}`: false,
		`{"name": "f", "id": 2}`:         false,
		`{"name": "f"}, {"id": "c2"}`:    false,
		`{"name": "f"}, {"name": "f", "name": 3}`: false,
	} {
		in := fmt.Sprintf(doc, calls)
		out := fixer.Run(explain, []byte(in), true)
		require.NoError(t, out.Err, calls)
		var got struct{ Messages []map[string]json.RawMessage }
		require.NoError(t, json.Unmarshal(out.Output, &got))
		_, has := got.Messages[0]["tool_calls"]
		require.Equal(t, moved, has, "%s: %s", calls, out.Output)
		r, err := explain.Normalize(out.Output)
		require.NoError(t, err)
		require.Equal(t, 1, r.NumMessages(), "%s: %s", calls, out.Output)
	}
}

// TestStillRejected: a result rejected before any fix is returned as it is, with the rejection.
func TestStillRejected(t *testing.T) {
	out := fixer.Run(explain, []byte(`{"final_response": ""}`), true)
	require.Error(t, out.Err)
	require.Equal(t, `{"final_response": ""}`, string(out.Output))
}

// FuzzFix holds every property of TestFixes on any input.
func FuzzFix(f *testing.F) {
	for _, doc := range corpus(f) {
		if len(doc) < 4096 {
			f.Add(doc)
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkFixes(t, doc)
	})
}

package normalize_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

func TestMessagesAndMetadata(t *testing.T) {
	raw := `{"final_response":"done","messages":[
		{"role":"user","content":"Where is my \"refund\"?","name":"ana"},
		{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"refund","arguments":"{\"order\":4521}"}},{"name":"log","arguments":{"n":2.50}}],"refusal":null},
		{"role":"narrator","content":"dropped"},
		{"role":"tool","tool_call_id":"call_1","content":[{"type":"text","text":"issued"}]},
		{"role":"assistant","content":"ok","thinking":[{"type":"thinking","thinking":"hm"}],"tool_calls":null,"tool_call_id":null}
	],"metadata":{"model":"m-1","total_input_tokens":10.0,"agent_runtime_ms":1E+2,"total_output_tokens":-1,"team":{"a":[1]}}}`
	res, err := normalize.Normalize([]byte(raw))
	require.NoError(t, err)
	require.Len(t, res.Warnings(), 2, "the narrator message and total_output_tokens")
	assert.Equal(t, 4, res.NumMessages())

	msgs := res.Messages()
	require.Len(t, msgs, 4)
	assert.Equal(t, "user", msgs[0].Role)
	text, ok := msgs[0].Text()
	assert.True(t, ok)
	assert.Equal(t, `Where is my "refund"?`, text)
	assert.Equal(t, map[string]json.RawMessage{"name": json.RawMessage(`"ana"`)}, msgs[0].Extra)
	assert.Nil(t, msgs[0].ToolCalls)

	assert.Equal(t, "assistant", msgs[1].Role)
	assert.Equal(t, json.RawMessage(`null`), msgs[1].Content)
	_, ok = msgs[1].Text()
	assert.False(t, ok, "null content is no text")
	assert.Equal(t, []normalize.ToolCall{
		{ID: "call_1", Name: "refund", Arguments: json.RawMessage(`"{\"order\":4521}"`)},
		{Name: "log", Arguments: json.RawMessage(`{"n":2.50}`)},
	}, msgs[1].ToolCalls, "flat, arguments verbatim")
	assert.Equal(t, map[string]json.RawMessage{"refusal": json.RawMessage(`null`)}, msgs[1].Extra)

	assert.Equal(t, "tool", msgs[2].Role)
	assert.Equal(t, "call_1", msgs[2].ToolCallID)
	assert.Equal(t, json.RawMessage(`[{"type":"text","text":"issued"}]`), msgs[2].Content)
	_, ok = msgs[2].Text()
	assert.False(t, ok, "parts are no text")

	assert.Equal(t, []json.RawMessage{json.RawMessage(`{"type":"thinking","thinking":"hm"}`)}, msgs[3].Thinking)
	assert.Nil(t, msgs[3].ToolCalls, "tool_calls null")
	assert.Empty(t, msgs[3].ToolCallID, "tool_call_id null")
	assert.Nil(t, msgs[3].Extra)

	md := res.Metadata()
	require.NotNil(t, md)
	assert.Equal(t, "m-1", md.Model)
	assert.Empty(t, md.SystemPromptID)
	assert.Equal(t, json.Number("10.0"), md.TotalInputTokens, "the number as written")
	assert.Empty(t, md.TotalOutputTokens, "dropped with a warning")
	assert.Equal(t, json.Number("1E+2"), md.AgentRuntimeMS)
	f, err := md.AgentRuntimeMS.Float64()
	require.NoError(t, err)
	assert.Equal(t, 100.0, f)
	assert.Equal(t, map[string]json.RawMessage{"team": json.RawMessage(`{"a":[1]}`)}, md.Extra)
	assert.JSONEq(t, `{"model":"m-1","total_input_tokens":10.0,"agent_runtime_ms":1E+2,"team":{"a":[1]}}`, string(md.JSON))

	// What was built refers to neither the Result nor the input: it outlives Release, and
	// the next Normalize reusing the pooled Result changes nothing in it.
	before, err := json.Marshal(msgs)
	require.NoError(t, err)
	res.Release()
	again, err := normalize.Normalize([]byte(`{"final_response":"x","messages":[{"role":"system","content":"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"}]}`))
	require.NoError(t, err)
	defer again.Release()
	after, err := json.Marshal(msgs)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
	assert.Equal(t, "m-1", md.Model)
}

func TestMessagesAndMetadataNull(t *testing.T) {
	for _, raw := range []string{`"just text"`, `{"final_response":"a"}`, `{"final_response":"a","messages":[],"metadata":null}`,
		`{"final_response":"a","messages":[1],"metadata":[1]}`} {
		res, err := normalize.Normalize([]byte(raw))
		require.NoError(t, err)
		assert.Nil(t, res.Messages(), raw)
		assert.Zero(t, res.NumMessages(), raw)
		assert.Nil(t, res.Metadata(), raw)
	}
	res, err := normalize.Normalize([]byte(`{"final_response":"a","metadata":{}}`))
	require.NoError(t, err)
	md := res.Metadata()
	require.NotNil(t, md, "an empty object is metadata")
	assert.Equal(t, normalize.Metadata{JSON: json.RawMessage(`{}`)}, *md)
}

// Over the golden corpus, Messages and Metadata agree with the record that AppendJSON writes,
// read back with encoding/json: every message's JSON is the record's, in order, and each
// field holds what the record's key holds.
func TestMessagesMatchRecord(t *testing.T) {
	inputs, err := filepath.Glob("../../testdata/golden/*.input.json")
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	checked := 0
	for _, path := range inputs {
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		res, err := normalize.Normalize(raw)
		if err != nil {
			continue
		}
		var rec struct {
			Messages []json.RawMessage          `json:"messages"`
			Metadata map[string]json.RawMessage `json:"metadata"`
		}
		require.NoError(t, json.Unmarshal(res.AppendJSON(nil), &rec), path)
		msgs := res.Messages()
		require.Len(t, msgs, len(rec.Messages), path)
		for i, m := range msgs {
			assert.Equal(t, string(rec.Messages[i]), string(m.JSON), "%s: messages[%d]", path, i)
			var keys map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(rec.Messages[i], &keys))
			var role string
			require.NoError(t, json.Unmarshal(keys["role"], &role))
			assert.Equal(t, role, m.Role, "%s: messages[%d].role", path, i)
			assert.Equal(t, string(keys["content"]), string(m.Content), "%s: messages[%d].content", path, i)
			if s, ok := m.Text(); ok && json.Valid(m.Content) && !bytes.Contains(m.Content, []byte(`\ud`)) && !bytes.Contains(m.Content, []byte(`\uD`)) {
				var want string
				require.NoError(t, json.Unmarshal(m.Content, &want))
				assert.Equal(t, want, s, "%s: messages[%d] text", path, i)
			}
			n := len(keys) - 1 // role
			for _, k := range []string{"content", "tool_call_id", "tool_calls", "thinking"} {
				if _, ok := keys[k]; ok {
					n--
				}
			}
			assert.Len(t, m.Extra, n, "%s: messages[%d]: the other keys", path, i)
			for k, v := range m.Extra {
				if utf8.ValidString(k) { // a lone surrogate escape: encoding/json's key is U+FFFD
					assert.Equal(t, string(keys[k]), string(v), "%s: messages[%d].%s", path, i, k)
				}
			}
			checked++
		}
		md := res.Metadata()
		if rec.Metadata == nil {
			assert.Nil(t, md, path)
			continue
		}
		require.NotNil(t, md, path)
		for k, v := range rec.Metadata {
			switch k {
			case "model", "system_prompt_id":
				var want string
				require.NoError(t, json.Unmarshal(v, &want), path)
				got := md.Model
				if k == "system_prompt_id" {
					got = md.SystemPromptID
				}
				if !bytes.Contains(v, []byte(`\u`)) { // a lone surrogate reads differently in each
					assert.Equal(t, want, got, "%s: metadata.%s", path, k)
				}
			case "total_input_tokens":
				assert.Equal(t, string(v), string(md.TotalInputTokens), path)
			case "total_output_tokens":
				assert.Equal(t, string(v), string(md.TotalOutputTokens), path)
			case "agent_runtime_ms":
				assert.Equal(t, string(v), string(md.AgentRuntimeMS), path)
			default:
				if !strings.ContainsRune(k, utf8.RuneError) {
					assert.Equal(t, string(v), string(md.Extra[k]), "%s: metadata.%s", path, k)
				}
			}
		}
	}
	assert.Greater(t, checked, 40, "messages checked")
}

// BenchmarkMessages measures what Messages and Metadata add to a Normalize and AppendJSON of
// the same input, in the same run: the hot path itself builds nothing for them.
//
//	go test ./pkg/normalize -run '^$' -bench Messages -benchmem -count 6 > bench.txt
//	benchstat -col /view bench.txt
func BenchmarkMessages(b *testing.B) {
	for _, in := range benchInputs {
		for _, view := range []string{"record", "record+messages+metadata"} {
			b.Run("input="+in.name+"/view="+view, func(b *testing.B) {
				n := normalize.New(normalize.WithMaxBytes(math.MaxInt64))
				dst := make([]byte, 0, 2*len(in.doc))
				b.SetBytes(int64(len(in.doc)))
				b.ReportAllocs()
				for b.Loop() {
					res, err := n.Normalize(in.doc)
					if err != nil {
						b.Fatal(err)
					}
					dst = res.AppendJSON(dst[:0])
					if view != "record" {
						_ = res.Messages()
						_ = res.Metadata()
					}
					res.Release()
				}
			})
		}
	}
}

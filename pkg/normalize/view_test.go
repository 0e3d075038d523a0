package normalize_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// The View's tool calls are the record's, in the order it writes them, each inside the message
// the View places it in: every golden input, and inputs where an earlier value of a duplicated
// key is not the one kept. (Advice names calls by their place in the View: nothing else reads
// the transcript, so nothing can fall out of step with the record.)
func TestViewCallsAreTheRecords(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*.input.json"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	docs := map[string]string{
		"earlier tool_calls not objects": `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[1,[],null],"tool_calls":[{"id":"x","name":"f"}]},{"role":"tool","tool_call_id":"x","content":"r"}]}`,
		"earlier tool_calls, later null": `{"final_response":"a","messages":[{"role":"assistant","content":"d","tool_calls":[{"name":"f"},2],"tool_calls":null},{"role":"assistant","tool_calls":[{"id":"y","name":"g"}]}]}`,
		"messages key twice":             `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"name":"f"}]}],"messages":[{"role":"assistant","tool_calls":[{"id":"1","name":"g"},{"id":"2","name":"h"}]}]}`,
		"function twice":                 `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"1","function":null,"function":{"name":"f","args":{}}}]}]}`,
		"dropped between kept":           `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"1","name":"f"}]},{"role":"nobody"},7,{"role":"assistant","tool_calls":[{"id":"2","name":"g"}]}]}`,
	}
	for _, in := range inputs {
		raw, err := os.ReadFile(in)
		require.NoError(t, err)
		docs[strings.TrimSuffix(filepath.Base(in), ".input.json")] = string(raw)
	}
	var rec recorder
	n := normalize.New(normalize.WithExplain(), normalize.WithAdvisor(&rec))
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			r, err := n.Normalize([]byte(doc))
			if err != nil {
				return
			}
			defer r.Release()
			var record struct {
				Messages []struct {
					ToolCalls []struct {
						Name json.RawMessage `json:"name"`
					} `json:"tool_calls"`
				} `json:"messages"`
			}
			require.NoError(t, json.Unmarshal(r.AppendJSON(nil), &record))
			var want []string
			for _, m := range record.Messages {
				for _, c := range m.ToolCalls {
					want = append(want, string(c.Name))
				}
			}
			v := r.View()
			in := v.Input()
			var got []string
			kept := 0
			for _, m := range rec.messages {
				if !m.Kept {
					assert.Zero(t, m.Calls, "dropped message %d", m.Index)
					continue
				}
				kept++
				require.Equal(t, len(got), m.FirstCall, "message %d", m.Index)
				for j := range m.Calls {
					c := v.Call(m.FirstCall + j)
					assert.True(t, m.Span.Start < c.At && c.Name.End < m.Span.End, "call %d outside its message", j)
					assert.Equal(t, byte('{'), in[c.At], "call %d starts at %d", j, c.At)
					assert.Less(t, c.At, c.Name.Start, "name of call %d before the call", j)
					got = append(got, string(in[c.Name.Start:c.Name.End]))
				}
			}
			assert.Equal(t, r.NumMessages(), kept, "kept messages")
			assert.Equal(t, want, got, "tool call names")
			assert.Equal(t, len(want), v.Calls())
			assert.True(t, rec.ended)
		})
	}
}

// recorder is an Advisor that keeps what its Notes are told of the last result, and gives no
// note.
type recorder struct {
	messages []normalize.InputMessage
	members  []string
	ended    bool
}

func (r *recorder) Notes(normalize.View) normalize.Notes {
	*r = recorder{}
	return r
}

func (r *recorder) Hint(err error, _ []byte, _ int) error { return err }

func (r *recorder) Member(name []byte, _ normalize.Span) { r.members = append(r.members, string(name)) }
func (r *recorder) MessagesBegin()                       { r.messages = r.messages[:0] }
func (r *recorder) Message(m normalize.InputMessage) {
	m.Members = normalize.Object{} // valid only during the call
	r.messages = append(r.messages, m)
}
func (r *recorder) End() []softwarn.Warning { r.ended = true; return nil }

// The Notes are told of each member of the result object, in input order, duplicates too, and
// of the messages of the last "messages" value only.
func TestNotesToldInOrder(t *testing.T) {
	var rec recorder
	r, err := normalize.New(normalize.WithExplain(), normalize.WithAdvisor(&rec)).Normalize([]byte(
		`{"messages":[{"role":"user","content":"a"}],"x":1,"final_response":"ok","messages":[7,{"role":"bot"},{"role":"user","content":"b"}]}`))
	require.NoError(t, err)
	defer r.Release()
	assert.Equal(t, []string{"messages", "x", "final_response", "messages"}, rec.members)
	require.Len(t, rec.messages, 2)
	assert.Equal(t, 1, rec.messages[0].Index)
	assert.False(t, rec.messages[0].Kept)
	assert.Equal(t, 2, rec.messages[1].Index)
	assert.True(t, rec.messages[1].Kept)
	assert.Empty(t, r.Notes())
}

// Without WithExplain the View locates no tool call: the hot path keeps no table for them.
func TestViewWithoutExplain(t *testing.T) {
	r, err := normalize.Normalize([]byte(`{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"1","name":"f"}]}],"metadata":{"model":"m"}}`))
	require.NoError(t, err)
	defer r.Release()
	v := r.View()
	assert.Zero(t, v.Calls())
	_, _, meta := v.Metadata()
	require.Equal(t, 1, meta.Len())
	assert.Equal(t, "model", string(meta.Name(0)))
	assert.Equal(t, `"a"`, string(v.Final()))
	assert.Equal(t, 1, v.Count("messages"))
}

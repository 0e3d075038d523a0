package normalize_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// TestWarningsQuotingNumbers: a record with many warnings that quote a number (a tool
// message's tool_call_id, a tool call's id and name), of every form, has each as the words
// joined around the number's text (cut to 64 bytes), in its soft warnings and in its JSON.
func TestWarningsQuotingNumbers(t *testing.T) {
	numbers := []string{"0", "-0", "-0.0", "17", "-17", "1e400", "-1e400", "12345678901234567890123",
		"-9223372036854775809", strings.Repeat("7", 64), strings.Repeat("8", 65), "-" + strings.Repeat("9", 100)}
	shown := func(n string) string {
		if len(n) > 64 {
			return n[:64] + "…"
		}
		return n
	}
	var msgs []string
	var want []string
	for _, n := range numbers {
		i := len(msgs)
		msgs = append(msgs,
			`{"role": "tool", "content": "x", "tool_call_id": `+n+`}`,
			`{"role": "assistant", "tool_calls": [{"id": `+n+`, "name": "f", "arguments": "{}"}]}`,
			`{"role": "assistant", "tool_calls": [{"id": "a", "name": "f"}, {"name": `+n+`}]}`)
		asString := `send it as a string: "` + shown(n) + `"`
		want = append(want,
			fmt.Sprintf("messages[%d].tool_call_id: found the number %s, expected a string (the id of the tool call this message answers) or null; the message was dropped; %s", i, shown(n), asString),
			fmt.Sprintf("messages[%d].tool_calls[0]: id is the number %s, expected a string or null; the message was dropped; %s", i+1, shown(n), asString),
			fmt.Sprintf("messages[%d].tool_calls[1]: name is a number, expected the tool's name as a string; the message was dropped; %s", i+2, asString))
	}
	raw := `{"final_response": "done", "messages": [` + strings.Join(msgs, ", ") + `]}`
	for range 3 { // a pooled Result's collector, reused
		res, err := normalize.Normalize([]byte(raw))
		require.NoError(t, err)
		assert.Equal(t, want, res.SoftWarnings())
		var record struct {
			SoftWarnings []string `json:"soft_warnings"`
		}
		require.NoError(t, json.Unmarshal(res.AppendJSON(nil), &record))
		assert.Equal(t, want, record.SoftWarnings)
		res.Release()
	}
}

package messages_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/messages"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// FuzzCheckAgreesWithNormalize: whatever bytes Check is given, what it says is what Normalize
// says of the same bytes as messages[0] of a result: a message Check judges (kept or dropped)
// is judged the same way, with the same warnings, and one Check finds too deep makes the
// result too deep. (Bytes Check refuses as malformed may still complete a valid result once
// wrapped, `1],[2` say, so that direction is not compared.)
func FuzzCheckAgreesWithNormalize(f *testing.F) {
	for _, m := range generatedMessages() {
		f.Add([]byte(m))
	}
	for _, m := range goldenMessages(f) {
		f.Add([]byte(m))
	}
	for _, m := range []string{
		`{"role":"user","content":"a","content":"b"}`,
		" \t{\"role\":\"user\",\"content\":\"x\"}\r\n",
		`{"role":"user","content":"\ud800"}`,
		"{\"role\":\"user\",\"content\":\"\xff\"}",
		"\ufeff{\"role\":\"user\"}",
		nested(normalize.DefaultMaxDepth - 1),
		`[]`, `"x"`, `null`,
	} {
		f.Add([]byte(m))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		kept, ws, err := messages.Check(raw)
		wrapped := append(append([]byte(`{"final_response":"x","messages":[`), raw...), ']', '}')
		res, nerr := normalize.Normalize(wrapped)
		var syn *messages.SyntaxError
		if errors.As(err, &syn) && syn.TooDeep {
			var inv *normalize.InvalidJSONError
			require.ErrorAs(t, nerr, &inv, "Check finds %q too deep; Normalize: %v", raw, nerr)
			require.True(t, inv.TooDeep, "%q", raw)
			return
		}
		if err != nil {
			return
		}
		require.NoError(t, nerr, "Check judged %q; Normalize refused it", raw)
		defer res.Release()
		require.Equal(t, res.NumMessages() == 1, kept, "%q", raw)
		require.Equal(t, nonNil(res.Warnings()), nonNil(ws), "%q", raw)
	})
}

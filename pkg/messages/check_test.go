package messages_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/messages"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// TestCheckSyntaxError: malformed input is a *messages.SyntaxError a caller outside the module
// can branch on, placed as normalize places the same error (line, column in characters, byte
// offset).
func TestCheckSyntaxError(t *testing.T) {
	tests := []struct {
		name, raw         string
		line, col, offset int
	}{
		{"empty", ``, 1, 1, 0},
		{"trailing comma", `{"role":"user",}`, 1, 15, 14},
		{"second line, after non-ASCII", "{\"role\":\"user\",\n \"content\":\"héllo 😀\" x}", 2, 22, 41},
		{"trailing text", `{"role":"user"} x`, 1, 17, 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ws, err := messages.Check([]byte(tt.raw))
			require.Error(t, err)
			assert.Empty(t, ws)
			var syn *messages.SyntaxError
			require.True(t, errors.As(err, &syn), "%T", err)
			assert.Equal(t, []int{tt.line, tt.col, tt.offset}, []int{syn.Line, syn.Column, syn.Offset})
			assert.NotEmpty(t, syn.Reason)
			assert.Contains(t, err.Error(), syn.Reason)

			// The same bytes normalized: the same place.
			_, nerr := normalize.Normalize([]byte(tt.raw))
			var inv *normalize.InvalidJSONError
			require.True(t, errors.As(nerr, &inv), "%v", nerr)
			assert.Equal(t, []int{inv.Line, inv.Column, inv.Offset}, []int{syn.Line, syn.Column, syn.Offset})
		})
	}
}

// TestCheckWarningsAreNormalizes: Check gives exactly the warnings Normalize gives for the same
// message as messages[0], a kept message's duplicate_key warnings included.
func TestCheckWarningsAreNormalizes(t *testing.T) {
	cases := append(generatedMessages(), goldenMessages(t)...)
	cases = append(cases,
		`{"role":"user","content":"a","content":"b"}`,
		`{"role":"user","role":"assistant","content":"x","content":null}`,
		`{"role":"assistant","tool_calls":[{"id":"a","name":"f","name":"g"}]}`,
		`{"role":"assistant","tool_calls":[{"function":{"name":"f","name":"g","arguments":"{}"}}]}`,
		`{"role":"developer","content":"a","content":"b"}`,
	)
	dups := 0
	for _, raw := range cases {
		kept, ws, err := messages.Check([]byte(raw))
		require.NoError(t, err, raw)
		res, err := normalize.Normalize([]byte(`{"final_response":"x","messages":[` + raw + `]}`))
		require.NoError(t, err, raw)
		require.Equal(t, res.Messages() == 1, kept, raw)
		require.Equal(t, nonNil(res.Warnings()), nonNil(ws), raw)
		if kept && len(ws) > 0 {
			dups++
			for _, w := range ws {
				assert.Equal(t, softwarn.DuplicateKey, w.Code, raw)
			}
		}
	}
	require.GreaterOrEqual(t, dups, 4, "kept messages with duplicate keys were checked")
}

func nonNil(ws []softwarn.Warning) []softwarn.Warning {
	if ws == nil {
		return []softwarn.Warning{}
	}
	return ws
}

// TestRolesCannotChangeValidation: Roles is a copy; changing it changes neither the rules nor a
// later Roles.
func TestRolesCannotChangeValidation(t *testing.T) {
	roles := messages.Roles()
	require.Equal(t, []string{"system", "user", "assistant", "tool"}, roles)
	for i := range roles {
		roles[i] = "developer"
	}
	kept, w, err := checkOne(t, []byte(`{"role":"developer","content":"x"}`))
	require.NoError(t, err)
	assert.False(t, kept, "developer is not a role, whatever a caller does to Roles' slice")
	assert.Equal(t, softwarn.MessageRoleInvalid, w.Code)
	kept, _, err = checkOne(t, []byte(`{"role":"system","content":"x"}`))
	require.NoError(t, err)
	assert.True(t, kept)
	assert.Equal(t, []string{"system", "user", "assistant", "tool"}, messages.Roles())
}

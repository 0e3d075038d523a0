package messages_test

import (
	"errors"
	"fmt"
	"strings"
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
			assert.False(t, syn.TooDeep, "a syntax error is not nesting too deep")
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

// TestCheckJSONLines: messages one per line are refused as one value, with advice about
// messages: the scanner's advice is written for results ("send one result per input"), which
// would send a caller of Check the wrong way.
func TestCheckJSONLines(t *testing.T) {
	raw := "{\"role\":\"user\",\"content\":\"a\"}\n{\"role\":\"user\",\"content\":\"b\"}\n"
	_, _, err := messages.Check([]byte(raw))
	var syn *messages.SyntaxError
	require.ErrorAs(t, err, &syn)
	assert.Equal(t, []int{2, 1}, []int{syn.Line, syn.Column})
	assert.Contains(t, syn.Reason, "as in JSON Lines (one message per line): pass one message per call")
	assert.NotContains(t, syn.Reason, "result")

	// Normalize, given the same lines, keeps its advice about results.
	_, nerr := normalize.Normalize([]byte(raw))
	require.Error(t, nerr)
	assert.Contains(t, nerr.Error(), "send one result per input")
}

// TestCheckTooDeep: a message that nests deeper than it may inside a result is a *SyntaxError
// with TooDeep, as Normalize rejects the result that holds it with InvalidJSONError.TooDeep, at
// the same place; one level less is kept by both.
func TestCheckTooDeep(t *testing.T) {
	const prefix = `{"final_response":"x","messages":[`
	tests := []struct {
		name    string
		depth   int // of the message, itself included
		tooDeep bool
	}{
		{"at the limit inside a result", normalize.DefaultMaxDepth - 2, false},
		{"one level past it", normalize.DefaultMaxDepth - 1, true},
		{"at normalize's limit for a whole result", normalize.DefaultMaxDepth, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := nested(tt.depth)
			kept, _, err := messages.Check([]byte(raw))
			_, nerr := normalize.Normalize([]byte(prefix + raw + `]}`))
			if !tt.tooDeep {
				require.NoError(t, err)
				require.NoError(t, nerr)
				assert.True(t, kept)
				return
			}
			var syn *messages.SyntaxError
			require.ErrorAs(t, err, &syn)
			assert.True(t, syn.TooDeep, "a caller can tell the depth limit from a syntax error")
			assert.Contains(t, syn.Reason, fmt.Sprintf("nesting deeper than %d levels", normalize.DefaultMaxDepth-2))
			assert.Contains(t, syn.Reason, fmt.Sprintf("may nest %d", normalize.DefaultMaxDepth))
			var inv *normalize.InvalidJSONError
			require.ErrorAs(t, nerr, &inv)
			assert.True(t, inv.TooDeep)
			// The same place, in the message and in the result (one line, ASCII before it).
			assert.Equal(t, []int{inv.Line, inv.Column - len(prefix), inv.Offset - len(prefix)}, []int{syn.Line, syn.Column, syn.Offset})
		})
	}
}

// TestCheckTooManyDigits: an integer the platform's parser cannot read (normalize.MaxIntDigits)
// is a *SyntaxError with TooManyDigits, as Normalize rejects the result that holds it, at the
// same place; one digit fewer is kept by both.
func TestCheckTooManyDigits(t *testing.T) {
	const prefix = `{"final_response":"x","messages":[`
	digits := strings.Repeat("9", normalize.MaxIntDigits)
	kept, _, err := messages.Check([]byte(`{"role":"tool","tool_call_id":"c","content":[` + digits + `]}`))
	require.NoError(t, err)
	assert.True(t, kept)

	raw := `{"role":"tool","tool_call_id":"c","content":[-` + digits + `9]}`
	_, _, err = messages.Check([]byte(raw))
	var syn *messages.SyntaxError
	require.ErrorAs(t, err, &syn)
	assert.Equal(t, "invalid JSON at line 1, column 46 (byte offset 45): an integer of 4301 digits; Python's json, the platform's parser, reads at most 4300 (sys.get_int_max_str_digits()): send a number this long as a string", err.Error())
	assert.True(t, syn.TooManyDigits)
	assert.False(t, syn.TooDeep)
	_, nerr := normalize.Normalize([]byte(prefix + raw + `]}`))
	var inv *normalize.InvalidJSONError
	require.ErrorAs(t, nerr, &inv)
	assert.True(t, inv.TooManyDigits)
	assert.Equal(t, syn.Reason, inv.Reason)
	assert.Equal(t, []int{inv.Line, inv.Column - len(prefix), inv.Offset - len(prefix)}, []int{syn.Line, syn.Column, syn.Offset})
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
	// At the limits Normalize sets by default: past the warning cap, and at and past the depth
	// a message may nest inside a result (two levels down, in {"messages": [...]}).
	limits := []string{
		duplicated(normalize.DefaultMaxWarnings + 200),
		duplicated(normalize.DefaultMaxWarnings),
		duplicated(normalize.DefaultMaxWarnings + 1),
		nested(normalize.DefaultMaxDepth - 2),
		nested(normalize.DefaultMaxDepth - 1),
	}
	dups, limited, tooDeep := 0, 0, 0
	for _, raw := range append(cases, limits...) {
		label := short(raw)
		kept, ws, err := messages.Check([]byte(raw))
		res, nerr := normalize.Normalize([]byte(`{"final_response":"x","messages":[` + raw + `]}`))
		if nerr != nil { // only too deep: the cases are well-formed JSON
			var inv *normalize.InvalidJSONError
			require.ErrorAs(t, nerr, &inv, label)
			var syn *messages.SyntaxError
			require.ErrorAs(t, err, &syn, "Check keeps what Normalize rejects: %s", label)
			require.True(t, inv.TooDeep, label)
			require.True(t, syn.TooDeep, label)
			tooDeep++
			continue
		}
		require.NoError(t, err, label)
		require.Equal(t, res.NumMessages() == 1, kept, label)
		require.Equal(t, nonNil(res.Warnings()), nonNil(ws), label)
		if kept && len(ws) > 0 {
			dups++
			for _, w := range ws[:len(ws)-1] {
				assert.Equal(t, softwarn.DuplicateKey, w.Code, label)
			}
			if last := ws[len(ws)-1]; last.Code == softwarn.WarningsLimited {
				limited++
				assert.Len(t, ws, normalize.DefaultMaxWarnings+1, label)
			} else {
				assert.Equal(t, softwarn.DuplicateKey, last.Code, label)
			}
		}
	}
	require.GreaterOrEqual(t, dups, 4, "kept messages with duplicate keys were checked")
	require.Equal(t, 2, limited, "messages past the warning cap were checked")
	require.Equal(t, 1, tooDeep, "a message too deep inside a result was checked")
}

// duplicated is a kept message with n duplicate_key warnings: n keys, each given twice.
func duplicated(n int) string {
	var b strings.Builder
	b.WriteString(`{"role":"user"`)
	for range 2 {
		for i := range n {
			fmt.Fprintf(&b, `,"k%d":%d`, i, i)
		}
	}
	return b.String() + `}`
}

// nested is a kept message that nests depth levels of arrays and objects, itself included.
func nested(depth int) string {
	return `{"role":"user","content":"x","x":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
}

// short is raw cut for a failure's message.
func short(raw string) string {
	if len(raw) > 100 {
		return raw[:100] + "…"
	}
	return raw
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

// A message of 2 GiB or more is refused before it is read, as a size and not as malformed JSON
// (the slice is never touched, so the allocation costs address space, not memory).
func TestCheckTooLarge(t *testing.T) {
	size := int64(1) << 31
	if int64(int(size)) != size {
		t.Skip("no slice of 2 GiB where int is 32 bits: the refusal cannot happen there")
	}
	kept, warnings, err := messages.Check(make([]byte, int(size)))
	assert.False(t, kept)
	assert.Empty(t, warnings)
	var syn *messages.SyntaxError
	require.ErrorAs(t, err, &syn)
	assert.True(t, syn.TooLarge)
	assert.False(t, syn.TooDeep)
	assert.Equal(t, "too large: a message of 2147483648 bytes; expected under 2 GiB (offsets are kept in 32 bits)", err.Error())
}

package jsonscan

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMaxIntDigits: an integer literal of more than MaxIntDigits digits, its sign not counted,
// is an error at the number's start, as the platform's parser (CPython's json) cannot read it;
// a number with a fraction or an exponent is a float there, and passes at any length.
func TestMaxIntDigits(t *testing.T) {
	at := strings.Repeat("7", MaxIntDigits)
	const past = "an integer of 4301 digits; Python's json, the platform's parser, reads at most 4300 (sys.get_int_max_str_digits()): send a number this long as a string"
	tests := []struct {
		name, in string
		offset   int
		reason   string // "" when the input is valid
	}{
		{"at the limit", at, 0, ""},
		{"negative at the limit", "-" + at, 0, ""},
		{"past the limit", at + "7", 0, past},
		{"negative past the limit: at the sign", "-" + at + "7", 0, past},
		{"inside an array", "[1, " + at + "7]", 4, past},
		{"an object member", `{"a":` + at + `1}`, 5, past},
		{"far past the limit", "1" + strings.Repeat("0", 100_000), 0, "an integer of 100001 digits; Python's json, the platform's parser, reads at most 4300 (sys.get_int_max_str_digits()): send a number this long as a string"},
		{"a fraction: a float", at + "7.5", 0, ""},
		{"an exponent: a float", at + "7e0", 0, ""},
		{"a fraction and an exponent", "-" + at + "7.0E-4000", 0, ""},
		{"long fraction digits", "0." + at + "7", 0, ""},
		{"long exponent digits", "1e" + at + "7", 0, ""},
		{"a syntax error first", at + "7.", len(at) + 2, "unexpected end of input after a decimal point; expected a digit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Scanner
			s.Reset([]byte(tt.in), 10)
			s.SkipValue()
			s.AtEnd()
			if tt.reason == "" {
				assert.Nil(t, s.Err())
				return
			}
			e := s.Err()
			if assert.NotNil(t, e) {
				assert.Equal(t, tt.reason, e.Reason)
				assert.Equal(t, tt.offset, e.Offset)
				assert.Equal(t, strings.HasPrefix(tt.reason, "an integer"), e.TooManyDigits)
			}
		})
	}
	assert.True(t, IsNumber([]byte("-"+at)))
	assert.False(t, IsNumber([]byte(at+"1")), "the platform's parser does not read it")
}

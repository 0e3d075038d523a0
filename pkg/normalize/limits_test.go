package normalize_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// TestTooManyDigitsError: an integer literal the platform's parser cannot read (past
// MaxIntDigits, its sign not counted) is InvalidJSON at the number's start, in the error object
// byte for byte; JSON validity comes before shape, at the top level too.
func TestTooManyDigitsError(t *testing.T) {
	past := strings.Repeat("8", normalize.MaxIntDigits+1)
	const reason = "an integer of 4301 digits; Python's json, the platform's parser, reads at most 4300 (sys.get_int_max_str_digits()): send a number this long as a string"
	object := func(line, column, offset string) string {
		return `{"error":{"class":"InvalidJSON","message":"invalid JSON at line ` + line + `, column ` + column + ` (byte offset ` + offset + `): ` + reason + `","line":` + line + `,"column":` + column + `,"offset":` + offset + `}}`
	}
	tests := []struct{ name, input, want string }{
		{"a token count", `{"final_response":"ok","metadata":{"total_input_tokens":` + past + `}}`, object("1", "57", "56")},
		{"negative, in content, after non-ASCII on the line before",
			"{\"final_response\":\"é\",\n\"messages\":[{\"role\":\"user\",\"content\":[-" + past + "]}]}", object("2", "39", "62")},
		{"the whole result", past, object("1", "1", "0")},
		{"the first of two", `{"final_response":"ok","metadata":{"a":` + past + `,"b":` + past + `}}`, object("1", "40", "39")},
		{"after a syntax error", `{"final_response":"ok",,"metadata":{"a":` + past + `}}`,
			`{"error":{"class":"InvalidJSON","message":"invalid JSON at line 1, column 24 (byte offset 23): unexpected character ','; expected a string key in double quotes","line":1,"column":24,"offset":23}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := normalize.Normalize([]byte(tt.input))
			assert.Equal(t, tt.want, string(normalize.AppendError(nil, err)))
		})
	}
}

// TestTooDeepError: nesting past the limit is InvalidJSON where the level past it opens, in the
// error object byte for byte; the default limit's message says where its number comes from.
func TestTooDeepError(t *testing.T) {
	deep := func(n int) string {
		return `{"final_response":"ok","metadata":{"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}}`
	}
	tests := []struct {
		name  string
		input string
		opts  []normalize.Option
		want  string
	}{
		{"the default limit", deep(normalize.DefaultMaxDepth - 1), nil,
			`{"error":{"class":"InvalidJSON","message":"invalid JSON at line 1, column 938 (byte offset 937): nesting deeper than 900 levels of arrays and objects (the default limit, a margin under Python's json, the platform's parser, which reads at most 995 at its recursion limit, fewer the deeper it is called)","line":1,"column":938,"offset":937}}`},
		{"the default limit, set", deep(normalize.DefaultMaxDepth - 1), []normalize.Option{normalize.WithMaxDepth(normalize.DefaultMaxDepth)},
			`{"error":{"class":"InvalidJSON","message":"invalid JSON at line 1, column 938 (byte offset 937): nesting deeper than 900 levels of arrays and objects (the default limit, a margin under Python's json, the platform's parser, which reads at most 995 at its recursion limit, fewer the deeper it is called)","line":1,"column":938,"offset":937}}`},
		{"another limit", deep(3), []normalize.Option{normalize.WithMaxDepth(4)},
			`{"error":{"class":"InvalidJSON","message":"invalid JSON at line 1, column 42 (byte offset 41): nesting deeper than 4 levels of arrays and objects","line":1,"column":42,"offset":41}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := normalize.Normalize([]byte(tt.input), tt.opts...)
			assert.Equal(t, tt.want, string(normalize.AppendError(nil, err)))
		})
	}
	_, err := normalize.Normalize([]byte(deep(normalize.DefaultMaxDepth - 2)))
	assert.NoError(t, err, "at the limit")
}

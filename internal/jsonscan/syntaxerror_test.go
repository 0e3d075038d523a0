package jsonscan

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLineColumn: an error at a byte offset is placed as Python's json module places it (the
// expected values are json.JSONDecodeError's lineno and colno for the same text and place):
// lines count '\n's before the error, columns count characters, not bytes, since the line's
// start.
func TestLineColumn(t *testing.T) {
	tests := []struct {
		name, in     string
		offset       int
		line, column int
	}{
		{"empty input", ``, 0, 1, 1},
		{"first byte", `x`, 0, 1, 1},
		{"first line", `{"a":1,}`, 7, 1, 8},
		{"start of the second line", "{\"a\":1,\n}", 8, 2, 1},
		{"on the '\\n' itself", "[1\n]", 2, 1, 3},
		{"after multi-byte characters", "{\"a\":\"héllo 😀\" x}", 19, 1, 16},
		{"third line after non-ASCII lines", "[\"é\",\n\"😀\",\n  \"ü\" x]", 22, 3, 7},
		{"CRLF: the \\r ends the line before", "[1,\r\n2 x]", 7, 2, 3},
		{"at the end of the input", "{\"a\":\n\"é\"", 10, 2, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &SyntaxError{Offset: tt.offset, Reason: "test"}
			line, column := e.LineColumn([]byte(tt.in))
			assert.Equal(t, []int{tt.line, tt.column}, []int{line, column})
		})
	}
}

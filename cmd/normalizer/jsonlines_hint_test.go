package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file of several results, one per line, given to normalize without --jsonl: the reason on
// standard error and the text report name --jsonl; the error object on standard output stays
// the core's, the same bytes `check` and --jsonl write for the input. Other rejections get
// nothing added.
func TestJSONLinesFileNamesTheFlag(t *testing.T) {
	const lines = "{\"final_response\":\"a\"}\n{\"final_response\":\"b\"}\n"
	const core = "unexpected character '{' after the top-level value; expected exactly one JSON value; " +
		"another JSON value starts on this line, as in JSON Lines (one result per line): send one result per input"
	const flag = "; for a file of one result per line, use normalize --jsonl"
	tests := []struct {
		name, stdin   string
		args          []string
		stdoutHas     string
		stdoutHasNot  string
		stderrHas     string
		stderrHasNot  string
		wantLineCount int // lines on standard output
	}{
		{name: "json", stdin: lines, args: []string{"normalize"},
			stdoutHas: core + `","line":2,"column":1,"offset":23}}`, stdoutHasNot: "--jsonl",
			stderrHas: core + flag + "\n", wantLineCount: 1},
		{name: "text report", stdin: lines, args: []string{"normalize", "--format", "text"},
			stdoutHas: core + flag + "\n", stderrHas: core + flag + "\n"},
		{name: "two values on one line", stdin: `{"final_response":"a"} {"final_response":"b"}`, args: []string{"normalize"},
			stdoutHas: "expected exactly one JSON value", stdoutHasNot: "JSON Lines", stderrHasNot: "--jsonl", wantLineCount: 1},
		{name: "another rejection", stdin: `[]`, args: []string{"normalize"}, stdoutHas: "the result is an array", stderrHasNot: "--jsonl", wantLineCount: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, tt.stdin, nil, tt.args...)
			require.Equal(t, 1, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			assert.Contains(t, r.stdout, tt.stdoutHas)
			if tt.stdoutHasNot != "" {
				assert.NotContains(t, r.stdout, tt.stdoutHasNot)
			}
			if tt.stderrHas != "" {
				assert.Contains(t, r.stderr, tt.stderrHas)
			}
			if tt.stderrHasNot != "" {
				assert.NotContains(t, r.stderr, tt.stderrHasNot)
			}
			if tt.wantLineCount > 0 {
				assert.Equal(t, tt.wantLineCount, strings.Count(r.stdout, "\n"))
			}
		})
	}
}

// With --jsonl the same lines are two results, each normalized; no line is one too many.
func TestJSONLinesFileWithTheFlag(t *testing.T) {
	r := runCmd(t, "{\"final_response\":\"a\"}\n{\"final_response\":\"b\"}\n", nil, "normalize", "--jsonl")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, 2, strings.Count(r.stdout, `"rich_mode":false}`), r.stdout)
}

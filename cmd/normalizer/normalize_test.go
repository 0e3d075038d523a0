package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	okInput    = `{"final_response":"done","messages":[{"role":"user","content":"hi"}],"metadata":{"model":"m"}}`
	okRecord   = `{"final_response":"done","messages":[{"role":"user","content":"hi"}],"metadata":{"model":"m"},"soft_warnings":[],"rich_mode":true}` + "\n"
	dirtyInput = `{"final_response":"x","messages":[{"role":"developer","content":"be brief"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`
)

func TestNormalize(t *testing.T) {
	file := writeFile(t, "in.json", okInput)
	big := writeFile(t, "big.json", `"`+strings.Repeat("a", 100)+`"`)
	tests := []struct {
		name       string
		args       []string
		stdin      string
		env        map[string]string
		code       int
		stdout     string // exact, unless empty
		stdoutHas  []string
		stderrHas  []string
		stderrNone bool
	}{
		{name: "stdin", args: []string{"normalize"}, stdin: okInput, code: 0, stdout: okRecord, stderrNone: true},
		{name: "stdin dash", args: []string{"normalize", "-"}, stdin: okInput, code: 0, stdout: okRecord},
		{name: "file", args: []string{"normalize", file}, code: 0, stdout: okRecord},
		{name: "bare string", args: []string{"normalize"}, stdin: `"hello"`, code: 0,
			stdout: `{"final_response":"hello","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}` + "\n"},
		{name: "invalid JSON", args: []string{"normalize"}, stdin: `{"final_response":`, code: 1,
			stdoutHas: []string{`{"error":{"class":"InvalidJSON","message":"invalid JSON at line 1, column 19`},
			stderrHas: []string{"normalizer: standard input rejected: InvalidJSON: invalid JSON at line 1, column 19"}},
		{name: "empty input", args: []string{"normalize"}, stdin: "", code: 1,
			stdoutHas: []string{`"class":"InvalidJSON"`}},
		{name: "shape", args: []string{"normalize", "-"}, stdin: `{"output":"x"}`, code: 1,
			stdoutHas: []string{`{"error":{"class":"ResponseShapeError","message":"the result object has no \"final_response\" key`},
			stderrHas: []string{"rejected: ResponseShapeError: "}},
		{name: "empty answer", args: []string{"normalize"}, stdin: `{"final_response":""}`, code: 1,
			stdoutHas: []string{"Handler returned an empty string for final_response."}},
		{name: "max-bytes", args: []string{"normalize", "--max-bytes", "50", big}, code: 1,
			stdout:    `{"error":{"class":"PayloadTooLarge","message":"payload of 102 bytes is over the limit of 50 bytes; send a smaller result or raise the limit","limit":50}}` + "\n",
			stderrHas: []string{big + " rejected: PayloadTooLarge: payload of 102 bytes"}},
		// A pipe is read no further than the limit plus one byte: its size is then a lower bound.
		{name: "max-bytes on a pipe", args: []string{"normalize", "--max-bytes", "50"}, stdin: `"` + strings.Repeat("a", 100) + `"`, code: 1,
			stdout:    `{"error":{"class":"PayloadTooLarge","message":"payload of more than 50 bytes is over the limit of 50 bytes; send a smaller result or raise the limit","limit":50}}` + "\n",
			stderrHas: []string{"standard input rejected: PayloadTooLarge: payload of more than 50 bytes"}},
		{name: "max-bytes with unit", args: []string{"normalize", "--max-bytes=1KiB", big}, code: 0},
		{name: "max-bytes 0 is no limit", args: []string{"normalize", "--max-bytes", "0", big}, env: map[string]string{"NORMALIZER_MAX_BYTES": "10"}, code: 0},
		{name: "env gives the default", args: []string{"normalize", big}, env: map[string]string{"NORMALIZER_MAX_BYTES": "50"}, code: 1,
			stdoutHas: []string{`"limit":50`}},
		{name: "flag beats env", args: []string{"normalize", big, "--max-bytes", "200"}, env: map[string]string{"NORMALIZER_MAX_BYTES": "50"}, code: 0},
		{name: "bad env", args: []string{"normalize"}, env: map[string]string{"NORMALIZER_MAX_BYTES": "lots"}, code: 2,
			stderrHas: []string{`NORMALIZER_MAX_BYTES: found "lots", expected a whole number of bytes`}},
		{name: "max-depth", args: []string{"normalize", "--max-depth", "2"}, stdin: `{"final_response":"a","metadata":{"a":[1]}}`, code: 1,
			stdoutHas: []string{`"class":"InvalidJSON"`}},
		{name: "max-depth enough", args: []string{"normalize", "--max-depth", "3"}, stdin: `{"final_response":"a","metadata":{"a":[1]}}`, code: 0},
		{name: "explain", args: []string{"normalize", "--explain"}, stdin: dirtyInput, code: 0,
			stdoutHas: []string{`"rich_mode":true,"diagnostics":[{"path":"messages[0].role","pointer":"/messages/0/role","code":"message_role_invalid","action":"dropped"`, `"code":"tool_call_unanswered"`}},
		{name: "format json", args: []string{"normalize", "--format", "json"}, stdin: okInput, code: 0, stdout: okRecord},
		{name: "format text", args: []string{"normalize", "--format", "text"}, stdin: dirtyInput, code: 0,
			stdoutHas: []string{"standard input: accepted, 1 warning, 1 note\n",
				"\n  messages[0].role: found \"developer\"; expected one of \"system\", \"user\", \"assistant\", \"tool\"; fix: ",
				"\n  messages[1].tool_calls[0]: tool call \"f\" (id \"c1\") has no tool message answering it; fix: "}},
		{name: "format text rejected", args: []string{"normalize", "--format=text"}, stdin: `[]`, code: 1,
			stdoutHas: []string{"standard input: rejected, ResponseShapeError\n", "\n  fix: "},
			stderrHas: []string{"rejected: ResponseShapeError"}},
		{name: "flags after the file", args: []string{"normalize", file, "--explain"}, code: 0, stdoutHas: []string{`"diagnostics":[]`}},
		{name: "-- ends flags", args: []string{"normalize", "--", file}, code: 0, stdout: okRecord},
		{name: "missing file", args: []string{"normalize", "/nonexistent/in.json"}, code: 2,
			stderrHas: []string{"normalizer: read input /nonexistent/in.json: no such file or directory\n"}},
		{name: "directory", args: []string{"normalize", t.TempDir()}, code: 2, stderrHas: []string{"is a directory, expected a file"}},
		{name: "two files", args: []string{"normalize", file, file}, code: 2, stderrHas: []string{"found 2 files"}},
		{name: "unknown flag", args: []string{"normalize", "--frobnicate"}, code: 2,
			stderrHas: []string{"normalize: flag provided but not defined: --frobnicate; run 'normalizer normalize -h'"}},
		{name: "bad format", args: []string{"normalize", "--format", "yaml"}, code: 2, stderrHas: []string{`--format "yaml": expected json or text`}},
		{name: "text with jsonl", args: []string{"normalize", "--jsonl", "--format", "text"}, code: 2, stderrHas: []string{"--format text is a report for one result"}},
		{name: "bad -j", args: []string{"normalize", "--jsonl", "-j", "0"}, code: 2, stderrHas: []string{"-j 0: expected 1 or more"}},
		{name: "-j without --jsonl", args: []string{"normalize", "-j", "3", file}, code: 2,
			stderrHas: []string{"normalizer: normalize: -j 3: workers apply only with --jsonl (one result is normalized on one core); add --jsonl for a file of one result per line, or drop -j\n"}},
		{name: "-j with --jsonl after it", args: []string{"normalize", "-j", "1", file, "--jsonl"}, code: 0, stdout: okRecord},
		{name: "bad max-depth", args: []string{"normalize", "--max-depth", "0"}, code: 2},
		{name: "bad max-bytes", args: []string{"normalize", "--max-bytes", "-5"}, code: 2, stderrHas: []string{`invalid value "-5" for flag --max-bytes`}},
		{name: "help", args: []string{"normalize", "-h"}, code: 0, stdoutHas: []string{"Usage: normalizer normalize [flags] [FILE]", "--max-bytes SIZE", "Exit codes: 0"}, stderrNone: true},
		{name: "help long", args: []string{"normalize", "--help"}, code: 0, stdoutHas: []string{"Usage: normalizer normalize"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, tt.stdin, tt.env, tt.args...)
			require.Equal(t, tt.code, r.code, "exit code; stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			if tt.stdout != "" {
				assert.Equal(t, tt.stdout, r.stdout)
			}
			for _, s := range tt.stdoutHas {
				assert.Contains(t, r.stdout, s)
			}
			for _, s := range tt.stderrHas {
				assert.Contains(t, r.stderr, s)
			}
			if tt.stderrNone {
				assert.Empty(t, r.stderr)
			}
			if tt.code == 1 {
				assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "a rejection has a one-line reason on stderr")
				if !strings.Contains(strings.Join(tt.args, " "), "text") {
					assert.True(t, json.Valid([]byte(r.stdout)), "the error object is JSON: %s", r.stdout)
					assert.True(t, strings.HasSuffix(r.stdout, "}\n"))
				}
			}
		})
	}
}

func TestParseByteSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  string
	}{
		{in: "0", want: 0},
		{in: "1048576", want: 1 << 20},
		{in: "20MiB", want: 20 << 20},
		{in: "512 KiB", want: 512 << 10},
		{in: "1GiB", want: 1 << 30},
		{in: "5MB", want: 5_000_000},
		{in: "2M", want: 2 << 20},
		{in: "1e6", want: 1_000_000},
		{in: "100B", want: 100},
		{in: "1.5", err: "expected a whole number of bytes"},
		{in: "x", err: "expected a whole number of bytes"},
		{in: "-1", err: "expected a size of 0 or more"},
		{in: "9000000000GiB", err: "below 8 EiB"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseByteSize(tt.in)
			if tt.err != "" {
				require.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestTopLevel(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{name: "no command", args: nil, code: 2, stderr: "Usage:"},
		{name: "help", args: []string{"help"}, code: 0, stdout: "normalizer normalize [--jsonl]"},
		{name: "-h", args: []string{"-h"}, code: 0, stdout: "Run 'normalizer COMMAND -h'"},
		{name: "unknown", args: []string{"frob"}, code: 2, stderr: `unknown command "frob"`},
		{name: "help normalize", args: []string{"help", "normalize"}, code: 0, stdout: "Usage: normalizer normalize [flags] [FILE]\n"},
		{name: "help check", args: []string{"help", "check"}, code: 0, stdout: "Usage: normalizer check "},
		{name: "help version", args: []string{"help", "version"}, code: 0, stdout: "Usage: normalizer version"},
		{name: "help of an unknown command", args: []string{"help", "frob"}, code: 2, stderr: `unknown command "frob"; run 'normalizer help'`},
		{name: "help -h", args: []string{"help", "-h"}, code: 0, stdout: "Run 'normalizer COMMAND -h'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", nil, tt.args...)
			assert.Equal(t, tt.code, r.code)
			assert.Contains(t, r.stdout, tt.stdout)
			assert.Contains(t, r.stderr, tt.stderr)
		})
	}
}

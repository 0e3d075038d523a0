package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/jsonlgen"
)

// mixedLines are a few thousand lines of every sort: valid, dirty, malformed, blank, and
// longer than the limit of 8000 bytes the tests set.
func mixedLines(t *testing.T) []string {
	t.Helper()
	g := jsonlgen.New(42, true)
	var lines []string
	for i := range 3000 {
		switch i % 250 {
		case 17:
			lines = append(lines, "")
		case 99:
			lines = append(lines, `{"final_response":"`+strings.Repeat("long ", 3000)+`"}`)
		case 123:
			lines = append(lines, `{"final_response":"crlf line"}`+"\r")
		default:
			lines = append(lines, string(g.Line(nil)))
		}
	}
	return lines
}

func TestJSONLMatchesSingleMode(t *testing.T) {
	lines := mixedLines(t)
	var want strings.Builder
	tooLarge, invalid := 0, 0
	// Each line alone in a file: single mode reads a pipe no further than the limit plus one
	// byte, so from a pipe a line over the limit is "more than 8000 bytes", where the file's
	// size is known, as --jsonl knows the line's.
	one := filepath.Join(t.TempDir(), "line.json")
	for _, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		require.NoError(t, os.WriteFile(one, []byte(l), 0o644))
		r := runCmd(t, "", nil, "normalize", "--max-bytes", "8000", "--explain", one)
		require.Contains(t, []int{0, 1}, r.code, r.stderr)
		tooLarge += strings.Count(r.stdout, `"class":"PayloadTooLarge"`)
		invalid += strings.Count(r.stdout, `"class":"InvalidJSON"`)
		want.WriteString(r.stdout)
	}
	require.Positive(t, tooLarge)
	require.Positive(t, invalid)
	input := writeFile(t, "in.jsonl", strings.Join(lines, "\n")+"\n")
	for _, jobs := range []string{"1", "4"} {
		t.Run("j="+jobs, func(t *testing.T) {
			r := runCmd(t, "", nil, "normalize", "--jsonl", "-j", jobs, "--max-bytes", "8000", "--explain", input)
			require.Equal(t, 0, r.code, r.stderr)
			require.Equal(t, want.String(), r.stdout)
			assert.Contains(t, r.stderr, fmt.Sprintf("normalizer: %d lines, ", len(lines)))
			assert.Contains(t, r.stderr, fmt.Sprintf("PayloadTooLarge %d", tooLarge))
			assert.Contains(t, r.stderr, fmt.Sprintf("InvalidJSON %d", invalid))
		})
	}
	t.Run("stdin", func(t *testing.T) {
		r := runCmd(t, readFile(t, input), nil, "normalize", "--max-bytes", "8000", "--explain", "--jsonl")
		require.Equal(t, 0, r.code, r.stderr)
		require.Equal(t, want.String(), r.stdout)
	})
}

func TestJSONLSummary(t *testing.T) {
	input := strings.Join([]string{
		`{"final_response":"ok"}`,
		`{"final_response":"a","messages":[{"role":"developer"}]}`,
		`{"final_response":"` + strings.Repeat("x", 50_001) + `"}`,
		`{"output":"x"}`,
		`{`,
		``,
		`"` + strings.Repeat("y", 100) + `"`,
	}, "\n")
	r := runCmd(t, input, map[string]string{"NORMALIZER_MAX_BYTES": "60000"}, "normalize", "--jsonl", "--max-bytes", "90")
	require.Equal(t, 0, r.code, "rejected lines are data")
	assert.Equal(t, 7, strings.Count(r.stdout, "\n"))
	lines := strings.Split(r.stderr, "\n")
	require.Len(t, lines, 3, r.stderr)
	assert.Regexp(t, `^normalizer: 7 lines, 0\.1 MB in [0-9.]+s: [0-9]+ lines/s, [0-9.]+ MB/s$`, lines[0])
	assert.Equal(t, "normalizer: 2 records (1 soft warnings in 1 records, 0 truncated), 5 rejected (InvalidJSON 2, ResponseShapeError 1, PayloadTooLarge 2)", lines[1])

	r = runCmd(t, input, map[string]string{"NORMALIZER_MAX_BYTES": "60000"}, "normalize", "--jsonl")
	require.Equal(t, 0, r.code)
	assert.Contains(t, r.stderr, "normalizer: 4 records (2 soft warnings in 2 records, 1 truncated), 3 rejected (InvalidJSON 2, ResponseShapeError 1)")
}

type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestJSONLIOErrors(t *testing.T) {
	t.Run("write", func(t *testing.T) {
		var stderr bytes.Buffer
		err := run(context.Background(), []string{"normalize", "--jsonl"}, func(string) string { return "" },
			strings.NewReader(`"a"`+"\n"), brokenWriter{}, &stderr)
		assert.Equal(t, 2, exitCode(err, &stderr))
		assert.Contains(t, stderr.String(), "normalizer: write output: broken pipe")
	})
	t.Run("read", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		in := io.MultiReader(strings.NewReader(`"a"`+"\n"), iotest.ErrReader(errors.New("input/output error")))
		err := run(context.Background(), []string{"normalize", "--jsonl"}, func(string) string { return "" }, in, &stdout, &stderr)
		assert.Equal(t, 2, exitCode(err, &stderr))
		assert.Contains(t, stderr.String(), "normalizer: read input: input/output error")
		assert.Contains(t, stdout.String(), `"final_response":"a"`, "lines read before the error are written")
	})
	t.Run("single mode read", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"normalize"}, func(string) string { return "" },
			iotest.ErrReader(errors.New("input/output error")), &stdout, &stderr)
		assert.Equal(t, 2, exitCode(err, &stderr))
		assert.Contains(t, stderr.String(), "normalizer: read standard input: input/output error")
	})
	t.Run("single mode write", func(t *testing.T) {
		var stderr bytes.Buffer
		err := run(context.Background(), []string{"normalize"}, func(string) string { return "" },
			strings.NewReader(`"a"`), brokenWriter{}, &stderr)
		assert.Equal(t, 2, exitCode(err, &stderr))
	})
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var stdout, stderr bytes.Buffer
		err := run(ctx, []string{"normalize", "--jsonl"}, func(string) string { return "" },
			strings.NewReader(strings.Repeat(`"a"`+"\n", 1000)), &stdout, &stderr)
		assert.Equal(t, 2, exitCode(err, &stderr))
		assert.Contains(t, stderr.String(), "normalizer: interrupted after ")
	})
}

func TestJSONLProgress(t *testing.T) {
	defer func(f func(io.Writer) bool) { isTerminal = f }(isTerminal)
	isTerminal = func(io.Writer) bool { return true }
	input := writeFile(t, "in.jsonl", strings.Repeat(`{"final_response":"ok"}`+"\n", 5000))
	r := runCmd(t, "", nil, "normalize", "--jsonl", input)
	require.Equal(t, 0, r.code)
	assert.Contains(t, r.stderr, "5000 lines", "the bar shows the lines")
	assert.Contains(t, r.stderr, "/120 kB", "the bar shows the bytes")
	assert.Contains(t, r.stderr, "B/s", "the bar shows the rate")
	assert.Contains(t, r.stderr, "normalizer: 5000 records")
	assert.Equal(t, 5000, strings.Count(r.stdout, "\n"))
}

// widenASCII writes ASCII text as UTF-16 (width 2) or UTF-32 (width 4) writes it, the
// character's byte first (little-endian) or last (big-endian).
func widenASCII(s string, width int, big bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		unit := make([]byte, width)
		if big {
			unit[width-1] = s[i]
		} else {
			unit[0] = s[i]
		}
		b.Write(unit)
	}
	return b.String()
}

// A file in UTF-16 or UTF-32 gives one output line per line of its text, each naming the
// file's encoding (never the other byte order, which the bytes after each 0A looked like), and
// one line on standard error that names it and the command that converts the file; exit 0, as
// for any rejected line.
func TestJSONLWideInput(t *testing.T) {
	const two = "{\"final_response\":\"a\"}\n{\"final_response\":\"b\"}\n"
	tests := []struct {
		name, input string
		file        bool
		lines       int
		each        string // every output line holds it
		never       string // no output line holds it
		stderr      string
	}{
		{name: "UTF-16LE with a mark, as Python's .encode('utf-16') writes it", input: "\xff\xfe" + widenASCII(two, 2, false), file: true, lines: 2,
			each:   "the input starts with the bytes FF FE, the byte order mark of UTF-16 (little-endian, as Windows PowerShell's Out-File and '>' write); expected UTF-8: send UTF-8 without a byte order mark",
			never:  "big-endian",
			stderr: "normalizer: the input starts with the bytes FF FE, the byte order mark of UTF-16 (little-endian, as Windows PowerShell's Out-File and '>' write); its lines were cut where UTF-16 (little-endian) ends a line, and every one was rejected; convert the input first: iconv -f UTF-16 -t UTF-8 "},
		{name: "UTF-16LE with a mark and CRLF, as PowerShell writes it", input: "\xff\xfe" + widenASCII(strings.ReplaceAll(two, "\n", "\r\n"), 2, false), lines: 2,
			each: "or convert the file: iconv -f UTF-16 -t UTF-8", never: "big-endian",
			stderr: "convert the input first: ... | iconv -f UTF-16 -t UTF-8 | normalizer normalize --jsonl\n"},
		{name: "UTF-16LE without a mark", input: widenASCII(two, 2, false), lines: 2,
			each: "it looks like UTF-16 (little-endian) without a byte order mark, as Python's .encode('utf-16-le') and .NET's Encoding.Unicode.GetBytes write it", never: "PowerShell",
			stderr: "iconv -f UTF-16LE -t UTF-8 | normalizer normalize --jsonl\n"},
		{name: "UTF-16BE without a mark", input: widenASCII(two, 2, true), lines: 2,
			each: "it looks like UTF-16 (big-endian) without a byte order mark", never: "little-endian",
			stderr: "iconv -f UTF-16BE -t UTF-8 | normalizer normalize --jsonl\n"},
		{name: "UTF-32LE without a mark, three lines", input: widenASCII(two+`"c"`, 4, false), lines: 3,
			each: "it looks like UTF-32 (little-endian) without a byte order mark", never: "UTF-16",
			stderr: "iconv -f UTF-32LE -t UTF-8 | normalizer normalize --jsonl\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, stdin := []string{"normalize", "--jsonl"}, tt.input
			if tt.file {
				args, stdin = append(args, writeFile(t, "in.jsonl", tt.input)), ""
			}
			r := runCmd(t, stdin, nil, args...)
			require.Equal(t, 0, r.code, r.stderr)
			lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
			require.Len(t, lines, tt.lines, r.stdout)
			for i, l := range lines {
				assert.Contains(t, l, `{"error":{"class":"InvalidJSON","message":"invalid JSON at line 1, column 1 (byte offset 0): the input is not UTF-8, so neither is this line: `, "line %d", i+1)
				assert.Contains(t, l, tt.each, "line %d", i+1)
				assert.NotContains(t, l, tt.never, "line %d", i+1)
			}
			assert.Contains(t, r.stderr, fmt.Sprintf("normalizer: %d lines, ", tt.lines))
			assert.Contains(t, r.stderr, fmt.Sprintf("%d rejected (InvalidJSON %d)", tt.lines, tt.lines))
			assert.Contains(t, r.stderr, tt.stderr)
		})
	}
}

// A file's name in the conversion command on standard error is quoted for the shell when it
// needs to be.
func TestJSONLWideInputFileName(t *testing.T) {
	path := writeFile(t, "it's my file.jsonl", "\xff\xfe"+widenASCII(`"a"`, 2, false))
	r := runCmd(t, "", nil, "normalize", "--jsonl", path)
	require.Equal(t, 0, r.code, r.stderr)
	quoted := "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
	assert.Contains(t, r.stderr, "iconv -f UTF-16 -t UTF-8 "+quoted+" | normalizer normalize --jsonl\n")
}

// The file name in the conversion command is one word that bash reads back as the name, on
// one line, with no byte that a terminal would act on, and never an option to iconv or a zsh
// =command expansion.
func TestShellWord(t *testing.T) {
	tests := []struct{ name, file, want string }{
		{"plain", "results.jsonl", "results.jsonl"},
		{"a path", "/data/run-1/results.jsonl", "/data/run-1/results.jsonl"},
		{"a space", "my results.jsonl", "'my results.jsonl'"},
		{"a quote", "it's.jsonl", `'it'\''s.jsonl'`},
		{"a leading dash", "-n.jsonl", "./-n.jsonl"},
		{"a leading dash and a space", "-n x.jsonl", "'./-n x.jsonl'"},
		{"a leading equals sign", "=ls", "./=ls"},
		{"an equals sign inside", "a=b.jsonl", "a=b.jsonl"},
		{"an absolute name with a dash", "/tmp/-n", "/tmp/-n"},
		{"a newline", "a\nb.jsonl", `$'a\x0Ab.jsonl'`},
		{"an escape sequence", "a\x1b[2Jb", `$'a\x1B[2Jb'`},
		{"a quote and a backslash among control bytes", "it's\\\t", `$'it\'s\\\x09'`},
		{"a C1 control", "a\u009bb", `$'a\xC2\x9Bb'`},
		{"right-to-left override", "a\u202eb", `$'a\xE2\x80\xAEb'`},
		{"not UTF-8", "a\xffb", `$'a\xFFb'`},
		{"a dash and a tab", "-\tx", `$'./-\x09x'`},
		{"Unicode letters", "résumé.jsonl", "'résumé.jsonl'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shellWord(tt.file)
			assert.Equal(t, tt.want, got)
			out, err := exec.Command("bash", "-c", "printf %s "+got).Output()
			require.NoError(t, err)
			want := tt.file
			if strings.HasPrefix(want, "-") || strings.HasPrefix(want, "=") {
				want = "./" + want
			}
			assert.Equal(t, want, string(out), "what bash reads back")
		})
	}
}

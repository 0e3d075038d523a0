package golden

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// upper is a stand-in renderer: the golden output of an input is its upper case.
func upper(_ string, in []byte) []byte { return bytes.ToUpper(in) }

// testOptions render with upper and report into out, with hints that name the operand.
func testOptions(out *bytes.Buffer) Options {
	return Options{
		Render: upper, Out: out,
		UpdateHint: func(operand string) string { return "update " + operand },
		ListHint:   "ask to list them",
	}
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	return dir
}

// withDir replaces DIR in each of ss by dir.
func withDir(ss []string, dir string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ReplaceAll(s, "DIR", dir)
	}
	return out
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		want   Report   // DIR in a path is the directory checked
		report []string // substrings of the report, in order
	}{
		{
			name:   "all pass, nested",
			files:  map[string]string{"a.input.json": `{"x":1}`, "a.golden.json": `{"X":1}`, "sub/b.input.json": "b\n", "sub/b.golden.json": "B\n"},
			want:   Report{Passed: 2},
			report: []string{"2 passed, 0 failed\n"},
		},
		{
			name:   "mismatch shows a diff of the indented JSON",
			files:  map[string]string{"a.input.json": `{"k":"new","j":2}` + "\n", "a.golden.json": `{"K":"OLD","J":2}` + "\n"},
			want:   Report{Failed: 1},
			report: []string{"FAIL ", "a.input.json: output differs from a.golden.json; if the new output is right, update ", "--- ", "a.golden.json\n+++ normalize ", "-  \"K\": \"OLD\",\n+  \"K\": \"NEW\",\n   \"J\": 2\n", "0 passed, 1 failed\n"},
		},
		{
			name:   "missing final newline is shown",
			files:  map[string]string{"a.input.json": `{"k":1}` + "\n", "a.golden.json": `{"K":1}`},
			want:   Report{Failed: 1},
			report: []string{"-} (no newline at end of file)\n+}\n"},
		},
		{
			name:   "whitespace-only mismatch says so",
			files:  map[string]string{"a.input.json": `{"k":1}` + "\n", "a.golden.json": `{"K": 1}` + "\n"},
			want:   Report{Failed: 1},
			report: []string{"differ only in whitespace: 9 bytes against 8", "-{\"K\": 1}\n+{\"K\":1}\n"},
		},
		{
			name:   "missing golden",
			files:  map[string]string{"a.input.json": "x"},
			want:   Report{Failed: 1},
			report: []string{"a.input.json: no golden file a.golden.json; if the new output is right, update "},
		},
		{
			name:   "golden without input",
			files:  map[string]string{"a.input.json": "x", "a.golden.json": "X", "old.golden.json": "Y"},
			want:   Report{Passed: 1, Failed: 1},
			report: []string{"old.golden.json: no old.input.json beside it; add the input or delete the stale golden file\n", "1 passed, 1 failed\n"},
		},
		{
			name:   "other files are ignored; a directory of them checks nothing",
			files:  map[string]string{"README.md": "x", "a.json": "y"},
			want:   Report{Ignored: []string{"DIR/README.md", "DIR/a.json"}, Empty: []string{"DIR"}},
			report: []string{"0 passed, 0 failed; no cases found in ", " (no NAME.input.json under it); 2 files ignored (not NAME.input.json, NAME.golden.json or NAME.golden.txt): "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			var out bytes.Buffer
			got, err := Check(context.Background(), []string{dir}, testOptions(&out))
			require.NoError(t, err)
			tt.want.Ignored = nilIfEmpty(withDir(tt.want.Ignored, dir))
			tt.want.Empty = nilIfEmpty(withDir(tt.want.Empty, dir))
			assert.Equal(t, tt.want, got)
			rest := out.String()
			for _, s := range tt.report {
				i := strings.Index(rest, s)
				require.GreaterOrEqual(t, i, 0, "report lacks %q:\n%s", s, out.String())
				rest = rest[i+len(s):]
			}
		})
	}
}

func nilIfEmpty(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	return ss
}

func TestUpdate(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"same.input.json": "s", "same.golden.json": "S",
		"stale.input.json": "t", "stale.golden.json": "old",
		"new.input.json": "n",
	})
	var out bytes.Buffer
	opts := testOptions(&out)
	opts.Update = true
	got, err := Check(context.Background(), []string{dir}, opts)
	require.NoError(t, err)
	assert.Equal(t, Report{Passed: 3, Written: 2}, got)
	assert.Equal(t, "wrote "+filepath.Join(dir, "new.golden.json")+"\nwrote "+filepath.Join(dir, "stale.golden.json")+"\n2 golden files written, 1 unchanged\n3 passed, 0 failed\n", out.String())
	b, err := os.ReadFile(filepath.Join(dir, "stale.golden.json"))
	require.NoError(t, err)
	assert.Equal(t, "T", string(b))

	out.Reset()
	opts = testOptions(&out)
	opts.Verbose = true
	got, err = Check(context.Background(), []string{dir}, opts)
	require.NoError(t, err)
	assert.Equal(t, Report{Passed: 3}, got)
	assert.Equal(t, 3, strings.Count(out.String(), "ok   "))
	assert.True(t, strings.HasSuffix(out.String(), "\n3 passed, 0 failed\n"), out.String())
}

// TestDiffHeaderNamesTheCommand: the diff's "+++" line is Options.Command and the input,
// "normalize" when it is unset.
func TestDiffHeaderNamesTheCommand(t *testing.T) {
	for _, tt := range []struct{ command, header string }{
		{"", "normalize"},
		{"normalize --explain", "normalize --explain"},
		{"normalize --explain --format text", "normalize --explain --format text"},
	} {
		t.Run(tt.header, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"a.input.json": "new\n", "a.golden.json": "OLD\n"})
			var out bytes.Buffer
			opts := testOptions(&out)
			opts.Command = tt.command
			_, err := Check(context.Background(), []string{dir}, opts)
			require.NoError(t, err)
			in, golden := filepath.Join(dir, "a.input.json"), filepath.Join(dir, "a.golden.json")
			assert.Contains(t, out.String(), "\n--- "+golden+"\n+++ "+tt.header+" "+in+"\n@@ ")
		})
	}
}

// TestNoHints: without UpdateHint and ListHint, the report says nothing of how to update or
// list.
func TestNoHints(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.input.json": "x", "1": "", "2": "", "3": "", "4": "", "5": "", "6": ""})
	var out bytes.Buffer
	_, err := Check(context.Background(), []string{dir}, Options{Render: upper, Out: &out})
	require.NoError(t, err)
	d := dir + string(filepath.Separator)
	assert.Equal(t, "FAIL "+d+"a.input.json: no golden file a.golden.json\n"+
		"0 passed, 1 failed; 6 files ignored (not NAME.input.json, NAME.golden.json or NAME.golden.txt): "+d+"1, "+d+"2, "+d+"3, "+d+"4, "+d+"5 and 1 more\n",
		out.String())
}

func TestDiffNotJSON(t *testing.T) {
	d := Diff("want", "got", []byte("a\nb\n"), []byte("a\nc\n"))
	assert.Equal(t, "--- want\n+++ got\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n", d)
}

// TestDiffCRLF: a golden file with CRLF line ends, where the output has LF, is said plainly,
// and the lines that end in CRLF are marked: the diff alone would show "-}" and "+}".
func TestDiffCRLF(t *testing.T) {
	t.Run("record", func(t *testing.T) {
		d := Diff("want", "got", []byte("{\"a\":1}\r\n"), []byte("{\"a\":1}\n"))
		assert.Equal(t, crlfNote+"(the two differ only in whitespace: 9 bytes against 8)\n"+
			"--- want\n+++ got\n@@ -1 +1 @@\n-{\"a\":1} (CRLF line end)\n+{\"a\":1}\n", d)
	})
	t.Run("and another difference", func(t *testing.T) {
		d := Diff("want", "got", []byte("{\"a\":1,\"b\":2}\r\n"), []byte("{\"a\":1,\"b\":3}\n"))
		assert.True(t, strings.HasPrefix(d, crlfNote+"--- want\n"), d)
		assert.Contains(t, d, "   \"a\": 1,\n-  \"b\": 2\n+  \"b\": 3\n }\n")
	})
	t.Run("text", func(t *testing.T) {
		d := Diff("want", "got", []byte("line one\r\nline two\r\n"), []byte("line one\nline two\n"))
		assert.Equal(t, crlfNote+"--- want\n+++ got\n@@ -1,2 +1,2 @@\n-line one (CRLF line end)\n-line two (CRLF line end)\n+line one\n+line two\n", d)
	})
	t.Run("CRLF in both is not noted", func(t *testing.T) {
		d := Diff("want", "got", []byte("a\r\nb\r\n"), []byte("a\r\nc\r\n"))
		assert.NotContains(t, d, "Windows")
	})
}

// TestWrongMode: a golden file that WrongMode says belongs to another mode fails with its
// reason and no diff, and Update leaves it as it is; a golden file that matches is never
// judged.
func TestWrongMode(t *testing.T) {
	for _, update := range []bool{false, true} {
		t.Run(map[bool]string{false: "check", true: "update"}[update], func(t *testing.T) {
			dir := writeFiles(t, map[string]string{
				"other.input.json": "x", "other.golden.json": "OTHER MODE",
				"stale.input.json": "y", "stale.golden.json": "old",
				"same.input.json": "other", "same.golden.json": "OTHER",
			})
			var out bytes.Buffer
			opts := testOptions(&out)
			opts.Update = update
			opts.WrongMode = func(inPath string, want []byte) string {
				if !strings.HasPrefix(string(want), "OTHER") {
					return ""
				}
				return filepath.Base(inPath) + "'s golden file is of the other mode"
			}
			got, err := Check(context.Background(), []string{dir}, opts)
			require.NoError(t, err)
			not := ""
			if update {
				not = "not updated: "
			}
			assert.Contains(t, out.String(), "FAIL "+filepath.Join(dir, "other.input.json")+": "+not+"other.input.json's golden file is of the other mode\n")
			assert.NotContains(t, out.String(), "--- "+filepath.Join(dir, "other.golden.json"))
			want := Report{Passed: 1, Failed: 2} // other, and stale's diff
			if update {
				want = Report{Passed: 2, Failed: 1, Written: 1}
			}
			assert.Equal(t, want, got, out.String())
			b, err := os.ReadFile(filepath.Join(dir, "other.golden.json"))
			require.NoError(t, err)
			assert.Equal(t, "OTHER MODE", string(b))
		})
	}
}

// failingWriter fails every write, as standard output on a full disk does.
type failingWriter struct{ writes int }

func (w *failingWriter) Write([]byte) (int, error) {
	w.writes++
	return 0, syscall.ENOSPC
}

// TestWriteError: a report that cannot be written stops the check with a *WriteError.
func TestWriteError(t *testing.T) {
	dir := corpus(t, staleGolden)
	w := &failingWriter{}
	_, err := Check(context.Background(), []string{dir}, Options{Render: upper, Out: w})
	var werr *WriteError
	require.True(t, errors.As(err, &werr), "%v", err)
	assert.EqualError(t, err, "write output: no space left on device")
	assert.ErrorIs(t, err, syscall.ENOSPC)
	assert.Equal(t, 1, w.writes, "kept writing after a failed write")

	w = &failingWriter{}
	_, err = Check(context.Background(), []string{filepath.Join(dir, "ok.input.json")}, Options{Render: upper, Out: w})
	require.True(t, errors.As(err, &werr), "the summary line alone: %v", err)
}

// A check stops between cases once its context is done (Ctrl-C on a large corpus), with the
// report of the cases checked so far and no summary line, and says why.
func TestCheckStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	rendered := 0
	r, err := Check(ctx, []string{"testdata/example"}, Options{
		Render: func(_ string, input []byte) []byte {
			rendered++
			cancel() // the first case runs to its end; no other starts
			return bytes.ToUpper(input)
		},
		Out: &out,
	})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, rendered)
	assert.Equal(t, 1, r.Passed+r.Failed)
	assert.NotContains(t, out.String(), "passed,", "no summary line for an interrupted check")
}

package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// upper is a stand-in renderer: the golden output of an input is its upper case.
func upper(in []byte) []byte { return bytes.ToUpper(in) }

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

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		want   Summary
		report []string // substrings of the report, in order
	}{
		{
			name:  "all pass, nested",
			files: map[string]string{"a.input.json": `{"x":1}`, "a.golden.json": `{"X":1}`, "sub/b.input.json": "b\n", "sub/b.golden.json": "B\n"},
			want:  Summary{Passed: 2},
		},
		{
			name:   "mismatch shows a diff of the indented JSON",
			files:  map[string]string{"a.input.json": `{"k":"new","j":2}` + "\n", "a.golden.json": `{"K":"OLD","J":2}` + "\n"},
			want:   Summary{Failed: 1},
			report: []string{"FAIL ", "a.input.json: output differs from a.golden.json; if the new output is right, run the update", "--- ", "a.golden.json\n+++ normalize ", "-  \"K\": \"OLD\",\n+  \"K\": \"NEW\",\n   \"J\": 2\n"},
		},
		{
			name:   "missing final newline is shown",
			files:  map[string]string{"a.input.json": `{"k":1}` + "\n", "a.golden.json": `{"K":1}`},
			want:   Summary{Failed: 1},
			report: []string{"-} (no newline at end of file)\n+}\n"},
		},
		{
			name:   "whitespace-only mismatch says so",
			files:  map[string]string{"a.input.json": `{"k":1}` + "\n", "a.golden.json": `{"K": 1}` + "\n"},
			want:   Summary{Failed: 1},
			report: []string{"differ only in whitespace: 9 bytes against 8", "-{\"K\": 1}\n+{\"K\":1}\n"},
		},
		{
			name:   "missing golden",
			files:  map[string]string{"a.input.json": "x"},
			want:   Summary{Failed: 1},
			report: []string{"a.input.json: no golden file a.golden.json; if the new output is right, run the update"},
		},
		{
			name:   "golden without input",
			files:  map[string]string{"a.input.json": "x", "a.golden.json": "X", "old.golden.json": "Y"},
			want:   Summary{Passed: 1, Failed: 1},
			report: []string{"old.golden.json: no old.input.json beside it"},
		},
		{
			name:  "other files are ignored",
			files: map[string]string{"README.md": "x", "a.json": "y"},
			want:  Summary{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			var out bytes.Buffer
			got, err := Check(dir, Options{Render: upper, Out: &out, UpdateHint: "run the update"})
			require.NoError(t, err)
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

func TestUpdate(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"same.input.json": "s", "same.golden.json": "S",
		"stale.input.json": "t", "stale.golden.json": "old",
		"new.input.json": "n",
	})
	var out bytes.Buffer
	got, err := Check(dir, Options{Render: upper, Out: &out, Update: true})
	require.NoError(t, err)
	assert.Equal(t, Summary{Passed: 3, Written: 2}, got)
	assert.Contains(t, out.String(), "wrote "+filepath.Join(dir, "new.golden.json"))
	assert.Contains(t, out.String(), "wrote "+filepath.Join(dir, "stale.golden.json"))
	b, err := os.ReadFile(filepath.Join(dir, "stale.golden.json"))
	require.NoError(t, err)
	assert.Equal(t, "T", string(b))

	out.Reset()
	got, err = Check(dir, Options{Render: upper, Out: &out, Verbose: true})
	require.NoError(t, err)
	assert.Equal(t, Summary{Passed: 3}, got)
	assert.Equal(t, 3, strings.Count(out.String(), "ok   "))
	assert.Equal(t, "3 passed, 0 failed", got.String())
}

func TestCheckErrors(t *testing.T) {
	_, err := Check(filepath.Join(t.TempDir(), "nope"), Options{Render: upper, Out: &bytes.Buffer{}})
	require.ErrorContains(t, err, "no such file or directory")

	file := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err = Check(file, Options{Render: upper, Out: &bytes.Buffer{}})
	require.ErrorContains(t, err, "is not a directory")
}

func TestDiffNotJSON(t *testing.T) {
	d := Diff("want", "got", []byte("a\nb\n"), []byte("a\nc\n"))
	assert.Equal(t, "--- want\n+++ got\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n", d)
}

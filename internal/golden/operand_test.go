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

// staleGolden makes the corpus's stale/role case fail, so a check that covers more than it
// was given fails.
var staleGolden = map[string]string{"stale/role.golden.json": `{"ROLE":"OLD"}` + "\n"}

// staleFail is the report of the stale case under the directory d. The hint names the case
// however it was found: updating the directory operand would bless its other failures too.
func staleFail(d string) string {
	return "FAIL " + d + "/stale/role.input.json: output differs from role.golden.json; if the new output is right, update " + d + "/stale/role.input.json\n" +
		"--- " + d + "/stale/role.golden.json\n+++ normalize " + d + "/stale/role.input.json\n" +
		"@@ -1,3 +1,3 @@\n {\n-  \"ROLE\": \"OLD\"\n+  \"ROLE\": \"USER\"\n }\n"
}

// TestCheckOperands checks cases named one by one, alone or with directories, directly or
// through a symbolic link to the corpus (LINK).
func TestCheckOperands(t *testing.T) {
	tests := []struct {
		name    string
		args    []string // DIR is the corpus, LINK a link to it
		verbose bool
		want    string // the whole report
	}{
		{name: "one case", args: []string{"DIR/ok.input.json"}, want: "1 passed, 0 failed\n"},
		{name: "one case, verbose", args: []string{"DIR/ok.input.json"}, verbose: true,
			want: "ok   DIR/ok.input.json\n1 passed, 0 failed\n"},
		{name: "two cases", args: []string{"DIR/ok.input.json", "DIR/reject/empty.input.json"}, want: "2 passed, 0 failed\n"},
		{name: "the stale case alone", args: []string{"DIR/stale/role.input.json"},
			want: staleFail("DIR") + "0 passed, 1 failed\n"},
		{name: "a case and a directory: the hint names the case", args: []string{"DIR/ok.input.json", "DIR/stale"},
			want: staleFail("DIR") + "1 passed, 1 failed\n"},
		{name: "cases inside a directory operand are checked once", args: []string{"DIR/ok.input.json", "DIR/reject", "DIR/reject/empty.input.json", "DIR/reject/"},
			want: "3 passed, 0 failed\n"},
		{name: "a directory inside a later one is checked once", args: []string{"DIR/stale", "DIR"},
			want: staleFail("DIR") + "3 passed, 1 failed\n"},
		{name: "the same case twice, once through a longer path", args: []string{"DIR/ok.input.json", "DIR/reject/../ok.input.json"},
			want: "1 passed, 0 failed\n"},
		{name: "a link to the corpus is followed", args: []string{"LINK"},
			want: staleFail("LINK") + "3 passed, 1 failed\n"},
		{name: "a link with a slash", args: []string{"LINK/"},
			want: staleFail("LINK") + "3 passed, 1 failed\n"},
		{name: "the corpus and a link to it are one", args: []string{"DIR/ok.input.json", "DIR", "LINK"},
			want: staleFail("DIR") + "3 passed, 1 failed\n"},
		{name: "a case through the link is in the corpus", args: []string{"DIR", "LINK/ok.input.json"},
			want: staleFail("DIR") + "3 passed, 1 failed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := corpus(t, staleGolden)
			link := filepath.Join(t.TempDir(), "link")
			require.NoError(t, os.Symlink(dir, link))
			replace := strings.NewReplacer("DIR", dir, "LINK", link)
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = replace.Replace(a)
			}
			var out bytes.Buffer
			opts := testOptions(&out)
			opts.Verbose = tt.verbose
			_, err := Check(context.Background(), args, opts)
			require.NoError(t, err)
			assert.Equal(t, replace.Replace(tt.want), out.String())
		})
	}
}

// TestFileReportsAsDir: a case named alone is reported in the same words, hint included, and
// with the same diff, as when its directory is checked.
func TestFileReportsAsDir(t *testing.T) {
	dir := corpus(t, staleGolden)
	role := filepath.Join(dir, "stale", "role.input.json")
	var alone, inDir bytes.Buffer
	_, err := Check(context.Background(), []string{role}, testOptions(&alone))
	require.NoError(t, err)
	_, err = Check(context.Background(), []string{filepath.Join(dir, "stale")}, testOptions(&inDir))
	require.NoError(t, err)
	assert.Contains(t, alone.String(), "\n-  \"ROLE\": \"OLD\"\n")
	assert.Contains(t, alone.String(), "update "+role+"\n")
	assert.Equal(t, inDir.String(), alone.String())
}

func TestCheckEmptyDirs(t *testing.T) {
	dir := corpus(t, map[string]string{"empty/README.md": "x"})
	require.NoError(t, os.Mkdir(filepath.Join(dir, "none"), 0o755))
	var out bytes.Buffer
	got, err := Check(context.Background(), []string{filepath.Join(dir, "empty"), filepath.Join(dir, "ok.input.json"), filepath.Join(dir, "none")}, testOptions(&out))
	require.NoError(t, err)
	assert.Equal(t, Report{Passed: 1, Ignored: []string{filepath.Join(dir, "empty", "README.md")},
		Empty: []string{filepath.Join(dir, "empty"), filepath.Join(dir, "none")}}, got)
}

// TestResolveRefuses: an operand that is neither a directory nor a regular NAME.input.json
// file says what was found and what was expected. resolve only looks at names and types, so
// a regression here fails rather than blocks on a pipe.
func TestResolveRefuses(t *testing.T) {
	dir := corpus(t, map[string]string{"langchain.json": "{}", "notes.input.JSON": `"x"`})
	fifo := filepath.Join(dir, "pipe.input.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	const want = "; expected a directory or a NAME.input.json file"
	tests := []struct {
		name, operand, want string // DIR is the corpus
	}{
		{name: "missing path", operand: "DIR/nonexistent", want: "no such file or directory" + want},
		{name: "a file not named like an input", operand: "DIR/langchain.json", want: "found a file not named NAME.input.json" + want},
		{name: "a golden file names its input", operand: "DIR/ok.golden.json", want: "found a golden file" + want + ": name the case's input, DIR/ok.input.json"},
		{name: "a case variant of the suffix", operand: "DIR/notes.input.JSON", want: "found a name ending in .input.JSON" + want + " (the suffix is case-sensitive): rename it notes.input.json"},
		{name: "a named pipe", operand: "DIR/pipe.input.json", want: "found a named pipe" + want},
		{name: "a device", operand: "/dev/null", want: "found a device" + want},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := strings.ReplaceAll(tt.operand, "DIR", dir)
			_, err := resolve([]string{filepath.Join(dir, "ok.input.json"), op})
			var oe *OperandError
			require.True(t, errors.As(err, &oe), "%v", err)
			assert.Equal(t, op, oe.Operand)
			assert.EqualError(t, oe.Err, strings.ReplaceAll(tt.want, "DIR", dir))
			assert.Equal(t, op+": "+oe.Err.Error(), err.Error())
		})
	}
}

// TestCheckStops: an operand that cannot be checked stops the check, with what was reported
// so far and no summary line.
func TestCheckStops(t *testing.T) {
	t.Run("every operand is looked at before any is checked", func(t *testing.T) {
		dir := corpus(t, nil)
		var out bytes.Buffer
		_, err := Check(context.Background(), []string{dir, filepath.Join(dir, "nonexistent")}, testOptions(&out))
		require.EqualError(t, err, filepath.Join(dir, "nonexistent")+": no such file or directory; expected a directory or a NAME.input.json file")
		assert.Empty(t, out.String())
	})
	// A case file that cannot be read fails its case alone: TestCheckUnreadableCases; a
	// golden file that cannot be written stops the check: TestCheckUpdateCannotWrite.
}

package golden

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cases is a corpus of four cases that pass.
var cases = map[string]string{
	"ok.input.json": `{"a":1}` + "\n", "ok.golden.json": `{"A":1}` + "\n",
	"reject/empty.input.json": `""` + "\n", "reject/empty.golden.json": `""` + "\n",
	"reject/invalid.input.json": "{\n", "reject/invalid.golden.json": "{\n",
	"stale/role.input.json": `{"role":"user"}` + "\n", "stale/role.golden.json": `{"ROLE":"USER"}` + "\n",
}

// corpus writes cases, and extra over them.
func corpus(t *testing.T, extra map[string]string) string {
	t.Helper()
	files := map[string]string{}
	for name, content := range cases {
		files[name] = content
	}
	for name, content := range extra {
		files[name] = content
	}
	return writeFiles(t, files)
}

// TestCheckDirFiles: under a directory, files that are neither inputs nor golden files are
// counted and named in the summary; names that differ from a case's only in letter case fail.
func TestCheckDirFiles(t *testing.T) {
	const note = "files ignored (not NAME.input.json, NAME.golden.json or NAME.golden.txt): "
	tests := []struct {
		name            string
		files           []string // added to the corpus, relative to it
		links           []string // symbolic links to the corpus's "stale" directory, relative to it
		args            []string // operands; DIR is the corpus
		update, verbose bool
		want            string   // the whole report, DIR for the corpus
		misnamed        []string // Report.Misnamed
		ignored         []string // Report.Ignored
	}{
		{name: "nothing else", args: []string{"DIR"}, want: "4 passed, 0 failed\n"},
		{name: "a case-variant input fails, another file is ignored", files: []string{"langchain.json", "notes.input.JSON"}, args: []string{"DIR"},
			want: "FAIL DIR/notes.input.JSON: not checked: the name ends in .input.JSON, not .input.json (the suffix is case-sensitive); rename it notes.input.json\n" +
				"4 passed, 1 failed; 1 file ignored (not NAME.input.json, NAME.golden.json or NAME.golden.txt): DIR/langchain.json\n",
			misnamed: []string{"DIR/notes.input.JSON"}, ignored: []string{"DIR/langchain.json"}},
		{name: "ignored files alone do not fail", files: []string{"README.md", "stale/.gitkeep", "sub/input.json"}, args: []string{"DIR"},
			want:    "4 passed, 0 failed; 3 " + note + "DIR/README.md, DIR/stale/.gitkeep, DIR/sub/input.json\n",
			ignored: []string{"DIR/README.md", "DIR/stale/.gitkeep", "DIR/sub/input.json"}},
		{name: "a golden variant fails", files: []string{"reject/empty.Golden.json"}, args: []string{"DIR"},
			want:     "FAIL DIR/reject/empty.Golden.json: not checked: the name ends in .Golden.json, not .golden.json (the suffix is case-sensitive); rename it empty.golden.json\n4 passed, 1 failed\n",
			misnamed: []string{"DIR/reject/empty.Golden.json"}},
		{name: "update does not pass a variant", files: []string{"x.INPUT.json"}, args: []string{"DIR"}, update: true,
			want:     "FAIL DIR/x.INPUT.json: not checked: the name ends in .INPUT.json, not .input.json (the suffix is case-sensitive); rename it x.input.json\n0 golden files written, 4 unchanged\n4 passed, 1 failed\n",
			misnamed: []string{"DIR/x.INPUT.json"}},
		{name: "stale golden files in path order, then variants", files: []string{"n.Input.json", "a/b.golden.json", "a-c.golden.json"}, args: []string{"DIR"},
			want: "FAIL DIR/a-c.golden.json: no a-c.input.json beside it; add the input or delete the stale golden file\n" +
				"FAIL DIR/a/b.golden.json: no b.input.json beside it; add the input or delete the stale golden file\n" +
				"FAIL DIR/n.Input.json: not checked: the name ends in .Input.json, not .input.json (the suffix is case-sensitive); rename it n.input.json\n" +
				"4 passed, 3 failed\n",
			misnamed: []string{"DIR/n.Input.json"}},
		{name: "a link to a directory is not followed", links: []string{"sub/stale-link"}, args: []string{"DIR"},
			want:    "4 passed, 0 failed; 1 file ignored (not NAME.input.json, NAME.golden.json or NAME.golden.txt): DIR/sub/stale-link\n",
			ignored: []string{"DIR/sub/stale-link"}},
		{name: "at most five are named", files: []string{"a", "b", "c", "d", "e", "f", "g"}, args: []string{"DIR"},
			want:    "4 passed, 0 failed; 7 " + note + "DIR/a, DIR/b, DIR/c, DIR/d, DIR/e and 2 more (ask to list them)\n",
			ignored: []string{"DIR/a", "DIR/b", "DIR/c", "DIR/d", "DIR/e", "DIR/f", "DIR/g"}},
		{name: "verbose lists them all", files: []string{"reject/a", "reject/b", "reject/c", "reject/d", "reject/e", "reject/f", "elsewhere"}, args: []string{"DIR/reject"}, verbose: true,
			want: "ok   DIR/reject/empty.input.json\nok   DIR/reject/invalid.input.json\n" +
				"skip DIR/reject/a\nskip DIR/reject/b\nskip DIR/reject/c\nskip DIR/reject/d\nskip DIR/reject/e\nskip DIR/reject/f\n" +
				"2 passed, 0 failed; 6 " + note + "DIR/reject/a, DIR/reject/b, DIR/reject/c, DIR/reject/d, DIR/reject/e and 1 more\n",
			ignored: []string{"DIR/reject/a", "DIR/reject/b", "DIR/reject/c", "DIR/reject/d", "DIR/reject/e", "DIR/reject/f"}},
		{name: "ignored across two directories, in operand order", files: []string{"stale/z", "reject/y"}, args: []string{"DIR/stale", "DIR/reject"},
			want:    "3 passed, 0 failed; 2 " + note + "DIR/stale/z, DIR/reject/y\n",
			ignored: []string{"DIR/stale/z", "DIR/reject/y"}},
		{name: "only under directory operands", files: []string{"langchain.json", "notes.input.JSON"}, args: []string{"DIR/ok.input.json"},
			want: "1 passed, 0 failed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			extra := map[string]string{}
			for _, name := range tt.files {
				extra[name] = `"x"`
			}
			dir := corpus(t, extra)
			for _, name := range tt.links {
				path := filepath.Join(dir, filepath.FromSlash(name))
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.Symlink(filepath.Join(dir, "stale"), path))
			}
			var out bytes.Buffer
			opts := testOptions(&out)
			opts.Update, opts.Verbose = tt.update, tt.verbose
			got, err := Check(context.Background(), withDir(tt.args, dir), opts)
			require.NoError(t, err)
			assert.Equal(t, strings.ReplaceAll(tt.want, "DIR", dir), out.String())
			assert.Equal(t, nilIfEmpty(withDir(tt.misnamed, dir)), got.Misnamed)
			assert.Equal(t, nilIfEmpty(withDir(tt.ignored, dir)), got.Ignored)
			assert.Empty(t, got.Empty)
		})
	}
}

// TestScanDirNamesOnly: the walk sorts files out by their names; what a case file is (a named
// pipe, a link to nothing) is found when its case is checked, and fails that case alone
// (TestCheckUnreadableCases). So the walk never opens a file, and never blocks on a pipe.
func TestScanDirNamesOnly(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "p.input.json"), 0o644))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "p.golden.json"), 0o644))
	require.NoError(t, os.Symlink("/nonexistent", filepath.Join(dir, "x.input.json")))
	require.NoError(t, os.Symlink("y.golden.json", filepath.Join(dir, "y.golden.json")))
	f, err := scanDir(dir)
	require.NoError(t, err)
	assert.Equal(t, dirFiles{
		inputs:  []string{filepath.Join(dir, "p.input.json"), filepath.Join(dir, "x.input.json")},
		orphans: []string{filepath.Join(dir, "y.golden.json")},
	}, f)
}

func TestMisnamed(t *testing.T) {
	tests := []struct {
		name, file, suffix, want string
	}{
		{name: "input in capitals", file: "a.INPUT.JSON", suffix: InputSuffix, want: "a.input.json"},
		{name: "golden, one letter", file: "a.golden.Json", suffix: GoldenSuffix, want: "a.golden.json"},
		{name: "spelled right", file: "a.input.json", suffix: InputSuffix},
		{name: "another suffix", file: "a.json", suffix: InputSuffix},
		{name: "shorter than the suffix", file: "JSON", suffix: InputSuffix},
		{name: "the suffix alone", file: ".Input.json", suffix: InputSuffix, want: ".input.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, misnamed(tt.file, tt.suffix))
		})
	}
}

// TestTextSuffix: a case may have a golden file of each suffix; a run compares the one of
// Options.Suffix, counts the others in the summary, and never lists them as ignored. A golden
// file of either suffix without its input fails, and so does a variant of either suffix.
func TestTextSuffix(t *testing.T) {
	files := map[string]string{
		"a.input.json": "a", "a.golden.json": "A", "a.golden.txt": "A",
		"b.input.json": "b", "b.golden.txt": "B",
		"sub/c.input.json": "c", "sub/c.golden.json": "C",
	}
	tests := []struct {
		name     string
		suffix   string
		extra    map[string]string
		operands []string // DIR is the corpus
		want     string   // the whole report
	}{
		{name: "json", operands: []string{"DIR"},
			want: "FAIL DIR/b.input.json: no golden file b.golden.json; if the new output is right, update DIR/b.input.json\n" +
				"2 passed, 1 failed; 2 NAME.golden.txt files not compared (compared by the other mode)\n"},
		{name: "text", suffix: TextSuffix, operands: []string{"DIR"},
			want: "FAIL DIR/sub/c.input.json: no golden file c.golden.txt; if the new output is right, update DIR/sub/c.input.json\n" +
				"2 passed, 1 failed; 2 NAME.golden.json files not compared (compared by the other mode)\n"},
		{name: "a file operand", suffix: TextSuffix, operands: []string{"DIR/a.input.json"},
			want: "1 passed, 0 failed; 1 NAME.golden.json file not compared (compared by the other mode)\n"},
		{name: "a stale text golden fails", extra: map[string]string{"old.golden.txt": "x", "d.golden.TXT": "y"}, operands: []string{"DIR"},
			want: "FAIL DIR/b.input.json: no golden file b.golden.json; if the new output is right, update DIR/b.input.json\n" +
				"FAIL DIR/old.golden.txt: no old.input.json beside it; add the input or delete the stale golden file\n" +
				"FAIL DIR/d.golden.TXT: not checked: the name ends in .golden.TXT, not .golden.txt (the suffix is case-sensitive); rename it d.golden.txt\n" +
				"2 passed, 3 failed; 2 NAME.golden.txt files not compared (compared by the other mode)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			all := map[string]string{}
			for k, v := range files {
				all[k] = v
			}
			for k, v := range tt.extra {
				all[k] = v
			}
			dir := writeFiles(t, all)
			var out bytes.Buffer
			opts := testOptions(&out)
			opts.Suffix = tt.suffix
			opts.OtherHint = func(string) string { return "compared by the other mode" }
			_, err := Check(context.Background(), withDir(tt.operands, dir), opts)
			require.NoError(t, err)
			assert.Equal(t, strings.ReplaceAll(tt.want, "DIR", dir), out.String())
		})
	}
}

// Inputs lists a directory's cases as Check finds them: inputs at any depth, in walk order,
// and nothing else (golden files, orphans, misnamed and other files).
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.input.json", "b.golden.json", "a.input.json", "sub/c.input.json",
		"orphan.golden.json", "x.Input.json", "notes.txt"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o644))
	}
	got, err := Inputs(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, "a.input.json"), filepath.Join(dir, "b.input.json"),
		filepath.Join(dir, "sub", "c.input.json")}, got)
	_, err = Inputs(filepath.Join(dir, "missing"))
	assert.Error(t, err)
}

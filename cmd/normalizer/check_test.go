package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/golden"
)

// corpusDir writes a small golden corpus: inputs, and golden files made by `normalize`.
func corpusDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cases := map[string]string{
		"ok":                  okInput,
		"dirty/role":          dirtyInput,
		"reject/invalid-json": `{"final_response":`,
		"reject/empty":        `{"final_response":""}`,
	}
	for name, input := range cases {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path+".input.json", []byte(input), 0o644))
		r := runCmd(t, "", nil, "normalize", path+".input.json")
		require.NoError(t, os.WriteFile(path+".golden.json", []byte(r.stdout), 0o644))
	}
	return dir
}

func TestCheck(t *testing.T) {
	t.Run("pass", func(t *testing.T) {
		dir := corpusDir(t)
		r := runCmd(t, "", nil, "check", dir)
		assert.Equal(t, 0, r.code, r.stdout+r.stderr)
		assert.Equal(t, "4 passed, 0 failed\n", r.stdout)
	})
	t.Run("verbose", func(t *testing.T) {
		r := runCmd(t, "", nil, "check", "-v", corpusDir(t))
		assert.Equal(t, 0, r.code)
		assert.Equal(t, 4, strings.Count(r.stdout, "ok   "))
	})
	t.Run("environment does not change the golden output", func(t *testing.T) {
		r := runCmd(t, "", map[string]string{"NORMALIZER_MAX_BYTES": "5"}, "check", corpusDir(t))
		assert.Equal(t, 0, r.code, r.stdout)
	})
	t.Run("mismatch shows a diff", func(t *testing.T) {
		dir := corpusDir(t)
		golden := filepath.Join(dir, "ok.golden.json")
		require.NoError(t, os.WriteFile(golden, []byte(strings.Replace(readFile(t, golden), `"done"`, `"old answer"`, 1)), 0o644))
		r := runCmd(t, "", nil, "check", dir)
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stdout, "FAIL "+filepath.Join(dir, "ok.input.json")+": output differs from ok.golden.json; if the new output is right, run 'normalizer check --update "+filepath.Join(dir, "ok.input.json")+"'\n")
		assert.Contains(t, r.stdout, "--- "+golden+"\n+++ normalize "+filepath.Join(dir, "ok.input.json")+"\n@@ ")
		assert.Contains(t, r.stdout, "\n-  \"final_response\": \"old answer\",\n+  \"final_response\": \"done\",\n")
		assert.True(t, strings.HasSuffix(r.stdout, "\n3 passed, 1 failed\n"), r.stdout)
	})
	t.Run("missing golden, then update, then pass", func(t *testing.T) {
		dir := corpusDir(t)
		require.NoError(t, os.Remove(filepath.Join(dir, "reject", "empty.golden.json")))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "new.input.json"), []byte(`"new case"`), 0o644))
		r := runCmd(t, "", nil, "check", dir)
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stdout, "empty.input.json: no golden file empty.golden.json; if the new output is right, run 'normalizer check --update")
		assert.Contains(t, r.stdout, "\n3 passed, 2 failed\n")

		r = runCmd(t, "", nil, "check", "--update", dir)
		assert.Equal(t, 0, r.code, r.stdout)
		assert.Contains(t, r.stdout, "wrote "+filepath.Join(dir, "new.golden.json")+"\n")
		assert.Contains(t, r.stdout, "wrote "+filepath.Join(dir, "reject", "empty.golden.json")+"\n")
		assert.True(t, strings.HasSuffix(r.stdout, "\n2 golden files written, 3 unchanged\n5 passed, 0 failed\n"), r.stdout)
		assert.Equal(t, `{"final_response":"new case","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}`+"\n", readFile(t, filepath.Join(dir, "new.golden.json")))

		r = runCmd(t, "", nil, "check", dir)
		assert.Equal(t, 0, r.code, r.stdout)
		assert.Equal(t, "5 passed, 0 failed\n", r.stdout)

		r = runCmd(t, "", nil, "check", "--update", dir)
		assert.Equal(t, 0, r.code, r.stdout)
		assert.Equal(t, "0 golden files written, 5 unchanged\n5 passed, 0 failed\n", r.stdout, "nothing to write")
	})
	t.Run("flag after dir", func(t *testing.T) {
		dir := corpusDir(t)
		require.NoError(t, os.Remove(filepath.Join(dir, "ok.golden.json")))
		r := runCmd(t, "", nil, "check", dir, "--update")
		assert.Equal(t, 0, r.code, r.stdout)
	})
	t.Run("golden files match normalize byte for byte", func(t *testing.T) {
		dir := corpusDir(t)
		require.NoError(t, os.Remove(filepath.Join(dir, "dirty", "role.golden.json")))
		r := runCmd(t, "", nil, "check", "--update", dir)
		require.Equal(t, 0, r.code)
		single := runCmd(t, "", nil, "normalize", filepath.Join(dir, "dirty", "role.input.json"))
		assert.Equal(t, single.stdout, readFile(t, filepath.Join(dir, "dirty", "role.golden.json")))
	})
}

// TestCheckUsage: usage and I/O errors exit 2 with one line on stderr; a check that checks
// nothing exits 1. What each kind of refused operand says is tested in internal/golden.
func TestCheckUsage(t *testing.T) {
	empty := t.TempDir()
	dir := corpusDir(t)
	fifo := filepath.Join(t.TempDir(), "pipe.input.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	pipedGolden := filepath.Join(t.TempDir(), "case")
	require.NoError(t, os.Mkdir(pipedGolden, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(pipedGolden, "a.input.json"), []byte(okInput), 0o644))
	require.NoError(t, syscall.Mkfifo(filepath.Join(pipedGolden, "a.golden.json"), 0o644))
	pipedText := filepath.Join(t.TempDir(), "text")
	require.NoError(t, os.Mkdir(pipedText, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(pipedText, "a.input.json"), []byte(okInput), 0o644))
	require.NoError(t, syscall.Mkfifo(filepath.Join(pipedText, "a.golden.txt"), 0o644))
	pipes := []string{fifo, filepath.Join(pipedGolden, "a.golden.json"), filepath.Join(pipedText, "a.golden.txt")}
	caseOperand, textOperand := filepath.Join(pipedGolden, "a.input.json"), filepath.Join(pipedText, "a.input.json")
	const want = "; expected a directory or a NAME.input.json file"
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // the whole of stdout
		stderr string // the whole of stderr
	}{
		{name: "no operand", args: []string{"check"}, code: 2,
			stderr: "normalizer: check: found no arguments, expected one or more directories or NAME.input.json files; run 'normalizer check -h'\n"},
		{name: "missing path", args: []string{"check", "/nonexistent/golden"}, code: 2,
			stderr: "normalizer: check /nonexistent/golden: no such file or directory" + want + "\n"},
		{name: "a golden file names its input", args: []string{"check", filepath.Join(dir, "ok.golden.json")}, code: 2,
			stderr: "normalizer: check " + filepath.Join(dir, "ok.golden.json") + ": found a golden file" + want + ": name the case's input, " + filepath.Join(dir, "ok.input.json") + "\n"},
		{name: "a named pipe is not read", args: []string{"check", fifo}, code: 2,
			stderr: "normalizer: check " + fifo + ": found a named pipe" + want + "\n"},
		// A case file that is a named pipe fails its case, unread.
		{name: "a named pipe under a DIR is not read", args: []string{"check", filepath.Dir(fifo)}, code: 1,
			stdout: "FAIL " + fifo + ": not checked: found a named pipe; expected a regular file\n0 passed, 1 failed\n"},
		{name: "a named pipe as a golden file is not read", args: []string{"check", pipedGolden}, code: 1,
			stdout: "FAIL " + caseOperand + ": not checked: a.golden.json: found a named pipe; expected a regular file\n0 passed, 1 failed\n"},
		{name: "a named pipe as the golden file of a case operand is not read", args: []string{"check", caseOperand}, code: 1,
			stdout: "FAIL " + caseOperand + ": not checked: a.golden.json: found a named pipe; expected a regular file\n0 passed, 1 failed\n"},
		{name: "a named pipe as the text golden file of a case operand is not read", args: []string{"check", "--format", "text", textOperand}, code: 1,
			stdout: "FAIL " + textOperand + ": not checked: a.golden.txt: found a named pipe; expected a regular file\n0 passed, 1 failed\n"},
		{name: "every operand is looked at before any is checked", args: []string{"check", dir, "/nonexistent/golden"}, code: 2,
			stderr: "normalizer: check /nonexistent/golden: no such file or directory" + want + "\n"},
		{name: "unknown flag", args: []string{"check", "--force", empty}, code: 2,
			stderr: "normalizer: check: flag provided but not defined: --force; run 'normalizer check -h'\n"},
		{name: "nothing to check", args: []string{"check", empty}, code: 1, stdout: "0 passed, 0 failed; no cases found in " + empty + " (no NAME.input.json under it)\n",
			stderr: "normalizer: check " + empty + ": found no NAME.input.json files; a check that checks nothing does not pass\n"},
		{name: "nothing to check in one of two", args: []string{"check", empty, filepath.Join(dir, "ok.input.json")}, code: 1, stdout: "1 passed, 0 failed; no cases found in " + empty + " (no NAME.input.json under it)\n",
			stderr: "normalizer: check " + empty + ": found no NAME.input.json files; a check that checks nothing does not pass\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runUnblocked(t, pipes, tt.args...)
			assert.Equal(t, tt.code, r.code, r.stdout+r.stderr)
			assert.Equal(t, tt.stdout, r.stdout)
			assert.Equal(t, tt.stderr, r.stderr)
		})
	}
}

// runUnblocked is runCmd for a run that must not read any of pipes. While the run goes on, the
// test looks for a reader of each pipe: opening a named pipe's write end without blocking
// succeeds only while a reader has it open, or waits in open for a writer (Linux). A reader
// found fails the test, and the write end is closed at once, so that the reader sees the end
// of the file and the run ends. Nothing is timed: a slow run is only waited for.
func runUnblocked(t *testing.T, pipes []string, args ...string) result {
	t.Helper()
	done := make(chan result, 1)
	go func() { done <- runCmd(t, "", nil, args...) }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	backstop := time.After(2 * time.Minute)
	var read []string
	for {
		select {
		case r := <-done:
			if len(read) > 0 {
				t.Fatalf("check %s opened the named pipe %s to read it (exit %d)\nstdout: %s\nstderr: %s",
					strings.Join(args[1:], " "), strings.Join(read, ", "), r.code, r.stdout, r.stderr)
			}
			return r
		case <-tick.C:
		case <-backstop:
			t.Fatalf("check %s did not end within 2 minutes, and no reader of %s was found", strings.Join(args[1:], " "), strings.Join(pipes, ", "))
		}
		for _, p := range pipes {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
				read = append(read, p)
			}
		}
	}
}

func TestCheckHelp(t *testing.T) {
	r := runCmd(t, "", nil, "check", "-h")
	assert.Equal(t, 0, r.code)
	assert.True(t, strings.HasPrefix(r.stdout, "Usage: normalizer check [--update] [--explain [--format text]] [-v] DIR|FILE...\n"), r.stdout)
	assert.Contains(t, r.stdout, "normalizer check --update testdata/golden/final-response-array.input.json   # one case\n")
	assert.Contains(t, r.stdout, "Every other file is ignored, and the summary counts and names them.\n")
}

// staleCorpus is corpusDir with the golden file of dirty/role out of date.
func staleCorpus(t *testing.T) string {
	t.Helper()
	dir := corpusDir(t)
	golden := filepath.Join(dir, "dirty", "role.golden.json")
	require.NoError(t, os.WriteFile(golden, []byte(`{"stale":true}`+"\n"), 0o644))
	return dir
}

func withDir(args []string, dir string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, "DIR", dir)
	}
	return out
}

func TestCheckFileUpdate(t *testing.T) {
	dir := staleCorpus(t)
	role := filepath.Join(dir, "dirty", "role.input.json")
	require.NoError(t, os.Remove(filepath.Join(dir, "ok.golden.json")))
	ok := filepath.Join(dir, "ok.input.json")

	r := runCmd(t, "", nil, "check", ok)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "FAIL "+ok+": no golden file ok.golden.json; if the new output is right, run 'normalizer check --update "+ok+"'\n0 passed, 1 failed\n", r.stdout)

	r = runCmd(t, "", nil, "check", "--update", ok)
	assert.Equal(t, 0, r.code, r.stdout)
	assert.Equal(t, "wrote "+filepath.Join(dir, "ok.golden.json")+"\n1 golden file written, 0 unchanged\n1 passed, 0 failed\n", r.stdout)
	assert.Equal(t, runCmd(t, "", nil, "normalize", ok).stdout, readFile(t, filepath.Join(dir, "ok.golden.json")))
	assert.Equal(t, `{"stale":true}`+"\n", readFile(t, filepath.Join(dir, "dirty", "role.golden.json")), "--update FILE wrote another case")

	r = runCmd(t, "", nil, "check", "--update", role)
	assert.Equal(t, 0, r.code, r.stdout)
	r = runCmd(t, "", nil, "check", dir)
	assert.Equal(t, 0, r.code, r.stdout)
	assert.Equal(t, "4 passed, 0 failed\n", r.stdout)
}

// TestCheckIgnored: files under a DIR that are not checked reach the exit code as they
// should (a misnamed case fails, other files do not), and -v lists them all; which file is
// which is tested in internal/golden.
func TestCheckIgnored(t *testing.T) {
	const note = "files ignored (not NAME.input.json, NAME.golden.json or NAME.golden.txt): "
	tests := []struct {
		name  string
		files []string // added to the corpus, relative to it
		args  []string // after "check"; DIR is the corpus
		code  int
		want  string // the whole of stdout, DIR for the corpus
	}{
		{name: "the review's corpus", files: []string{"langchain.json", "notes.input.JSON"}, args: []string{"DIR"}, code: 1,
			want: "FAIL DIR/notes.input.JSON: not checked: the name ends in .input.JSON, not .input.json (the suffix is case-sensitive); rename it notes.input.json\n" +
				"4 passed, 1 failed; 1 file ignored (not NAME.input.json, NAME.golden.json or NAME.golden.txt): DIR/langchain.json\n"},
		{name: "ignored files alone do not fail", files: []string{"README.md", "dirty/.gitkeep", "sub/input.json"}, args: []string{"DIR"},
			want: "4 passed, 0 failed; 3 " + note + "DIR/README.md, DIR/dirty/.gitkeep, DIR/sub/input.json\n"},
		{name: "update does not pass a variant", files: []string{"x.INPUT.json"}, args: []string{"--update", "DIR"}, code: 1,
			want: "FAIL DIR/x.INPUT.json: not checked: the name ends in .INPUT.json, not .input.json (the suffix is case-sensitive); rename it x.input.json\n0 golden files written, 4 unchanged\n4 passed, 1 failed\n"},
		{name: "at most five are named", files: []string{"a", "b", "c", "d", "e", "f", "g"}, args: []string{"DIR"},
			want: "4 passed, 0 failed; 7 " + note + "DIR/a, DIR/b, DIR/c, DIR/d, DIR/e and 2 more (-v lists them all)\n"},
		{name: "verbose lists them all", files: []string{"reject/a", "reject/b", "reject/c", "reject/d", "reject/e", "reject/f", "elsewhere"}, args: []string{"-v", "DIR/reject"},
			want: "ok   DIR/reject/empty.input.json\nok   DIR/reject/invalid-json.input.json\n" +
				"skip DIR/reject/a\nskip DIR/reject/b\nskip DIR/reject/c\nskip DIR/reject/d\nskip DIR/reject/e\nskip DIR/reject/f\n" +
				"2 passed, 0 failed; 6 " + note + "DIR/reject/a, DIR/reject/b, DIR/reject/c, DIR/reject/d, DIR/reject/e and 1 more\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := corpusDir(t)
			for _, name := range tt.files {
				path := filepath.Join(dir, filepath.FromSlash(name))
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(`"x"`), 0o644))
			}
			r := runCmd(t, "", nil, append([]string{"check"}, withDir(tt.args, dir)...)...)
			assert.Equal(t, tt.code, r.code, r.stdout+r.stderr)
			assert.Equal(t, strings.ReplaceAll(tt.want, "DIR", dir), r.stdout)
			assert.Empty(t, r.stderr)
		})
	}
}

func TestCheckNothingButIgnored(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run1.json"), []byte(`{}`), 0o644))
	r := runCmd(t, "", nil, "check", dir)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "0 passed, 0 failed; no cases found in "+dir+" (no NAME.input.json under it); 1 file ignored (not NAME.input.json, NAME.golden.json or NAME.golden.txt): "+filepath.Join(dir, "run1.json")+"\n", r.stdout)
	assert.Equal(t, "normalizer: check "+dir+": found no NAME.input.json files; a check that checks nothing does not pass\n", r.stderr)
}

// explainCorpus is corpusDir with golden files made by `normalize --explain`.
func explainCorpus(t *testing.T) string {
	t.Helper()
	dir := corpusDir(t)
	for _, name := range []string{"ok", "dirty/role", "reject/invalid-json", "reject/empty"} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		r := runCmd(t, "", nil, "normalize", "--explain", path+".input.json")
		require.NoError(t, os.WriteFile(path+".golden.json", []byte(r.stdout), 0o644))
	}
	return dir
}

// TestCheckExplain: --explain compares the explain view; a golden file of the other kind
// fails with the flag that checks it, and --update never overwrites it (that would destroy
// the other corpus).
func TestCheckExplain(t *testing.T) {
	t.Run("pass", func(t *testing.T) {
		r := runCmd(t, "", nil, "check", "--explain", explainCorpus(t))
		assert.Equal(t, 0, r.code, r.stdout+r.stderr)
		assert.Equal(t, "4 passed, 0 failed\n", r.stdout)
	})
	t.Run("an explain golden in a plain check", func(t *testing.T) {
		dir := explainCorpus(t)
		for _, args := range [][]string{{"check", dir}, {"check", "--update", dir}} {
			r := runCmd(t, "", nil, args...)
			assert.Equal(t, 1, r.code, r.stdout+r.stderr)
			up, verb := "", "check"
			if len(args) == 3 {
				up, verb = " --update", "not updated: "
			}
			ok := filepath.Join(dir, "ok.input.json")
			want := "FAIL " + ok + ": ok.golden.json is an explain golden (it has a top-level \"diagnostics\"), not a plain record; check it with --explain: normalizer check --explain " + ok + "\n"
			if up != "" {
				want = "FAIL " + ok + ": " + verb + "ok.golden.json is an explain golden (it has a top-level \"diagnostics\"), not a plain record; update it with --explain: normalizer check --explain --update " + ok + "\n"
			}
			assert.Contains(t, r.stdout, want)
			assert.NotContains(t, r.stdout, "--- ", "a diff")
			// The error objects are the same in both modes: they pass.
			assert.True(t, strings.HasSuffix(r.stdout, "\n2 passed, 2 failed\n"), r.stdout)
		}
		assert.Equal(t, runCmd(t, "", nil, "normalize", "--explain", filepath.Join(dir, "ok.input.json")).stdout, readFile(t, filepath.Join(dir, "ok.golden.json")))
		assert.Equal(t, 0, runCmd(t, "", nil, "check", "--explain", dir).code)
	})
	t.Run("a plain golden with --explain", func(t *testing.T) {
		dir := corpusDir(t)
		role := filepath.Join(dir, "dirty", "role.input.json")
		r := runCmd(t, "", nil, "check", "--explain", "--update", role)
		assert.Equal(t, 1, r.code)
		assert.Equal(t, "FAIL "+role+": not updated: role.golden.json is a plain golden (a record without \"diagnostics\"), not an explain view; update it without --explain: normalizer check --update "+role+"\n0 golden files written, 0 unchanged\n0 passed, 1 failed\n", r.stdout)
		assert.Equal(t, runCmd(t, "", nil, "normalize", role).stdout, readFile(t, filepath.Join(dir, "dirty", "role.golden.json")))
	})
	t.Run("the hint keeps the mode", func(t *testing.T) {
		dir := explainCorpus(t)
		require.NoError(t, os.Remove(filepath.Join(dir, "ok.golden.json")))
		ok := filepath.Join(dir, "ok.input.json")
		r := runCmd(t, "", nil, "check", "--explain", dir)
		assert.Contains(t, r.stdout, "FAIL "+ok+": no golden file ok.golden.json; if the new output is right, run 'normalizer check --explain --update "+ok+"'\n")
		r = runCmd(t, "", nil, "check", "--explain", "--update", ok)
		assert.Equal(t, 0, r.code, r.stdout)
		assert.Equal(t, runCmd(t, "", nil, "normalize", "--explain", ok).stdout, readFile(t, filepath.Join(dir, "ok.golden.json")))
	})
	t.Run("bad format", func(t *testing.T) {
		r := runCmd(t, "", nil, "check", "--format", "yaml", t.TempDir())
		assert.Equal(t, 2, r.code)
		assert.Equal(t, "normalizer: check: --format \"yaml\": expected json or text\n", r.stderr)
	})
}

// TestCheckText: --format text compares NAME.golden.txt, the report of `normalize --format
// text` for the case's file named by its base name.
func TestCheckText(t *testing.T) {
	dir := corpusDir(t)
	role := filepath.Join(dir, "dirty", "role.input.json")
	r := runCmd(t, "", nil, "check", "--explain", "--format", "text", role)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "FAIL "+role+": no golden file role.golden.txt; if the new output is right, run 'normalizer check --explain --format text --update "+role+"'\n"+
		"0 passed, 1 failed; 1 NAME.golden.json file not compared (check, or check --explain, compares them)\n", r.stdout)

	r = runCmd(t, "", nil, "check", "--format", "text", "--update", dir)
	assert.Equal(t, 0, r.code, r.stdout)
	report := runCmd(t, "", nil, "normalize", "--format", "text", role).stdout
	require.Contains(t, report, role+": accepted, 1 warning, 1 note\n")
	assert.Equal(t, strings.ReplaceAll(report, role, "role.input.json"), readFile(t, filepath.Join(dir, "dirty", "role.golden.txt")))

	r = runCmd(t, "", nil, "check", "--explain", "--format", "text", dir)
	assert.Equal(t, 0, r.code, r.stdout)
	assert.Equal(t, "4 passed, 0 failed; 4 NAME.golden.json files not compared (check, or check --explain, compares them)\n", r.stdout)
	r = runCmd(t, "", nil, "check", dir)
	assert.Equal(t, "4 passed, 0 failed; 4 NAME.golden.txt files not compared (check --explain --format text compares them)\n", r.stdout)
}

// TestCheckDiffNamesTheMode: a mismatch's diff is headed by the command line that prints the
// output it compares, with the mode's flags, so that running it shows the new output.
func TestCheckDiffNamesTheMode(t *testing.T) {
	tests := []struct {
		name     string
		flags    []string
		corpus   func(*testing.T) string
		golden   string // the golden file changed, beside DIR/ok.input.json (written first)
		from, to string // the change
		header   string // after "+++ "
	}{
		{name: "plain", corpus: corpusDir, golden: "ok.golden.json", from: "done", to: "old answer", header: "normalize"},
		{name: "explain", flags: []string{"--explain"}, corpus: explainCorpus, golden: "ok.golden.json", from: "done", to: "old answer", header: "normalize --explain"},
		{name: "text", flags: []string{"--format", "text"}, corpus: corpusDir, golden: "ok.golden.txt", from: "Nothing to fix.", to: "Fix it.", header: "normalize --explain --format text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.corpus(t)
			ok := filepath.Join(dir, "ok.input.json")
			golden := filepath.Join(dir, tt.golden)
			r := runCmd(t, "", nil, append(append([]string{"check"}, tt.flags...), "--update", ok)...)
			require.Equal(t, 0, r.code, r.stdout)
			changed := strings.Replace(readFile(t, golden), tt.from, tt.to, 1)
			require.NotEqual(t, readFile(t, golden), changed)
			require.NoError(t, os.WriteFile(golden, []byte(changed), 0o644))
			r = runCmd(t, "", nil, append(append([]string{"check"}, tt.flags...), ok)...)
			assert.Equal(t, 1, r.code)
			assert.Contains(t, r.stdout, "\n--- "+golden+"\n+++ "+tt.header+" "+ok+"\n@@ ")
		})
	}
}

// TestCheckRepoTestdata: the repository's corpora pass, each in its mode, and a plain update
// of the parent directory leaves the explain corpus as it is (the review's `check --update
// testdata` rewrote its explain views without their diagnostics).
func TestCheckRepoTestdata(t *testing.T) {
	const testdata = "../../testdata"
	for _, args := range [][]string{
		{"check", testdata + "/golden"},
		{"check", "--explain", testdata + "/explain"},
		{"check", "--explain", "--format", "text", testdata + "/explain"},
	} {
		r := runCmd(t, "", nil, args...)
		assert.Equal(t, 0, r.code, "%s:\n%s%s", strings.Join(args, " "), r.stdout, r.stderr)
	}

	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(testdata)))
	before := os.DirFS(testdata)
	r := runCmd(t, "", nil, "check", "--update", dir)
	assert.Equal(t, 1, r.code)
	explain, err := filepath.Glob(filepath.Join(testdata, "explain", "*.golden.json"))
	require.NoError(t, err)
	require.NotEmpty(t, explain)
	// A rejected case's golden file is an error object, the same in both modes (rejected-*)
	// unless it carries the explain view's advice: the plain check passes it as it is. Every
	// other one is an explain view, refused.
	views := 0
	for _, path := range explain {
		var top map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(readFile(t, path)), &top), path)
		var rejection map[string]json.RawMessage
		_ = json.Unmarshal(top["error"], &rejection)
		if _, ok := top["diagnostics"]; ok || rejection["advice"] != nil {
			views++
		} else {
			assert.Contains(t, top, "error", "%s is neither an explain view nor an error object", path)
		}
	}
	assert.Equal(t, views, strings.Count(r.stdout, "is an explain golden"), r.stdout)
	assert.NotContains(t, r.stdout, "wrote ")
	for _, path := range explain {
		rel, err := filepath.Rel(testdata, path)
		require.NoError(t, err)
		want, err := fs.ReadFile(before, rel)
		require.NoError(t, err)
		assert.Equal(t, string(want), readFile(t, filepath.Join(dir, rel)))
	}
}

// failingStdout fails every write, as standard output on a full disk (/dev/full) does.
type failingStdout struct{}

func (failingStdout) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestCheckWriteError: a report that cannot be written is an I/O error (exit 2), not a pass.
func TestCheckWriteError(t *testing.T) {
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"check", corpusDir(t)}, func(string) string { return "" }, strings.NewReader(""), failingStdout{}, &stderr)
	assert.Equal(t, 2, exitCode(err, &stderr))
	assert.Equal(t, "normalizer: write output: no space left on device\n", stderr.String())
}

// TestCheckCRLF: a golden file with CRLF line ends fails (golden files pin exact bytes), and
// the report says why in words, not with a diff of two lines that look the same.
func TestCheckCRLF(t *testing.T) {
	dir := corpusDir(t)
	golden := filepath.Join(dir, "ok.golden.json")
	require.NoError(t, os.WriteFile(golden, []byte(strings.ReplaceAll(readFile(t, golden), "\n", "\r\n")), 0o644))
	r := runCmd(t, "", nil, "check", dir)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, "(the golden file has CRLF (Windows) line endings; the output has LF: convert it with dos2unix")
	assert.Contains(t, r.stdout, " (CRLF line end)\n+{")
}

// An interrupted check (Ctrl-C: main's context) exits 2 and says how far it got.
func TestCheckInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"check", corpusDir(t)}, func(string) string { return "" }, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 2, exitCode(err, &stderr))
	assert.Empty(t, stdout.String())
	assert.Equal(t, "normalizer: check interrupted after 0 cases (0 passed, 0 failed)\n", stderr.String())
}

func TestCheckedSoFar(t *testing.T) {
	assert.Equal(t, "1 case (1 passed, 0 failed)", checkedSoFar(golden.Report{Passed: 1}))
	assert.Equal(t, "3 cases (2 passed, 1 failed; 2 golden files written)", checkedSoFar(golden.Report{Passed: 2, Failed: 1, Written: 2}))
}

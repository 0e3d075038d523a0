package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		assert.Contains(t, r.stdout, "FAIL "+filepath.Join(dir, "ok.input.json")+": output differs from ok.golden.json; if the new output is right, run 'normalizer check --update "+dir+"'\n")
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
		assert.True(t, strings.HasSuffix(r.stdout, "\n5 passed, 0 failed\n"), r.stdout)
		assert.Equal(t, `{"final_response":"new case","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}`+"\n", readFile(t, filepath.Join(dir, "new.golden.json")))

		r = runCmd(t, "", nil, "check", dir)
		assert.Equal(t, 0, r.code, r.stdout)
		assert.Equal(t, "5 passed, 0 failed\n", r.stdout)
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

func TestCheckUsage(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{name: "help", args: []string{"check", "-h"}, code: 0, stdout: "Usage: normalizer check [--update] [-v] DIR"},
		{name: "no dir", args: []string{"check"}, code: 2, stderr: "check: found 0 arguments (), expected one directory"},
		{name: "two dirs", args: []string{"check", "a", "b"}, code: 2, stderr: "found 2 arguments (a b)"},
		{name: "missing dir", args: []string{"check", "/nonexistent/golden"}, code: 2, stderr: "normalizer: check /nonexistent/golden: stat /nonexistent/golden: no such file or directory"},
		{name: "unknown flag", args: []string{"check", "--force", empty}, code: 2, stderr: "flag provided but not defined: -force"},
		{name: "nothing to check", args: []string{"check", empty}, code: 1, stdout: "0 passed, 0 failed\n", stderr: "found no NAME.input.json files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", nil, tt.args...)
			assert.Equal(t, tt.code, r.code, r.stdout+r.stderr)
			assert.Contains(t, r.stdout, tt.stdout)
			assert.Contains(t, r.stderr, tt.stderr)
		})
	}
}

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func runFixCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"fix"}, args...), func(string) string { return "" }, strings.NewReader(stdin), &out, &errOut)
	return exitCode(err, &errOut), out.String(), errOut.String()
}

func TestFixCommand(t *testing.T) {
	const doc = "{\"final_response\": \"ok\",\n \"messages\": [{\"role\": \"User\", \"content\": \"hi\"}, {\"role\": \"developer\", \"content\": \"x\"}]}\n"
	code, out, _ := runFixCmd(t, doc)
	require.Equal(t, 0, code)
	require.Equal(t, strings.Replace(doc, `"User"`, `"user"`, 1), out)

	code, out, _ = runFixCmd(t, doc, "--unsafe", "-")
	require.Equal(t, 0, code)
	require.Equal(t, strings.NewReplacer(`"User"`, `"user"`, `"developer"`, `"system"`).Replace(doc), out)

	dir := t.TempDir()
	path := filepath.Join(dir, "result.json")
	require.NoError(t, os.WriteFile(path, []byte(doc), 0o600))
	code, diff, _ := runFixCmd(t, "", "--diff", path)
	require.Equal(t, 0, code)
	require.True(t, strings.HasPrefix(diff, "--- a/"+path+"\n+++ b/"+path+"\n@@ -1,2 +1,2 @@\n"), diff)
	if patchTool, err := exec.LookPath("patch"); err == nil { // the diff applies as diff(1)'s does
		require.NoError(t, os.WriteFile(filepath.Join(dir, "d.diff"), []byte(diff), 0o600))
		cmd := exec.Command(patchTool, "-s", path, filepath.Join(dir, "d.diff"))
		outp, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", outp)
		got, _ := os.ReadFile(path)
		require.Equal(t, strings.Replace(doc, `"User"`, `"user"`, 1), string(got))
	}

	code, out, _ = runFixCmd(t, `{"final_response": "fine"}`, "--diff")
	require.Equal(t, 0, code)
	require.Empty(t, out)

	code, out, errOut := runFixCmd(t, `{"final_response": ""}`)
	require.Equal(t, 1, code)
	require.Equal(t, `{"final_response": ""}`, out)
	require.Contains(t, errOut, `"class":"ResponseShapeError"`)
	require.Contains(t, errOut, "normalizer: standard input rejected: ResponseShapeError")

	code, _, errOut = runFixCmd(t, "", "a", "b")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "expected at most one")
	code, _, _ = runFixCmd(t, "", "--bogus")
	require.Equal(t, 2, code)
	code, out, _ = runFixCmd(t, "", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "Usage: normalizer fix")
}

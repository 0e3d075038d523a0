package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// viewCorpus: three results, one accepted with warnings, one rejected, one blank.
const viewCorpus = `{"final_response":"ok","metadata":{"a":1,"a":2}}` + "\n" + `{"answer":"x"}` + "\n\n"

// getBody GETs url and returns the status and body.
func getBody(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := probeClient.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(b)
}

// checkView checks a running view's routes from the address it printed.
func checkView(t *testing.T, url string) {
	t.Helper()
	require.True(t, strings.HasPrefix(url, "http://127.0.0.1:") && strings.HasSuffix(url, "/corpus"), url)
	base := strings.TrimSuffix(url, "/corpus")
	status, body := getBody(t, url)
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `<table id="results">`)
	status, body = getBody(t, base+"/v1/corpus?verdict=rejected")
	require.Equal(t, http.StatusOK, status, body)
	var page struct {
		Total, Matching int
		Items           []struct{ Item int }
	}
	require.NoError(t, json.Unmarshal([]byte(body), &page))
	assert.Equal(t, 3, page.Total)
	assert.Equal(t, 2, page.Matching)
	status, body = getBody(t, base+"/v1/corpus/items/1")
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, `{"answer":"x"}`, body)
}

// view runs `normalizer view` in this process on a listener handed to it; the address comes
// from its first line of standard output, read from a pipe as it is written.
func TestViewServesCorpus(t *testing.T) {
	path := writeFile(t, "corpus.jsonl", viewCorpus)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(withListener(ctx, ln), []string{"view", path}, envOf(nil), nil, pw, &stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err, "stderr:\n%s", stderr.String())
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	assert.Equal(t, "http://"+ln.Addr().String()+"/corpus\n", line)
	checkView(t, strings.TrimSpace(line))
	cancel()
	require.NoError(t, <-done)
	assert.Contains(t, stderr.String(), "normalizer: "+path+": 3 results in ")
}

func TestViewGolden(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.input.json"), []byte(`{"final_response":"a"}`), 0o644))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(withListener(ctx, ln), []string{"view", dir}, envOf(nil), nil, pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	_, body := getBody(t, strings.TrimSuffix(strings.TrimSpace(line), "/corpus")+"/v1/corpus")
	assert.Contains(t, body, `"name":"a"`)
	cancel()
	require.NoError(t, <-done)
}

func TestViewUsageErrors(t *testing.T) {
	path := writeFile(t, "corpus.jsonl", viewCorpus)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no operand", []string{"view"}, "view: found 0 operands, expected one FILE or DIR"},
		{"two operands", []string{"view", path, path}, "view: found 2 operands, expected one FILE or DIR"},
		{"not loopback", []string{"view", "--listen", "0.0.0.0:0", path}, `view: --listen "0.0.0.0:0": not a loopback address`},
		{"no port", []string{"view", "--listen", "127.0.0.1", path}, `view: --listen "127.0.0.1": address 127.0.0.1: missing port in address`},
		{"missing file", []string{"view", filepath.Join(t.TempDir(), "nope.jsonl")}, "no such file or directory"},
		{"zero max-bytes", []string{"view", "--max-bytes", "0", path}, "view: --max-bytes is 0"},
		{"bad log level", []string{"view", "--log-level", "loud", path}, `view: --log-level is "loud"`},
		{"unknown flag", []string{"view", "--addr", ":1", path}, "view: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", nil, tt.args...)
			assert.Equal(t, exitUsage, r.code)
			assert.Contains(t, r.stderr, tt.want)
			assert.Empty(t, r.stdout, "no address printed")
		})
	}
}

// The process: `normalizer view FILE` on a free port prints its address, serves it, and
// stops cleanly on SIGINT and SIGTERM (exit 0). Its standard output is a pipe, read as the
// line is written: nothing is polled.
func TestProcessView(t *testing.T) {
	path := writeFile(t, "corpus.jsonl", viewCorpus)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(signalName(sig), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "view", path)
			cmd.Env = append(os.Environ(), runMainEnv+"=1", "GORACE=atexit_sleep_ms=0 "+os.Getenv("GORACE"))
			var stderr lockedBuffer
			cmd.Stderr = &stderr
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			line, err := bufio.NewReader(out).ReadString('\n')
			require.NoError(t, err, "stderr:\n%s", stderr.String())
			checkView(t, strings.TrimSpace(line))
			require.NoError(t, cmd.Process.Signal(sig))
			_, _ = io.Copy(io.Discard, out)
			err = cmd.Wait()
			require.NoError(t, err, "stderr:\n%s", stderr.String())
			assert.Equal(t, 0, cmd.ProcessState.ExitCode())
		})
	}
}

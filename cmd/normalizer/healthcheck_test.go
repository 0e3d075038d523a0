package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/refused"
)

func TestHealthcheck(t *testing.T) {
	healthy := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			w.WriteHeader(200)
			return
		}
		w.WriteHeader(503)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: healthy}
	go srv.Serve(ln)
	defer srv.Close()
	addr := ln.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	closedAddr := refused.Addr(t) // bound, never listening: connecting is refused

	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		wantCode   int
		wantStderr string // for exit 1 and 2
	}{
		{name: "healthy", args: []string{"--url", "http://" + addr + "/healthz"}, wantCode: 0},
		{name: "port-from-addr-env", env: map[string]string{"NORMALIZER_ADDR": ":" + port}, wantCode: 0},
		{name: "host-and-port-from-addr-env", env: map[string]string{"NORMALIZER_ADDR": addr}, wantCode: 0},
		{name: "url-env", env: map[string]string{"NORMALIZER_HEALTHCHECK_URL": "http://" + addr + "/healthz"}, wantCode: 0},
		{name: "flag-wins-over-env", args: []string{"--url", "http://" + addr + "/healthz"},
			env: map[string]string{"NORMALIZER_HEALTHCHECK_URL": "://", "NORMALIZER_ADDR": "bad"}, wantCode: 0},
		{name: "timeout-flag", args: []string{"--timeout", "2s", "--url", "http://" + addr + "/healthz"}, wantCode: 0},
		{name: "unhealthy-status", args: []string{"--url", "http://" + addr + "/readyz"}, wantCode: 1, wantStderr: "status 503, expected 200"},
		{name: "nothing-listening", args: []string{"--url", "http://" + closedAddr + "/healthz"}, wantCode: 1, wantStderr: closedAddr},
		{name: "nothing-listening-addr-env", env: map[string]string{"NORMALIZER_ADDR": closedAddr}, wantCode: 1,
			wantStderr: "GET http://" + closedAddr + "/healthz"},
		{name: "bad-url", args: []string{"--url", "://"}, wantCode: 2, wantStderr: `--url "://"`},
		{name: "url-without-scheme", args: []string{"--url", "127.0.0.1:8080/healthz"}, wantCode: 2, wantStderr: "expected a URL such as"},
		{name: "hostname-without-scheme", args: []string{"--url", "localhost:8080/healthz"}, wantCode: 2, wantStderr: `found scheme "localhost"`},
		{name: "url-other-scheme", args: []string{"--url", "ftp://127.0.0.1/healthz"}, wantCode: 2, wantStderr: `found scheme "ftp"`},
		{name: "url-without-host", args: []string{"--url", "http:///healthz"}, wantCode: 2, wantStderr: "found no host"},
		{name: "bad-url-env", env: map[string]string{"NORMALIZER_HEALTHCHECK_URL": "://"}, wantCode: 2,
			wantStderr: `NORMALIZER_HEALTHCHECK_URL "://"`},
		{name: "bad-addr-env", env: map[string]string{"NORMALIZER_ADDR": "8080"}, wantCode: 2, wantStderr: `NORMALIZER_ADDR="8080"`},
		{name: "negative-timeout", args: []string{"--url", "http://" + addr + "/healthz", "--timeout", "-1s"}, wantCode: 2,
			wantStderr: "--timeout is -1s; expected a positive duration"},
		{name: "zero-timeout", args: []string{"--timeout", "0s"}, wantCode: 2, wantStderr: "--timeout is 0s"},
		{name: "unparsable-timeout", args: []string{"--timeout", "soon"}, wantCode: 2, wantStderr: "-timeout"},
		{name: "operand", args: []string{"x"}, wantCode: 2, wantStderr: `found "x", expected no arguments`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), append([]string{"healthcheck"}, tt.args...), envOf(tt.env), nil, &stdout, &stderr)
			require.Equal(t, tt.wantCode, exitCode(err, &stderr), "err %v", err)
			if tt.wantCode == 0 {
				assert.True(t, strings.HasPrefix(stdout.String(), "ok: http://"), stdout.String())
				return
			}
			var ee *exitError
			require.True(t, errors.As(err, &ee))
			assert.Contains(t, stderr.String(), "normalizer: healthcheck:")
			assert.Contains(t, stderr.String(), tt.wantStderr)
		})
	}
}

func TestDefaultHealthURL(t *testing.T) {
	tests := []struct {
		name    string
		addr    string
		want    string
		wantErr string
	}{
		{name: "unset", addr: "", want: "http://127.0.0.1:8080/healthz"},
		{name: "port-only", addr: ":9090", want: "http://127.0.0.1:9090/healthz"},
		{name: "ipv4-any", addr: "0.0.0.0:81", want: "http://127.0.0.1:81/healthz"},
		{name: "ipv6-any", addr: "[::]:9000", want: "http://127.0.0.1:9000/healthz"},
		{name: "ipv6-any-long", addr: "[0:0:0:0:0:0:0:0]:9000", want: "http://127.0.0.1:9000/healthz"},
		{name: "ipv4-loopback", addr: "127.0.0.1:8080", want: "http://127.0.0.1:8080/healthz"},
		{name: "ipv4-specific", addr: "10.1.2.3:8080", want: "http://10.1.2.3:8080/healthz"},
		{name: "ipv6-loopback", addr: "[::1]:9000", want: "http://[::1]:9000/healthz"},
		{name: "ipv6-specific", addr: "[2001:db8::7]:443", want: "http://[2001:db8::7]:443/healthz"},
		{name: "ipv6-zone", addr: "[fe80::1%eth0]:8080", want: "http://[fe80::1%25eth0]:8080/healthz"},
		{name: "hostname", addr: "localhost:8080", want: "http://localhost:8080/healthz"},
		{name: "dns-name", addr: "normalizer.internal:80", want: "http://normalizer.internal:80/healthz"},
		{name: "service-name-port", addr: ":http", want: "http://127.0.0.1:80/healthz"},
		{name: "no-port", addr: "bad", wantErr: "missing port in address"},
		{name: "bare-port", addr: "8080", wantErr: "missing port in address"},
		{name: "empty-port", addr: "10.1.2.3:", wantErr: "pick a free port"},
		{name: "zero-port", addr: ":0", wantErr: "pick a free port"},
		{name: "port-out-of-range", addr: ":70000", wantErr: "invalid port"},
		{name: "ipv6-unbracketed", addr: "::1:9000", wantErr: "too many colons"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := defaultHealthURL(tt.addr)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestHealthcheckAgainstServe probes the real `serve` on 127.0.0.1 with the URL derived from
// NORMALIZER_ADDR in each of the forms a deployment may use for that address.
func TestHealthcheckAgainstServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// done is closed after the result: the cleanup must not wait should listeningAddr take it.
	logs, done := startServe(ctx, nil, "--addr", "127.0.0.1:0")
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop within 20 s of its context's end")
		}
	})
	addr := listeningAddr(t, logs, done)
	_, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)

	for _, a := range []string{addr, ":" + port, "0.0.0.0:" + port, "[::]:" + port} {
		t.Run(a, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(ctx, []string{"healthcheck", "--timeout", "10s"}, envOf(map[string]string{"NORMALIZER_ADDR": a}), nil, &stdout, &stderr)
			require.NoError(t, err, stderr.String())
			assert.Equal(t, "ok: http://"+addr+"/healthz\n", stdout.String())
		})
	}
}

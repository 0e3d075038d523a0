package httpapi

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nginxConf runs nginx in the foreground, a master and one worker (nginx 1.22 given an
// inherited socket crashes with master_process off), everything under its prefix, proxying to
// upstream with request buffering (nginx's default: the whole body is read before it is
// forwarded) and a client_max_body_size larger than the service's limit, so that the service's
// 413 is what stops a large body. The worker runs as the test's user (%[4]s), so that it can
// write its temporary files under the test's directory.
const nginxConf = `daemon off;
worker_processes 1;
%[4]s
error_log stderr notice;
pid %[1]s/nginx.pid;
events { worker_connections 64; }
http {
	access_log off;
	client_body_temp_path %[1]s/body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	client_max_body_size 256m;
	server {
		listen %[2]s;
		location / {
			proxy_pass http://%[3]s;
			proxy_http_version 1.1;
		}
	}
}
`

// startNginx runs nginx in front of upstream and returns its address. nginx is handed the
// listening socket, opened here on 127.0.0.1:0, as it hands sockets to a new binary of its
// own: the descriptor's number in the NGINX environment variable ("3;"); the config's listen
// names the same address, so nginx takes the inherited socket rather than binding one. The
// socket listens already, so there is nothing to wait for; nginx stops with the test.
func startNginx(t *testing.T, upstream string) string {
	t.Helper()
	needTools(t, "nginx")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close() // nginx has its own descriptor of it
	f, err := ln.(*net.TCPListener).File()
	require.NoError(t, err)
	defer f.Close()
	dir := t.TempDir()
	conf := filepath.Join(dir, "nginx.conf")
	user := "" // nginx's workers run as the user that starts it, unless that is root
	if os.Geteuid() == 0 {
		user = "user root;"
	}
	require.NoError(t, os.WriteFile(conf, fmt.Appendf(nil, nginxConf, dir, ln.Addr(), upstream, user), 0o600))
	cmd := exec.Command(nginxPath(), "-p", dir, "-c", conf, "-e", "stderr")
	cmd.ExtraFiles = []*os.File{f} // descriptor 3
	cmd.Env = append(os.Environ(), "NGINX=3;")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("nginx's log:\n%s", stderr.String())
		}
	})
	return ln.Addr().String()
}

// TestRefusalThroughNginx: behind nginx buffering the body, a body over the service's limit
// but within nginx's client_max_body_size gets the service's 413, not nginx's 502 (which it
// answers when the upstream closes on it while it is still sending the body).
func TestRefusalThroughNginx(t *testing.T) {
	s, _ := newTestServer(t, Config{BodyLimit: clientLimit})
	upstream := startServer(t, s, Timeouts{LingerTime: 5 * time.Minute, LingerTimeout: time.Minute})
	front := startNginx(t, upstream)
	client := &http.Client{Timeout: 60 * time.Second}
	defer client.CloseIdleConnections()
	for _, u := range []struct {
		times   int
		chunked bool
	}{{2, false}, {10, false}, {40, false}, {10, true}} {
		var body io.Reader = bytes.NewReader(bytes.Repeat([]byte("x"), u.times*clientLimit))
		if u.chunked {
			body = onlyReader{body}
		}
		res, err := client.Post("http://"+front+routeNormalize, "application/json", body)
		require.NoError(t, err)
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		require.NoError(t, err)
		if assert.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode, "%dx the limit, chunked %v: %s", u.times, u.chunked, b) {
			assert.Equal(t, "PayloadTooLarge", errorClassOf(b))
		}
	}
}

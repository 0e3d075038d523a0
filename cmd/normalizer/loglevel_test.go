package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeLogLevel: --log-level and NORMALIZER_LOG_LEVEL reach the real serve's logger. At warn,
// a request answered normally (200, 404) writes no access line, and neither do the info lines of
// start-up and shutdown; at info and debug, both are there. The flag wins over the variable.
func TestServeLogLevel(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		wantInfo bool
	}{
		{name: "flag-warn", args: []string{"--log-level", "warn"}},
		{name: "env-warn", env: map[string]string{"NORMALIZER_LOG_LEVEL": "warn"}},
		{name: "env-error-any-case", env: map[string]string{"NORMALIZER_LOG_LEVEL": "ERROR"}},
		{name: "flag-info-wins-over-env", args: []string{"--log-level", "info"}, env: map[string]string{"NORMALIZER_LOG_LEVEL": "error"}, wantInfo: true},
		{name: "env-debug", env: map[string]string{"NORMALIZER_LOG_LEVEL": "debug"}, wantInfo: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// At warn there is no "listening" line to read the address from: serve is handed a
			// listener on a free port, which takes connections from the start.
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			defer ln.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			logs, done := startServe(withListener(ctx, ln), tt.env, append([]string{"--shutdown-grace", "5s"}, tt.args...)...)
			base := "http://" + ln.Addr().String()
			res, err := http.Get(base + "/healthz")
			require.NoError(t, err, logs.String())
			res.Body.Close()
			require.Equal(t, 200, res.StatusCode)
			res, err = http.Get(base + "/no-such-route")
			require.NoError(t, err)
			res.Body.Close()
			require.Equal(t, 404, res.StatusCode)
			http.DefaultClient.CloseIdleConnections()

			cancel()
			select {
			case err := <-done:
				require.NoError(t, err, logs.String())
			case <-time.After(30 * time.Second):
				t.Fatal("serve did not stop")
			}

			var messages []string
			sc := bufio.NewScanner(strings.NewReader(logs.String()))
			for sc.Scan() {
				var l struct{ Level, Message string }
				require.NoError(t, json.Unmarshal(sc.Bytes(), &l), sc.Text())
				if !tt.wantInfo {
					assert.Contains(t, []string{"warn", "error"}, l.Level, "a line below the level: %s", sc.Text())
				}
				messages = append(messages, l.Message)
			}
			if tt.wantInfo {
				assert.Contains(t, messages, "listening")
				assert.Contains(t, messages, "request", "the access lines are info")
				assert.Contains(t, messages, "stopped")
			} else {
				assert.NotContains(t, messages, "request")
			}
		})
	}
}

package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeLimitsFromEnvironment: every limit set by its NORMALIZER_ variable alone, as a
// container's environment sets it, reaches the real serve's answers over a real connection
// (TestServeFlagsAndEnv checks the parsed values; this checks they are the ones enforced).
func TestServeLimitsFromEnvironment(t *testing.T) {
	t.Run("sizes-depth-in-flight", func(t *testing.T) {
		addr, stop := serveWithEnv(t, map[string]string{
			"NORMALIZER_BODY_LIMIT": "1KiB", "NORMALIZER_MAX_DEPTH": "3", "NORMALIZER_MAX_HEADER_BYTES": "4KiB",
			"NORMALIZER_MAX_IN_FLIGHT": "1", "NORMALIZER_RETRY_AFTER": "7s", "NORMALIZER_MEMORY_BUDGET": "off",
		})
		exchange := func(req string) (*http.Response, string) {
			t.Helper()
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer conn.Close()
			go func() { _, _ = io.WriteString(conn, req) }()
			res, b, err := readAnswer(conn)
			require.NoError(t, err)
			return res, string(b)
		}
		post := func(body string) string { return fmt.Sprintf(attackHead+"%s", len(body), body) }

		res, b := exchange(post(`{"final_response":"a","metadata":{"a":[1]}}`)) // depth 3
		assert.Equal(t, 200, res.StatusCode, b)
		res, b = exchange(post(`{"final_response":"a","metadata":{"a":[[1]]}}`)) // depth 4
		assert.Equal(t, 400, res.StatusCode, b)
		assert.Contains(t, b, "nesting deeper than 3 levels")

		res, b = exchange(post(`{"final_response":"` + strings.Repeat("a", 1100) + `"}`))
		assert.Equal(t, 413, res.StatusCode, b)
		assert.Contains(t, b, `"limit":1024`)

		res, _ = exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("b", 12<<10) + "\r\n\r\n")
		assert.Equal(t, 431, res.StatusCode)
		res, _ = exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("b", 4<<10-64) + "\r\n\r\n")
		assert.Equal(t, 200, res.StatusCode)

		// One request held in flight (its body not yet sent): the next is refused at once.
		held, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer held.Close()
		body := `{"final_response":"held"}`
		_, err = fmt.Fprintf(held, attackHead+"%s", len(body), body[:5])
		require.NoError(t, err)
		var refused *http.Response
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if refused, b = exchange(post(`"x"`)); refused.StatusCode == 429 {
				break
			}
		}
		require.Equal(t, 429, refused.StatusCode, b)
		assert.Equal(t, "7", refused.Header.Get("Retry-After"))
		_, err = io.WriteString(held, body[5:])
		require.NoError(t, err)
		res, heldBody, err := readAnswer(held)
		require.NoError(t, err)
		assert.Equal(t, 200, res.StatusCode, string(heldBody))

		stop()
	})

	t.Run("read-timeout", func(t *testing.T) {
		addr, stop := serveWithEnv(t, map[string]string{
			"NORMALIZER_READ_TIMEOUT": "400ms",
		})

		// A body that stops arriving: 408 once the read timeout has passed.
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer conn.Close()
		start := time.Now()
		_, err = io.WriteString(conn, fmt.Sprintf(attackHead, 100)+"{")
		require.NoError(t, err)
		res, b, err := readAnswer(conn)
		require.NoError(t, err)
		assert.Equal(t, 408, res.StatusCode, string(b))
		assert.Less(t, time.Since(start), 5*time.Second)

		stop()
	})

	// Alone: without an idle timeout, net/http falls back to the read timeout.
	t.Run("idle-timeout", func(t *testing.T) {
		addr, stop := serveWithEnv(t, map[string]string{
			"NORMALIZER_IDLE_TIMEOUT": "300ms",
		})

		// A keep-alive connection left idle is closed by the server after the idle timeout.
		idle, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer idle.Close()
		_, err = io.WriteString(idle, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		require.NoError(t, err)
		res, _, err := readAnswer(idle)
		require.NoError(t, err)
		require.Equal(t, 200, res.StatusCode)
		start := time.Now()
		_ = idle.SetReadDeadline(time.Now().Add(10 * time.Second))
		n, err := idle.Read(make([]byte, 1))
		assert.Equal(t, 0, n)
		assert.ErrorIs(t, err, io.EOF, "the server closes the idle connection")
		assert.Less(t, time.Since(start), 5*time.Second, "closed by the idle timeout, not the test's deadline")

		stop()
	})
}

// serveWithEnv starts the real serve on 127.0.0.1:0 with env, the limits under test, as its
// only settings (no drain delay, a short grace), and returns its address and a stop that
// cancels it and requires a clean exit.
func serveWithEnv(t *testing.T, env map[string]string) (addr string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	all := map[string]string{"NORMALIZER_ADDR": "127.0.0.1:0", "NORMALIZER_DRAIN_DELAY": "0s", "NORMALIZER_SHUTDOWN_GRACE": "5s"}
	for k, v := range env {
		all[k] = v
	}
	logs, done := startServe(ctx, all)
	addr = listeningAddr(t, logs, done)
	return addr, func() {
		t.Helper()
		cancel()
		require.NoError(t, <-done, logs.String())
	}
}

package main

import (
	"bufio"
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

		// One request held in flight: its headers ask for 100 Continue, which the server sends
		// when the handler, past the in-flight limit's count, starts reading the body. With the
		// slot known to be held, the next request is refused at once.
		held, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer held.Close()
		body := `{"final_response":"held"}`
		_, err = fmt.Fprintf(held, "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n", len(body))
		require.NoError(t, err)
		_ = held.SetReadDeadline(time.Now().Add(30 * time.Second)) // a hang's backstop
		heldAnswers := bufio.NewReader(held)
		res, err = http.ReadResponse(heldAnswers, nil)
		require.NoError(t, err)
		require.Equal(t, 100, res.StatusCode, "the held request's handler reads its body")
		refused, b := exchange(post(`"x"`))
		require.Equal(t, 429, refused.StatusCode, b)
		assert.Equal(t, "7", refused.Header.Get("Retry-After"))
		_, err = io.WriteString(held, body)
		require.NoError(t, err)
		res, err = http.ReadResponse(heldAnswers, nil)
		require.NoError(t, err)
		heldBody, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		assert.Equal(t, 200, res.StatusCode, string(heldBody))
		assert.JSONEq(t, `{"final_response":"held","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}`, string(heldBody))

		// The slot is free again.
		res, b = exchange(post(`"x"`))
		assert.Equal(t, 200, res.StatusCode, b)

		stop()
	})

	t.Run("read-timeout", func(t *testing.T) {
		addr, stop := serveWithEnv(t, map[string]string{
			"NORMALIZER_READ_TIMEOUT": "400ms",
		})

		// A body that stops arriving: 408 once the read timeout has passed. readAnswer gives up
		// after 20 s, a third of the default read timeout (60 s): an answer at all is the
		// variable's timeout, however slow the machine, and nothing is timed.
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer conn.Close()
		_, err = io.WriteString(conn, fmt.Sprintf(attackHead, 100)+"{")
		require.NoError(t, err)
		res, b, err := readAnswer(conn)
		require.NoError(t, err)
		assert.Equal(t, 408, res.StatusCode, string(b))

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
		// The test's deadline, 30 s, is under the default idle timeout (120 s) and read timeout
		// (60 s): EOF before it is the variable's timeout, and a timeout error would be the test's.
		_ = idle.SetReadDeadline(time.Now().Add(30 * time.Second))
		n, err := idle.Read(make([]byte, 1))
		assert.Equal(t, 0, n)
		assert.ErrorIs(t, err, io.EOF, "the server closes the idle connection, before the test's deadline")

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

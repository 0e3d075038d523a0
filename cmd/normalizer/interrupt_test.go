package main

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
)

// signalled is a context as main's is once sig arrived.
func signalled(sig syscall.Signal) context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&interrupt{sig: sig})
	return ctx
}

// TestInterruptedExitCodes: a command that main's context stopped exits with the signal's
// code (128 + its number) and one line that names the signal; a context cancelled for
// another reason exits 2.
func TestInterruptedExitCodes(t *testing.T) {
	tests := []struct {
		name   string
		ctx    context.Context
		args   []string
		stdin  string
		code   int
		stderr string
	}{
		{name: "normalize SIGTERM", ctx: signalled(syscall.SIGTERM), args: []string{"normalize"}, stdin: `"a"`, code: 143,
			stderr: "normalizer: interrupted (SIGTERM) while reading standard input\n"},
		{name: "normalize SIGINT", ctx: signalled(syscall.SIGINT), args: []string{"normalize"}, stdin: `"a"`, code: 130,
			stderr: "normalizer: interrupted (SIGINT) while reading standard input\n"},
		{name: "normalize FILE", ctx: signalled(syscall.SIGINT), args: []string{"normalize", "in.json"}, code: 130,
			stderr: "normalizer: interrupted (SIGINT) while opening in.json\n"},
		{name: "check", ctx: signalled(syscall.SIGTERM), args: []string{"check", "."}, code: 143,
			stderr: "normalizer: check interrupted (SIGTERM) after 0 cases (0 passed, 0 failed)\n"},
		{name: "cancelled without a signal", ctx: cancelled(), args: []string{"normalize"}, stdin: `"a"`, code: 2,
			stderr: "normalizer: interrupted while reading standard input\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(tt.ctx, tt.args, func(string) string { return "" }, strings.NewReader(tt.stdin), &stdout, &stderr)
			assert.Equal(t, tt.code, exitCode(err, &stderr))
			assert.Equal(t, tt.stderr, stderr.String())
			assert.Empty(t, stdout.String())
		})
	}
}

func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

package main

import (
	"context"
	"errors"
	"io"
)

// runServe runs the HTTP service until ctx is cancelled. (Placeholder until the HTTP service lands.)
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return errors.New("serve: not built yet")
}

// runHealthcheck probes a running service. (Placeholder until the HTTP service lands.)
func runHealthcheck(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return errors.New("healthcheck: not built yet")
}

// Command normalizer normalizes agent handler results: one at a time or in batches on the
// command line, as a golden-file regression check, or as an HTTP service.
//
// Usage:
//
//	normalizer normalize [--jsonl [-j N]] [--explain] [--format json|text] [FILE]
//	normalizer check [--update] [-v] DIR|FILE...
//	normalizer serve [--addr ADDR]
//	normalizer healthcheck [--url URL]
//	normalizer version
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// Exit codes of the contract.
const (
	exitOK       = 0
	exitRejected = 1 // a rejected input, or a golden mismatch
	exitUsage    = 2 // usage or I/O error
)

// exitError carries an exit code out of a subcommand; its message, if any, goes to stderr,
// unless the subcommand has logged it already.
type exitError struct {
	code int
	err  error
	// logged: err went out through serve's logger, so stderr has it as a log line already;
	// a plain-text copy would repeat it and break a JSON log stream.
	logged bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal asks for a clean stop; a second one, say while a read blocks, kills.
	context.AfterFunc(ctx, stop)
	os.Exit(exitCode(run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr), os.Stderr))
}

// exitCode reports err on stderr, when it has something to say, and maps it to an exit code.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && !ee.logged {
			fmt.Fprintln(stderr, "normalizer:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "normalizer:", err)
	return exitUsage
}

// run is the whole program behind main; tests call it with buffers.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return &exitError{code: exitUsage}
	}
	switch args[0] {
	case "normalize":
		return runNormalize(ctx, args[1:], getenv, stdin, stdout, stderr)
	case "check":
		return runCheck(ctx, args[1:], stdout)
	case "version":
		return runVersion(args[1:], stdout)
	case "serve":
		return runServe(ctx, args[1:], getenv, stdout, stderr)
	case "healthcheck":
		return runHealthcheck(ctx, args[1:], getenv, stdout, stderr)
	case "-h", "-help", "--help", "help":
		if args[0] == "help" && len(args) > 1 && !strings.HasPrefix(args[1], "-") {
			return run(ctx, []string{args[1], "-h"}, getenv, stdin, stdout, stderr) // help COMMAND
		}
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usageErrorf("unknown command %q; run 'normalizer help'", args[0])
}

const usage = `normalizer: the platform-side ingest for agent handler results.

Usage:
  normalizer normalize [--jsonl] [--explain] [FILE]   normalize one result (or one per line)
  normalizer normalize --format text [FILE]           what is wrong with a result, and the fix
  normalizer check [--update] DIR|FILE...             golden-file regression check
  normalizer serve [--addr ADDR]                      run the HTTP service
  normalizer healthcheck [--url URL]                  probe a running service (for HEALTHCHECK)
  normalizer version                                  print the version

Run 'normalizer COMMAND -h' for a command's flags.
`

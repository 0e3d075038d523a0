// Command normalizer normalizes agent handler results: one at a time or in batches on the
// command line, as a golden-file regression check, or as an HTTP service.
//
// Usage:
//
//	normalizer normalize [--jsonl [-j N]] [--explain] [--format json|text] [FILE]
//	normalizer fix [--unsafe] [--diff] [FILE]
//	normalizer check [--update] [-v] DIR|FILE...
//	normalizer serve [--addr ADDR]
//	normalizer view [--listen ADDR] FILE|DIR
//	normalizer healthcheck [--url URL]
//	normalizer version (or --version, -v)
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

// Exit codes of the contract. A command stopped by SIGINT or SIGTERM exits 128 + the
// signal's number: interrupt.code.
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
	ctx, stop := interruptContext(context.Background())
	defer stop()
	os.Exit(exitCode(run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr), os.Stderr))
}

// interrupt is the cause of main's context once SIGINT or SIGTERM arrived.
type interrupt struct{ sig syscall.Signal }

func (i *interrupt) Error() string { return "interrupted (" + signalName(i.sig) + ")" }

// code is the exit status of a command the signal stopped, as a shell reports a process the
// signal killed: 128 + the signal's number (130 for SIGINT, 143 for SIGTERM).
func (i *interrupt) code() int { return 128 + int(i.sig) }

func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// interruptContext is cancelled, with an *interrupt as its cause, by the first SIGINT or
// SIGTERM. Every command then stops what it waits for (serve drains); the signal's handler is
// gone by then, so a second signal kills the process as it would without one.
func interruptContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-sigs:
			signal.Stop(sigs)
			cancel(&interrupt{sig: s.(syscall.Signal)})
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(sigs); cancel(nil) }
}

// interrupted is the error of a command that ctx stopped, with what it was doing: "interrupted
// (SIGTERM) while reading standard input". The exit code is the signal's (interrupt.code), or
// 2 when ctx ended for another reason.
func interrupted(ctx context.Context, command, doing string) error {
	code, what := exitUsage, "interrupted"
	var in *interrupt
	if errors.As(context.Cause(ctx), &in) {
		code, what = in.code(), in.Error()
	}
	return &exitError{code: code, err: errors.New(command + what + " " + doing)}
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
	case "fix":
		return runFix(ctx, args[1:], getenv, stdin, stdout, stderr)
	case "version", "--version", "-version", "-v":
		return runVersion(args[1:], stdout)
	case "serve":
		return runServe(ctx, args[1:], getenv, stdout, stderr)
	case "healthcheck":
		return runHealthcheck(ctx, args[1:], getenv, stdout, stderr)
	case "view":
		return runView(ctx, args[1:], stdout, stderr)
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
  normalizer fix [--unsafe] [--diff] [FILE]           apply the fixes of its diagnostics
  normalizer check [--update] DIR|FILE...             golden-file regression check
  normalizer serve [--addr ADDR]                      run the HTTP service
  normalizer view FILE|DIR                            browse a corpus of results in a browser
  normalizer healthcheck [--url URL]                  probe a running service (for HEALTHCHECK)
  normalizer version                                  print the version (also --version, -v)

Run 'normalizer COMMAND -h' for a command's flags.
`

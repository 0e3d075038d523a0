package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/dystopic/normalizer/internal/batch"
	"github.com/dystopic/normalizer/internal/ctxio"
	"github.com/dystopic/normalizer/internal/fixer"
	"github.com/dystopic/normalizer/internal/unidiff"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

const fixUsage = `Usage: normalizer fix [flags] [FILE]

Applies the machine-applicable fixes of a result's diagnostics (the "patch" of a diagnostic's
"fix" in normalize --explain, and of the "advice" beside a rejection's message) to the result
read from FILE, or from standard input when FILE is absent or "-", and prints the fixed result
on standard output. Only the safe fixes are
applied unless --unsafe is given. Fixes are applied round after round, until none applies
(at most 16 rounds), since fixing one thing can reveal another; the bytes no fix touches are
printed as they were, so a result with nothing to fix comes back identical.

Exit codes: 0 fixed result printed; 1 the fixed result is still rejected (it is printed, and
the reason for the rejection, with the error object, goes to standard error); 2 usage or I/O
error; 130 or 143 interrupted.

Flags:
  --unsafe           apply the unsafe fixes too: conversions of another API's shape
                     (an Anthropic tool_result block to a tool message, input to
                     arguments, a developer role to system) that a porter should review
  --diff             print a unified diff from the input to the fixed result instead
                     (nothing when nothing changes)
  --max-bytes SIZE   reject a result longer than SIZE (default 20MiB, or
                     $NORMALIZER_MAX_BYTES)
  --max-depth N      reject JSON nested deeper than N arrays/objects (default %d)
  -h, --help         show this help
`

type fixConfig struct {
	file     string
	unsafe   bool
	diff     bool
	maxBytes int64
	maxDepth int
}

func parseFix(args []string, getenv func(string) string) (fixConfig, error) {
	cfg := fixConfig{}
	var err error
	if cfg.maxBytes, err = envMaxBytes("fix", getenv); err != nil {
		return cfg, err
	}
	fs := flag.NewFlagSet("fix", flag.ContinueOnError)
	fs.BoolVar(&cfg.unsafe, "unsafe", false, "")
	fs.BoolVar(&cfg.diff, "diff", false, "")
	maxBytes := byteSize(cfg.maxBytes)
	fs.Var(&maxBytes, "max-bytes", "")
	fs.IntVar(&cfg.maxDepth, "max-depth", normalize.DefaultMaxDepth, "")
	operands, err := parseFlags(fs, args)
	if err != nil {
		return cfg, err
	}
	cfg.maxBytes = int64(maxBytes)
	switch {
	case len(operands) > 1:
		return cfg, usageErrorf("fix: found %d files (%s), expected at most one", len(operands), strings.Join(operands, " "))
	case cfg.maxDepth < 1:
		return cfg, usageErrorf("fix: --max-depth %d: expected 1 or more", cfg.maxDepth)
	}
	if len(operands) == 1 {
		cfg.file = operands[0]
	}
	return cfg, nil
}

// runFix is `normalizer fix`.
func runFix(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := parseFix(args, getenv)
	if errors.Is(err, errHelp) {
		fmt.Fprintf(stdout, fixUsage, normalize.DefaultMaxDepth)
		return nil
	}
	if err != nil {
		return err
	}
	in, name, size, closeIn, err := openCommandInput(ctx, cfg.file, stdin)
	if err != nil {
		return err
	}
	defer closeIn()
	raw, tooLarge, err := readLimited(in, size, cfg.maxBytes)
	if stoppedBy(ctx, err) {
		return interrupted(ctx, "", "while reading "+name)
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("read %s: %w", name, err)}
	}
	if tooLarge != nil {
		return rejected(name, tooLarge, stderr)
	}
	n := porting.New(normalize.WithMaxBytes(cfg.maxBytes), normalize.WithMaxDepth(cfg.maxDepth), normalize.WithExplain())
	res := fixer.Run(n, raw, cfg.unsafe)
	out := res.Output
	if cfg.diff {
		out = []byte(unifiedDiff(name, raw, res.Output))
	}
	if _, err := ctxio.NewWriter(ctx, stdout).Write(out); err != nil {
		if stoppedBy(ctx, err) {
			return interrupted(ctx, "", "while writing to standard output")
		}
		return &exitError{code: exitUsage, err: fmt.Errorf("write output: %w", err)}
	}
	if res.Err != nil {
		return rejected(name, res.Err, stderr)
	}
	return nil
}

// rejected reports a result still rejected after its fixes: the error object, then the reason.
func rejected(name string, err error, stderr io.Writer) error {
	obj, _ := batch.AppendError(nil, err)
	stderr.Write(obj)
	return &exitError{code: exitRejected, err: rejectionReason(name, withCommandHint(err))}
}

// unifiedDiff is the unified diff from the input to the fixed result, "" when they are the
// same, with the file names git gives them (a/NAME, b/NAME; "-" for standard input).
func unifiedDiff(name string, from, to []byte) string {
	if name == "standard input" {
		name = "-"
	}
	return unidiff.Diff("a/"+name, "b/"+name, from, to)
}

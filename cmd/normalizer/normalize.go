package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"runtime"
	"strings"

	"github.com/dystopic/normalizer/internal/batch"
	"github.com/dystopic/normalizer/internal/ctxio"
	"github.com/dystopic/normalizer/internal/report"
	"github.com/dystopic/normalizer/pkg/fix"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

const normalizeUsage = `Usage: normalizer normalize [flags] [FILE]

Normalizes one raw handler result read from FILE, or from standard input when FILE is
absent or "-", and prints the record (or, for a rejected result, the error object) on
standard output, followed by a newline.

Exit codes: 0 record printed; 1 result rejected (the error object is on standard output,
a one-line reason on standard error); 2 usage or I/O error; 130 or 143 interrupted by
SIGINT (Ctrl-C) or SIGTERM, which end any read or write that waits.

With --jsonl, FILE holds one raw result per line; every line gives one output line, in
input order, and rejected lines are data: exit 0 once everything was read, 2 on an I/O
error. A summary goes to standard error, with a progress bar when it is a terminal.

Flags:
  --jsonl            one raw result per line (batch mode, on every core)
  -j N               worker goroutines for --jsonl (default: GOMAXPROCS, here %d)
  --max-bytes SIZE   reject a result (a line, with --jsonl) longer than SIZE as
                     PayloadTooLarge; 20MiB, 512KiB, 1048576; 0 = no limit
                     (default 20MiB, or $NORMALIZER_MAX_BYTES)
  --max-depth N      reject JSON nested deeper than N arrays/objects as InvalidJSON
                     (default %d)
  --explain          add "diagnostics" to the record: every warning with its JSON
                     pointer, code and action, plus notes for porting an agent
  --format FORMAT    json (default) or text: a report for a person at a terminal,
                     each warning on a line with its path, what was found, what was
                     expected and how to fix it, then the notes (implies --explain;
                     not with --jsonl)
  -h, --help         show this help
`

// normalizeConfig is the parsed command line of `normalize`.
type normalizeConfig struct {
	file     string // "" or "-": standard input
	jsonl    bool
	jobs     int
	maxBytes int64
	maxDepth int
	explain  bool
	text     bool
}

// maxBytesEnv supplies the default of --max-bytes, named by the rule of serve's variables.
var maxBytesEnv = envName("max-bytes")

// envMaxBytes is the default of cmd's --max-bytes: maxBytesEnv's size, or the normalizer's.
func envMaxBytes(cmd string, getenv func(string) string) (int64, error) {
	env := getenv(maxBytesEnv)
	if env == "" {
		return normalize.DefaultMaxBytes, nil
	}
	n, err := parseByteSize(env)
	if err != nil {
		return normalize.DefaultMaxBytes, usageErrorf("%s: %s: %v", cmd, maxBytesEnv, err)
	}
	return n, nil
}

func parseNormalize(args []string, getenv func(string) string) (normalizeConfig, error) {
	cfg := normalizeConfig{}
	var err error
	if cfg.maxBytes, err = envMaxBytes("normalize", getenv); err != nil {
		return cfg, err
	}
	fs := flag.NewFlagSet("normalize", flag.ContinueOnError)
	fs.BoolVar(&cfg.jsonl, "jsonl", false, "")
	fs.IntVar(&cfg.jobs, "j", runtime.GOMAXPROCS(0), "")
	maxBytes := byteSize(cfg.maxBytes)
	fs.Var(&maxBytes, "max-bytes", "")
	fs.IntVar(&cfg.maxDepth, "max-depth", normalize.DefaultMaxDepth, "")
	fs.BoolVar(&cfg.explain, "explain", false, "")
	format := fs.String("format", "json", "")
	operands, err := parseFlags(fs, args)
	if err != nil {
		return cfg, err
	}
	cfg.maxBytes = int64(maxBytes)
	switch {
	case len(operands) > 1:
		return cfg, usageErrorf("normalize: found %d files (%s), expected at most one; use --jsonl for many results in one file", len(operands), strings.Join(operands, " "))
	case *format != "json" && *format != "text":
		return cfg, usageErrorf("normalize: --format %q: expected json or text", *format)
	case jobsSet(fs) && !cfg.jsonl:
		return cfg, usageErrorf("normalize: -j %d: workers apply only with --jsonl (one result is normalized on one core); add --jsonl for a file of one result per line, or drop -j", cfg.jobs)
	case cfg.jobs < 1:
		return cfg, usageErrorf("normalize: -j %d: expected 1 or more workers", cfg.jobs)
	case cfg.maxDepth < 1:
		return cfg, usageErrorf("normalize: --max-depth %d: expected 1 or more", cfg.maxDepth)
	case *format == "text" && cfg.jsonl:
		return cfg, usageErrorf("normalize: --format text is a report for one result; with --jsonl use --explain for diagnostics in each record")
	}
	if len(operands) == 1 {
		cfg.file = operands[0]
	}
	cfg.text = *format == "text"
	cfg.explain = cfg.explain || cfg.text
	return cfg, nil
}

// jobsSet reports whether the command line gave -j.
func jobsSet(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "j" })
	return set
}

func (cfg normalizeConfig) normalizer() *normalize.Normalizer {
	maxBytes := cfg.maxBytes
	if maxBytes == 0 { // --max-bytes 0: no limit, which the option spells as the largest one
		maxBytes = math.MaxInt64
	}
	opts := []normalize.Option{normalize.WithMaxBytes(maxBytes), normalize.WithMaxDepth(cfg.maxDepth)}
	if cfg.explain {
		opts = append(opts, normalize.WithExplain(), normalize.WithFixes(fix.Appender))
	}
	return porting.New(opts...)
}

// runNormalize is `normalizer normalize`.
func runNormalize(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := parseNormalize(args, getenv)
	if errors.Is(err, errHelp) {
		fmt.Fprintf(stdout, normalizeUsage, runtime.GOMAXPROCS(0), normalize.DefaultMaxDepth)
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
	if cfg.jsonl {
		growPipe(stdout) // a consumer reading the records through a pipe drains it less often
		return runJSONL(ctx, cfg, in, name, size, ctxio.NewWriter(ctx, stdout), stderr)
	}
	return normalizeOne(ctx, cfg, in, name, size, ctxio.NewWriter(ctx, stdout))
}

// stoppedBy reports whether err is ctx's error or its cause: ctx ended the call (a signal,
// from main; net/http reports the cause).
func stoppedBy(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil && (errors.Is(err, ctx.Err()) || errors.Is(err, context.Cause(ctx)))
}

// openInput opens FILE, or standard input for "" and "-", as a reader that ends when ctx is
// done, even while the open or a read waits (a FIFO's open waits for a writer; a terminal or
// a pipe, for its next bytes). size is the input's size when it is a regular file, else -1.
func openInput(ctx context.Context, file string, stdin io.Reader) (r io.Reader, name string, size int64, closeFn func(), err error) {
	if file == "" || file == "-" {
		return ctxio.NewReader(ctx, stdin), "standard input", statSize(stdin), func() {}, nil
	}
	f, err := ctxio.Open(ctx, file)
	if stoppedBy(ctx, err) {
		return nil, "", 0, nil, err
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // it would name the file and "open" again
		}
		return nil, "", 0, nil, fmt.Errorf("read input %s: %w", file, err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, "", 0, nil, fmt.Errorf("read input %s: is a directory, expected a file", file)
	}
	return ctxio.NewReader(ctx, f), file, statSize(f), func() { f.Close() }, nil
}

// openCommandInput is openInput with its errors as a command's: interrupted when ctx ended
// the open, else a usage error (exit 2).
func openCommandInput(ctx context.Context, file string, stdin io.Reader) (r io.Reader, name string, size int64, closeFn func(), err error) {
	r, name, size, closeFn, err = openInput(ctx, file, stdin)
	switch {
	case stoppedBy(ctx, err):
		return nil, "", 0, nil, interrupted(ctx, "", "while opening "+file)
	case err != nil:
		return nil, "", 0, nil, &exitError{code: exitUsage, err: err}
	}
	return r, name, size, closeFn, nil
}

func statSize(r io.Reader) int64 {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return st.Size()
		}
	}
	return -1
}

// normalizeOne is single mode: one result in, one record or error object out. size is the
// input's size when it is a regular file, else -1.
func normalizeOne(ctx context.Context, cfg normalizeConfig, in io.Reader, name string, size int64, stdout io.Writer) error {
	raw, nerr, err := readLimited(in, size, cfg.maxBytes)
	if stoppedBy(ctx, err) {
		return interrupted(ctx, "", "while reading "+name)
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("read %s: %w", name, err)}
	}
	var res *normalize.Result
	if nerr == nil {
		res, nerr = cfg.normalizer().Normalize(raw)
	}
	var out []byte
	switch {
	case cfg.text && nerr != nil:
		var buf bytes.Buffer
		report.Rejection(&buf, name, withCommandHint(nerr))
		out = buf.Bytes()
	case cfg.text:
		var buf bytes.Buffer
		report.Record(&buf, name, res)
		out = buf.Bytes()
	case nerr != nil:
		out, _ = batch.AppendError(nil, nerr)
	default:
		out = append(res.AppendJSON(make([]byte, 0, res.SizeHint()+1)), '\n')
	}
	_, err = stdout.Write(out)
	if stoppedBy(ctx, err) {
		return interrupted(ctx, "", "while writing to standard output")
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("write output: %w", err)}
	}
	if nerr != nil {
		return &exitError{code: exitRejected, err: rejectionReason(name, withCommandHint(nerr))}
	}
	return nil
}

// withCommandHint adds to a rejection what this command can do about it: a file of several
// results, one per line, is what --jsonl reads. Only the reason on standard error and the text
// report get it: the error object on standard output stays the core's, the bytes that `check`
// and --jsonl write for the same input.
func withCommandHint(err error) error {
	var syn *normalize.InvalidJSONError
	if errors.As(err, &syn) && syn.JSONLines {
		return fmt.Errorf("%w; for a file of one result per line, use normalize --jsonl", err)
	}
	return err
}

// rejectionReason is the one line on standard error for a rejected input.
func rejectionReason(name string, err error) error {
	class, _ := normalize.ClassOf(err)
	msg := strings.Join(strings.Fields(err.Error()), " ")
	return fmt.Errorf("%s rejected: %s: %s", name, class, msg)
}

// readLimited reads all of r, or, with a limit (limit > 0), at most limit+1 bytes: an input
// past the limit is rejected with a PayloadTooLargeError and not read further, since it may
// never end (/dev/zero, `yes`, a pipe whose writer never closes it). Its size is then known
// only to be more than the limit (AtLeast). size is r's size when it is a regular file, else
// -1: a file known to be over the limit is rejected with its exact size, unread.
func readLimited(r io.Reader, size, limit int64) (raw []byte, tooLarge, err error) {
	if limit <= 0 {
		raw, err = io.ReadAll(r)
		return nonNil(raw), nil, err
	}
	if size > limit {
		return nil, &normalize.PayloadTooLargeError{Size: size, Limit: limit}, nil
	}
	raw, err = io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil || int64(len(raw)) <= limit {
		return nonNil(raw), nil, err
	}
	return nil, &normalize.PayloadTooLargeError{Size: int64(len(raw)), Limit: limit, AtLeast: true}, nil
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

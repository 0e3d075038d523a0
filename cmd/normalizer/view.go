package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"runtime"
	"time"

	"github.com/dystopic/normalizer/internal/httpapi"
	"github.com/dystopic/normalizer/internal/viewer"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/schemas"
)

const viewUsage = `Usage: normalizer view [flags] FILE|DIR

Serves a corpus of results to a browser on this machine: FILE is a JSON Lines file of raw
results, one per line; DIR is a golden directory, whose NAME.input.json files are the
results. The corpus is read once, each result normalized with --explain, and only a summary
of each kept (its place in the file, verdict, counts and codes): the file is not held in
memory, and the page reads one result at a time from it.

Once listening, the address of the table page (http://127.0.0.1:PORT/corpus) is printed on
standard output: a table of the results with their verdicts, warning counts and codes,
filters by code and class, paged by the server, and each row a link to the porter's page
for that result. It listens on 127.0.0.1 only: the page shows the corpus to whoever can
connect. SIGINT (Ctrl-C) or SIGTERM stops it; it exits 0.

Flags:
`

// viewFlags are the settings of `normalizer view`.
type viewFlags struct {
	listen   string
	maxBytes byteSize
	maxDepth int
	jobs     int
	logLevel string
}

func newViewFlagSet(f *viewFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("view", flag.ContinueOnError)
	f.maxBytes = byteSize(normalize.DefaultMaxBytes)
	fs.StringVar(&f.listen, "listen", "127.0.0.1:0", "address to listen on, a loopback host and a port (0: a free one)")
	fs.Var(&f.maxBytes, "max-bytes", "longest result (line) normalized; longer ones are PayloadTooLarge items")
	fs.IntVar(&f.maxDepth, "max-depth", normalize.DefaultMaxDepth, "deepest nesting of arrays and objects accepted")
	fs.IntVar(&f.jobs, "j", runtime.GOMAXPROCS(0), "worker goroutines normalizing the lines of FILE")
	fs.StringVar(&f.logLevel, "log-level", "warn", "debug, info, warn or error: the server's log on standard error")
	return fs
}

// check checks the settings and the operands, and returns the corpus's path.
func (f *viewFlags) check(operands []string) (string, error) {
	switch {
	case len(operands) != 1:
		return "", usageErrorf("view: found %d operands, expected one FILE or DIR; run 'normalizer view -h'", len(operands))
	case f.maxBytes <= 0 || f.maxBytes > httpapi.MaxBodyLimit:
		return "", usageErrorf("view: --max-bytes is %d; expected a positive size such as 20MiB, at most %d (2GiB-1)", f.maxBytes, httpapi.MaxBodyLimit)
	case f.maxDepth <= 0:
		return "", usageErrorf("view: --max-depth is %d; expected 1 or more", f.maxDepth)
	case f.jobs < 1:
		return "", usageErrorf("view: -j %d: expected 1 or more workers", f.jobs)
	}
	if err := loopback(f.listen); err != nil {
		return "", usageErrorf("view: --listen %q: %v", f.listen, err)
	}
	return operands[0], nil
}

// loopback checks that addr is a loopback host and a port: view serves the corpus's
// contents, and nobody but this machine's users should read them.
func loopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%v; expected HOST:PORT such as 127.0.0.1:8081", err)
	}
	if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsLoopback() {
		return nil
	}
	return errors.New("not a loopback address; view listens on 127.0.0.1 (or ::1, localhost) only, since the page shows the corpus to whoever connects")
}

// runView is `normalizer view`: it indexes the corpus, then serves until ctx is cancelled.
func runView(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f viewFlags
	fs := newViewFlagSet(&f)
	operands, err := parseFlags(fs, args)
	if errors.Is(err, errHelp) {
		return printHelp(stdout, viewUsage, fs)
	}
	if err != nil {
		return err
	}
	path, err := f.check(operands)
	if err != nil {
		return err
	}
	level, err := logLevel(f.logLevel)
	if err != nil {
		return usageErrorf("view: --log-level %v", err)
	}
	start := time.Now()
	ix, err := viewer.Open(ctx, path, viewer.Options{MaxBytes: int64(f.maxBytes), MaxDepth: f.maxDepth, Workers: f.jobs})
	if stoppedBy(ctx, err) {
		return interrupted(ctx, "view: ", "while reading "+path)
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("view: %w", err)}
	}
	defer ix.Close()
	fmt.Fprintf(stderr, "normalizer: %s: %s in %.2fs\n", path, plural(int64(ix.Len()), "result"), time.Since(start).Seconds())
	srv, err := httpapi.New(httpapi.Config{
		BodyLimit: int64(f.maxBytes),
		MaxDepth:  f.maxDepth,
		Schemas:   schemas.FS,
		Logger:    newLogger(level, true, stderr, isTerminal(stderr)),
		Version:   buildVersion(),
		Corpus:    ix,
	})
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("view: %w", err)}
	}
	ln, err := listen(ctx, f.listen)
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("view: listen on %s: %w", f.listen, err)}
	}
	fmt.Fprintf(stdout, "http://%s/corpus\n", ln.Addr())
	if err := srv.Serve(ctx, ln, httpapi.Timeouts{Grace: 5 * time.Second}); err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("view: %w", err)}
	}
	return nil
}

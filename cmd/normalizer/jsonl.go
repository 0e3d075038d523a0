package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/dystopic/normalizer/internal/batch"
	"github.com/dystopic/normalizer/internal/ctxio"
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/porting"
)

// isTerminal reports whether w is a terminal; tests replace it to see the progress bar.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	tty := false
	_ = rc.Control(func(fd uintptr) { tty = term.IsTerminal(int(fd)) }) // not Fd: see growPipe
	return tty
}

// runJSONL is `normalize --jsonl`: the batch path. name is the input's, for messages; size is
// its size, or -1.
func runJSONL(ctx context.Context, cfg normalizeConfig, in io.Reader, name string, size int64, stdout, stderr io.Writer) error {
	opts := batch.Options{Workers: cfg.jobs, MaxLineBytes: cfg.maxBytes, WideReason: porting.WideReason}
	var bar *progress
	if isTerminal(stderr) {
		bar = newProgress(stderr, size)
		opts.Progress = bar.update
	}
	start := time.Now()
	stats, err := runBatch(ctx, in, stdout, cfg, opts)
	elapsed := time.Since(start)
	if bar != nil {
		bar.finish(stats)
	}
	writeSummary(stderr, stats, elapsed)
	if stats.NotUTF8 != nil {
		writeNotUTF8(stderr, cfg.file, stats.NotUTF8)
	}
	if stoppedBy(ctx, err) {
		return interrupted(ctx, "", fmt.Sprintf("after %s of %s", plural(stats.Lines, "line"), name))
	}
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	return nil
}

// runBatch runs the batch pipeline on in: a regular file is mapped into memory and read where
// it lies (each byte read into the process costs a copy, a fifth of a run's CPU), anything
// else is read as a stream.
func runBatch(ctx context.Context, in io.Reader, stdout io.Writer, cfg normalizeConfig, opts batch.Options) (batch.Stats, error) {
	r, ok := in.(*ctxio.Reader)
	if ok && r.File() == nil {
		growPipe(r.Source())
	}
	if !ok || r.File() == nil {
		return batch.Run(ctx, in, stdout, cfg.normalizer(), opts)
	}
	m, err := batch.MapFile(r.File())
	if err != nil {
		return batch.Run(ctx, in, stdout, cfg.normalizer(), opts)
	}
	progress := opts.Progress
	opts.Progress = func(s batch.Stats) {
		m.Drop(s.BytesIn) // written: its pages leave the process, which stays small
		if progress != nil {
			progress(s)
		}
	}
	stats, err := batch.RunBytes(ctx, m.Bytes(), stdout, cfg.normalizer(), opts)
	return stats, errors.Join(err, m.Close())
}

// plural is "1 line", "2 lines".
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writeSummary writes the totals of a run, two lines, on standard error.
func writeSummary(w io.Writer, s batch.Stats, elapsed time.Duration) {
	secs := max(elapsed.Seconds(), 1e-9)
	fmt.Fprintf(w, "normalizer: %d lines, %.1f MB in %.2fs: %.0f lines/s, %.1f MB/s\n",
		s.Lines, float64(s.BytesIn)/1e6, elapsed.Seconds(), float64(s.Lines)/secs, float64(s.BytesIn)/1e6/secs)
	var rej []string
	for _, c := range s.Rejected.ByClass() {
		rej = append(rej, fmt.Sprintf("%s %d", c.Class, c.N))
	}
	byClass := ""
	if len(rej) > 0 {
		byClass = " (" + strings.Join(rej, ", ") + ")"
	}
	fmt.Fprintf(w, "normalizer: %d records (%d soft warnings in %d records, %d truncated), %d rejected%s\n",
		s.Records, s.Warnings, s.WithWarnings, s.Truncated, s.Rejected.Total(), byClass)
}

// writeNotUTF8 says, once for the input, why every line of it was rejected and the command
// that converts it; the error objects say it once per line.
func writeNotUTF8(w io.Writer, file string, enc *jsonscan.Wide) {
	convert := enc.Convert()
	if file != "" && file != "-" {
		convert += " " + shellWord(file)
	} else {
		convert = "... | " + convert
	}
	fmt.Fprintf(w, "normalizer: %s; its lines were cut where %s ends a line, and every one was rejected; convert the input first: %s | normalizer normalize --jsonl\n",
		porting.WideFound(*enc), enc.Name(), convert)
}

// shellWord writes a file name as one word that bash and zsh both read back as the name, on
// one line of standard error: a relative name starting with "-" (an option to iconv) or "="
// (zsh's =command expansion) gets "./" first; a name with anything but letters, digits and
// ./_-+=:@, is single-quoted; one with a control byte, another character that does not print
// (terminal escapes, a line break) or bytes that are not UTF-8 is written as $'...' with those
// bytes as \xHH.
func shellWord(name string) string {
	if !filepath.IsAbs(name) && (strings.HasPrefix(name, "-") || strings.HasPrefix(name, "=")) {
		name = "./" + name
	}
	const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./_-+=:@,"
	switch {
	case name != "" && strings.Trim(name, safe) == "":
		return name
	case strings.IndexFunc(name, notPrintable) < 0 && utf8.ValidString(name):
		return "'" + strings.ReplaceAll(name, "'", `'\''`) + "'"
	}
	b := []byte("$'")
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == '\\' || r == '\'':
			b = append(b, '\\', byte(r))
		case r == utf8.RuneError && size == 1, notPrintable(r):
			for _, c := range []byte(name[i : i+size]) {
				b = fmt.Appendf(b, `\x%02X`, c)
			}
		default:
			b = append(b, name[i:i+size]...)
		}
		i += size
	}
	return string(append(b, '\''))
}

func notPrintable(r rune) bool { return !unicode.IsPrint(r) }

// progress is the progress bar on a terminal: bytes read against the file's size (a spinner
// for a pipe), the rate, and the lines so far.
type progress struct {
	bar  *progressbar.ProgressBar
	w    io.Writer
	last time.Time
}

func newProgress(w io.Writer, size int64) *progress {
	bar := progressbar.NewOptions64(size,
		progressbar.OptionSetWriter(w),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionShowTotalBytes(true),
		progressbar.OptionSetDescription("0 lines"),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionShowElapsedTimeOnFinish(),
	)
	return &progress{bar: bar, w: w}
}

// update runs on the writer's path after each chunk; it redraws at most ten times a second.
func (p *progress) update(s batch.Stats) {
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond {
		p.last = now
		p.bar.Describe(fmt.Sprintf("%d lines", s.Lines))
		_ = p.bar.Set64(s.BytesIn)
	}
}

func (p *progress) finish(s batch.Stats) {
	p.bar.Describe(fmt.Sprintf("%d lines", s.Lines))
	_ = p.bar.Set64(s.BytesIn)
	if !p.bar.IsFinished() {
		_ = p.bar.Finish() // the final state stays on screen, above the summary
	}
	fmt.Fprintln(p.w)
}

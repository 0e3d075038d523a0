package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/dystopic/normalizer/internal/httpapi"
	"github.com/dystopic/normalizer/internal/memlimit"
	"github.com/dystopic/normalizer/schemas"
)

const serveUsage = `Usage: normalizer serve [flags]

Runs the HTTP service: POST /v1/normalize, GET /healthz, /readyz, /metrics, /v1/schemas,
/openapi.json. Every flag can also be set by its environment variable (NORMALIZER_ and the
flag's name in capitals, '-' as '_', e.g. NORMALIZER_BODY_LIMIT); a flag on the command line
wins, and a variable set to the empty string counts as unset. A NORMALIZER_ variable that sets
nothing (a misspelling) is named in a warning at start-up.

SIGTERM or SIGINT shuts down gracefully: readiness turns false, requests in flight get the
grace period to finish, then the process exits 0 (2 when some had to be cut off).

Flags:
`

// serveFlags are the settings of `normalizer serve`.
type serveFlags struct {
	addr        string
	bodyLimit   byteSize
	maxDepth    int
	maxInFlight int
	retryAfter  time.Duration
	timeouts    httpapi.Timeouts
	headerBytes byteSize
	logLevel    string
	logFormat   string
	level       zerolog.Level // logLevel, parsed by check
	addrFrom    string        // where addr came from, for the listen error
	memLimit    byteSize
	memRatio    float64
	memBudget   budgetFlag
	lingerBytes byteSize
	minRate     int64
}

func newServeFlagSet(f *serveFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	d := httpapi.DefaultTimeouts
	f.bodyLimit = httpapi.DefaultBodyLimit
	f.headerBytes = byteSize(d.MaxHeaderBytes)
	fs.StringVar(&f.addr, "addr", ":8080", "address to listen on, host:port")
	fs.Var(&f.bodyLimit, "body-limit", "largest request body, after gzip decoding")
	fs.IntVar(&f.maxDepth, "max-depth", httpapi.DefaultMaxDepth, "deepest nesting of arrays and objects accepted")
	fs.IntVar(&f.maxInFlight, "max-in-flight", httpapi.DefaultMaxInFlight, "normalize requests served at once; past it: 429 with Retry-After")
	f.memBudget.auto = true
	fs.Var(&f.memBudget, "memory-budget", "memory the normalize requests in flight may reserve together (e.g. 512MiB), each\nits worst case (4.5 x its body, 6.5 x with explain); past it: 429 with Retry-After.\nauto: 80% of the Go soft memory limit when one is in force, else off; off or 0: no\nbudget")
	fs.DurationVar(&f.retryAfter, "retry-after", httpapi.DefaultRetryAfter, "delay a 429 asks clients to wait")
	fs.DurationVar(&f.timeouts.ReadHeader, "read-header-timeout", d.ReadHeader, "time to read a request's headers")
	fs.DurationVar(&f.timeouts.Read, "read-timeout", d.Read, "time to read a whole request, body included")
	fs.DurationVar(&f.timeouts.Write, "write-timeout", d.Write, "time to write a response, from the end of the request headers")
	fs.DurationVar(&f.timeouts.Idle, "idle-timeout", d.Idle, "time a keep-alive connection may wait for its next request")
	fs.Var(&f.headerBytes, "max-header-bytes", "largest request line and headers; net/http allows up to 4KiB more,\nits read buffer's slack")
	fs.DurationVar(&f.timeouts.Grace, "shutdown-grace", d.Grace, "time requests in flight get to finish on SIGTERM")
	fs.DurationVar(&f.timeouts.DrainDelay, "drain-delay", 0, "time between readiness turning false and the listener closing")
	fs.DurationVar(&f.timeouts.LingerTime, "linger-time", d.LingerTime, "most time a connection answered before its body was read (413, 429, 408) is\nread and discarded from before it closes, so that the client gets its answer;\n0: close at once")
	fs.DurationVar(&f.timeouts.LingerTimeout, "linger-timeout", d.LingerTimeout, "most time such a lingering connection waits for the client's next bytes")
	f.lingerBytes = byteSize(d.LingerBytes)
	fs.Var(&f.lingerBytes, "linger-bytes", "most bytes such a lingering connection discards")
	fs.Int64Var(&f.minRate, "min-body-rate", d.MinBodyRate, "bytes a second a normalize request's body must arrive at, on average, once it has\nbeen arriving for --min-body-rate-grace; slower: 408; 0: no minimum")
	fs.DurationVar(&f.timeouts.MinBodyRateGrace, "min-body-rate-grace", d.MinBodyRateGrace, "time a body may take before --min-body-rate applies; 0: no minimum")
	fs.StringVar(&f.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&f.logFormat, "log-format", "json", "json, or console for humans")
	fs.Var(&f.memLimit, "memory-limit", "the container's memory limit (bytes, or e.g. 1GiB); the Go soft memory limit\nis this times --memory-limit-ratio (0: read the cgroup's limit; GOMEMLIMIT, if set,\nwins over both)")
	fs.Float64Var(&f.memRatio, "memory-limit-ratio", memlimit.DefaultRatio, "fraction of the memory limit given to the Go heap, above 0 and at most 1")
	return fs
}

// applyEnv gives every flag not set on the command line the value of its NORMALIZER_
// variable, if that is set: flags win, the environment supplies defaults.
func applyEnv(fs *flag.FlagSet, getenv func(string) string) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		v := getenv(name)
		if set[f.Name] || v == "" || err != nil {
			return
		}
		if e := fs.Set(f.Name, v); e != nil {
			err = usageErrorf("%s: %s=%q: %v%s", fs.Name(), name, v, e, expectedForm(f))
		}
	})
	return err
}

// flagOrigins reports where a flag's value comes from: "--name" when given on the command
// line, else its environment variable (which applyEnv may or may not find set).
func flagOrigins(fs *flag.FlagSet) func(name string) string {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return func(name string) string {
		if given[name] {
			return "--" + name
		}
		return envName(name)
	}
}

func envName(flagName string) string {
	return "NORMALIZER_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// check checks the settings' values; origin names where each came from (the flag, or its
// environment variable), so that the message points at what the operator actually set.
func (f *serveFlags) check(origin func(flagName string) string) error {
	switch {
	case f.bodyLimit <= 0 || f.bodyLimit > httpapi.MaxBodyLimit:
		return usageErrorf("serve: %s is %d; expected a positive size such as 20MiB, at most %d (2GiB-1)", origin("body-limit"), f.bodyLimit, httpapi.MaxBodyLimit)
	case f.retryAfter < time.Second:
		return usageErrorf("serve: %s is %s; expected 1s or more (it is sent in whole seconds)", origin("retry-after"), f.retryAfter)
	case f.retryAfter%time.Second != 0:
		down := f.retryAfter.Truncate(time.Second)
		return usageErrorf("serve: %s is %s; expected a whole number of seconds, such as %s or %s (Retry-After is sent in whole seconds)",
			origin("retry-after"), f.retryAfter, down, down+time.Second)
	case f.maxDepth <= 0:
		return usageErrorf("serve: %s is %d; expected 1 or more", origin("max-depth"), f.maxDepth)
	case f.maxInFlight <= 0:
		return usageErrorf("serve: %s is %d; expected 1 or more", origin("max-in-flight"), f.maxInFlight)
	case f.headerBytes <= 0 || f.headerBytes > 1<<30:
		return usageErrorf("serve: %s is %d; expected 1 to 1GiB", origin("max-header-bytes"), f.headerBytes)
	}
	for _, t := range []struct {
		name string
		d    time.Duration
	}{{"read-header-timeout", f.timeouts.ReadHeader}, {"read-timeout", f.timeouts.Read}, {"write-timeout", f.timeouts.Write},
		{"idle-timeout", f.timeouts.Idle}, {"shutdown-grace", f.timeouts.Grace}} {
		if t.d <= 0 {
			return usageErrorf("serve: %s is %s; expected a positive duration such as 30s", origin(t.name), t.d)
		}
	}
	if f.timeouts.DrainDelay < 0 {
		return usageErrorf("serve: %s is %s; expected 0 or more", origin("drain-delay"), f.timeouts.DrainDelay)
	}
	if f.timeouts.LingerTime < 0 {
		return usageErrorf("serve: %s is %s; expected 0 (no lingering) or more", origin("linger-time"), f.timeouts.LingerTime)
	}
	if f.timeouts.LingerTimeout <= 0 {
		return usageErrorf("serve: %s is %s; expected a positive duration such as 5s", origin("linger-timeout"), f.timeouts.LingerTimeout)
	}
	if f.lingerBytes <= 0 {
		return usageErrorf("serve: %s is %d; expected a positive size such as 256MiB", origin("linger-bytes"), f.lingerBytes)
	}
	if f.minRate < 0 {
		return usageErrorf("serve: %s is %d; expected 0 (no minimum) or more bytes a second", origin("min-body-rate"), f.minRate)
	}
	if f.timeouts.MinBodyRateGrace < 0 {
		return usageErrorf("serve: %s is %s; expected 0 (no minimum) or more", origin("min-body-rate-grace"), f.timeouts.MinBodyRateGrace)
	}
	var err error
	if f.level, err = logLevel(f.logLevel); err != nil {
		return usageErrorf("serve: %s %v", origin("log-level"), err)
	}
	if f.logFormat != "json" && f.logFormat != "console" {
		return usageErrorf("serve: %s is %q; expected json or console", origin("log-format"), f.logFormat)
	}
	return nil
}

// runServe is `normalizer serve`: it serves until ctx is cancelled (SIGTERM or SIGINT in main).
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var f serveFlags
	fs := newServeFlagSet(&f)
	if done, err := parseNoOperands(fs, args, serveUsage, stdout); done || err != nil {
		return err
	}
	origin := flagOrigins(fs) // before applyEnv, which sets flags too
	if err := applyEnv(fs, getenv); err != nil {
		return err
	}
	if err := f.check(origin); err != nil {
		return err
	}
	f.addrFrom = origin("addr")
	mem, err := memlimit.Resolve(memlimit.Config{GOMEMLIMIT: getenv("GOMEMLIMIT"),
		Limit: int64(f.memLimit), LimitFrom: origin("memory-limit"),
		Ratio: f.memRatio, RatioFrom: origin("memory-limit-ratio"), Detect: memlimit.Cgroup})
	if err != nil {
		return usageErrorf("serve: %v", err)
	}
	// Log lines are batched (one write per 100 ms, not one per request) and flushed on exit.
	logOut := httpapi.NewLogWriter(stderr, 100*time.Millisecond)
	defer logOut.Close()
	logger := newLogger(f.level, f.logFormat == "console", logOut, isTerminal(stderr))
	defer mem.Apply()()
	log := logger.With().Str("component", "serve").Logger()
	warnUnknownVariables(log, environ(), getenv, fs)
	mem.Log(log)
	switch soft := debug.SetMemoryLimit(-1); {
	case !f.memBudget.auto:
	case soft != math.MaxInt64:
		f.memBudget.size = byteSize(memlimit.Budget(soft))
		log.Info().Int64("memory_budget", int64(f.memBudget.size)).Int64("soft_limit", soft).
			Msg("memory budget of the requests in flight: 80% of the soft memory limit, the rest for the runtime and idle buffers; --memory-budget overrides")
	default:
		log.Info().Int64("memory_budget", 0).
			Msg("memory budget of the requests in flight: none, since no soft memory limit is in force; only --max-in-flight bounds them; --memory-budget gives one")
	}
	if err := serve(ctx, &f, logger); err != nil {
		// The logger exists: the failure is one log line, JSON where the logs are, and main
		// adds no plain-text copy of it; the exit code is the one a usage error has.
		log.Error().Err(err).Msg("serve failed")
		return &exitError{code: exitUsage, err: fmt.Errorf("serve: %w", err), logged: true}
	}
	return nil
}

func serve(ctx context.Context, f *serveFlags, logger zerolog.Logger) error {
	srv, err := httpapi.New(httpapi.Config{
		BodyLimit:    int64(f.bodyLimit),
		MaxDepth:     f.maxDepth,
		MaxInFlight:  f.maxInFlight,
		MemoryBudget: int64(f.memBudget.size),
		RetryAfter:   f.retryAfter,
		Schemas:      schemas.FS,
		Logger:       logger,
		Version:      buildVersion(),
	})
	if err != nil {
		return err
	}
	ln, err := listen(ctx, f.addr)
	if err != nil {
		return fmt.Errorf("listen on %s (from %s): %w", f.addr, f.addrFrom, err)
	}
	f.timeouts.MaxHeaderBytes = int(f.headerBytes)
	f.timeouts.LingerBytes = int64(f.lingerBytes)
	if f.timeouts.LingerTime == 0 {
		f.timeouts.LingerTime = -1 // --linger-time 0: no lingering (in Timeouts, 0 is the default)
	}
	f.timeouts.MinBodyRate = f.minRate
	if f.minRate == 0 || f.timeouts.MinBodyRateGrace == 0 {
		f.timeouts.MinBodyRate = -1 // either 0: no minimum rate
	}
	return srv.Serve(ctx, ln, f.timeouts)
}

// newLogger builds the one logger of the process; packages get sub-loggers of it. The console
// format is coloured only on a terminal: escape codes in a file or a pipe are noise. The
// settings were checked by serveFlags.check.
func newLogger(level zerolog.Level, console bool, stderr io.Writer, terminal bool) zerolog.Logger {
	setTimeFieldFormat()
	var w io.Writer = stderr
	if console {
		w = zerolog.ConsoleWriter{Out: stderr, TimeFormat: time.RFC3339, NoColor: !terminal}
	}
	return zerolog.New(w).Level(level).Hook(httpapi.NewTimestampHook()) // zerolog's Timestamp, cheaper: a line per request
}

// setTimeFieldFormat makes zerolog's process-wide time format the hook's, RFC 3339 in
// milliseconds, for a Time field and for the console writer, which reads the time back with
// it. It is set once: every serve of a process (the tests start many) builds a logger, and a
// write on each would race with the other loggers' reads.
var setTimeFieldFormat = sync.OnceFunc(func() { zerolog.TimeFieldFormat = httpapi.TimeFormat })

// logLevel is the zerolog level of a --log-level value. zerolog knows more (trace, fatal,
// panic, disabled, numbers); one that hides errors is a trap, so only four are taken.
func logLevel(level string) (zerolog.Level, error) {
	switch strings.ToLower(level) {
	case "debug":
		return zerolog.DebugLevel, nil
	case "info":
		return zerolog.InfoLevel, nil
	case "warn":
		return zerolog.WarnLevel, nil
	case "error":
		return zerolog.ErrorLevel, nil
	}
	return zerolog.NoLevel, fmt.Errorf("is %q; expected debug, info, warn or error", level)
}

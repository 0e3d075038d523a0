// Command profile measures what one request costs the server under load: it serves either
// POST /v1/normalize, configured as `normalizer serve` configures it (default limits and
// timeouts, an info-level JSON access line per request with a timestamp, batched by a
// LogWriter into io.Discard, metrics on), the load benchmark's floor (a plain net/http
// server writing the body back, as internal/tools/loadbench/floor does), or, for
// scripts/loadladder.sh, the floor's handler running the core and nothing else (bare) or the
// floor with a fixed busy time added to each request (spin), for a fixed time,
// and reports the server's CPU time per request (getrusage, user and system), allocations and
// GC cycles per request, optionally with a CPU profile of the measured window.
//
// CPU time per request is the number to compare: on a shared machine requests per second move
// with whatever else runs, while the CPU a request takes moves much less. Drive it with wrk,
// the server on one CPU and wrk on the other, as scripts/loadbench.sh does:
//
//	go build -o /tmp/profile ./internal/tools/loadbench/profile
//	go run ./internal/tools/loadbench/bodies /tmp/lb     # small.json, medium.json
//	taskset -c 0 /tmp/profile -mode serve -cpuprofile /tmp/serve.prof &
//	BODY=/tmp/lb/medium.json taskset -c 1 wrk -t1 -c32 -d12s -s internal/tools/loadbench/post.lua http://127.0.0.1:18095/v1/normalize
//	go tool pprof -top -cum /tmp/profile /tmp/serve.prof
//
// It listens on loopback only and exits by itself after -warm plus -d. It is a measuring tool,
// not part of the normalizer binary.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/rs/zerolog"

	"github.com/dystopic/normalizer/internal/httpapi"
	"github.com/dystopic/normalizer/internal/tools/loadbench/echoback"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/schemas"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:18095", "loopback address to listen on")
	mode := flag.String("mode", "serve", "serve (the normalizer), floor (the echo-back baseline), "+
		"bare (the floor's net/http handler running the core: no echo, log or metrics) or spin (the floor plus -spin of busy CPU per request)")
	spin := flag.Duration("spin", 3*time.Microsecond, "busy CPU time added to each request in -mode spin")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the measured window to this file")
	warm := flag.Duration("warm", 2*time.Second, "time to let the load settle before measuring")
	dur := flag.Duration("d", 8*time.Second, "time measured")
	flag.Parse()
	if host, _, err := net.SplitHostPort(*addr); err != nil || !net.ParseIP(host).IsLoopback() {
		return fmt.Errorf("-addr %q: expected a loopback host:port such as 127.0.0.1:18095", *addr)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), *warm+*dur)
	defer cancel()
	var count func() int64
	var serve func() error
	switch *mode {
	case "serve":
		count, serve, err = normalizer(ctx, ln)
		if err != nil {
			return err
		}
	case "floor":
		count, serve = plain(ctx, ln, echoback.Handler)
	case "bare":
		count, serve = plain(ctx, ln, bare(normalize.New()))
	case "spin":
		count, serve = plain(ctx, ln, spinning(*spin))
	default:
		return fmt.Errorf("-mode %q: expected serve, floor, bare or spin", *mode)
	}
	report := make(chan string, 1)
	go func() { report <- measure(ctx, *mode, *warm, *cpuprofile, count) }()
	if err := serve(); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, <-report)
	return nil
}

// normalizer starts the service as cmd/normalizer's serve does; requests are counted from its
// own requests_total metric, so nothing is added to the path measured.
func normalizer(ctx context.Context, ln net.Listener) (func() int64, func() error, error) {
	lw := httpapi.NewLogWriter(io.Discard, 100*time.Millisecond)
	logger := zerolog.New(lw).Level(zerolog.InfoLevel).Hook(httpapi.NewTimestampHook()) // as serve logs
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	srv, err := httpapi.New(httpapi.Config{Schemas: schemas.FS, Logger: logger, Registry: reg})
	if err != nil {
		return nil, nil, err
	}
	count := func() int64 { return requestsTotal(reg) }
	serve := func() error {
		defer lw.Close()
		return srv.Serve(ctx, ln, httpapi.Timeouts{})
	}
	return count, serve, nil
}

func requestsTotal(reg *prometheus.Registry) int64 {
	families, err := reg.Gather()
	if err != nil {
		return 0
	}
	var n float64
	for _, f := range families {
		if f.GetName() == "normalizer_http_requests_total" {
			for _, m := range f.GetMetric() {
				n += m.GetCounter().GetValue()
			}
		}
	}
	return int64(n)
}

// plain serves h on a net/http server configured as internal/tools/loadbench/floor's is.
func plain(ctx context.Context, ln net.Listener, h http.HandlerFunc) (func() int64, func() error) {
	var n atomic.Int64
	srv := echoback.Server("", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	serve := func() error {
		stop := context.AfterFunc(ctx, func() { _ = srv.Close() })
		defer stop()
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
	return n.Load, serve
}

// bare is the least a server running the core can do: the floor's body read, the core, and
// the record written with the floor's headers. What serve costs above it is the service
// around the core (echo, the access log, metrics, request ids, limits).
func bare(n *normalize.Normalizer) http.HandlerFunc {
	pool := sync.Pool{New: func() any { return new(bufs) }}
	return func(w http.ResponseWriter, r *http.Request) {
		b := pool.Get().(*bufs)
		defer pool.Put(b)
		b.in.Reset()
		if _, err := b.in.ReadFrom(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, err := n.Normalize(b.in.Bytes())
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		b.out = res.AppendJSON(b.out[:0])
		res.Release()
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{strconv.Itoa(len(b.out))}
		_, _ = w.Write(b.out)
	}
}

type bufs struct {
	in  bytes.Buffer
	out []byte
}

// spinning is the floor with d of busy CPU added to each request: how much a request's CPU
// grows, under this load, when the server's own work grows by d. More than d means that a
// slower server pays for it twice (its clients wait more, and waking them costs more).
func spinning(d time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for t := time.Now(); time.Since(t) < d; {
		}
		echoback.Handler(w, r)
	}
}

// measure waits for the warm-up, then measures until ctx ends and describes the window.
func measure(ctx context.Context, mode string, warm time.Duration, cpuprofile string, count func() int64) string {
	select {
	case <-time.After(warm):
	case <-ctx.Done():
		return mode + ": stopped during the warm-up"
	}
	var m0, m1 runtime.MemStats
	var r0, r1 syscall.Rusage
	runtime.ReadMemStats(&m0)
	g0 := gcCPU()
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
	c0, t0 := count(), time.Now()
	if cpuprofile != "" {
		f, err := os.Create(cpuprofile)
		if err != nil {
			return mode + ": " + err.Error()
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return mode + ": " + err.Error()
		}
	}
	<-ctx.Done()
	if cpuprofile != "" {
		pprof.StopCPUProfile()
	}
	elapsed := time.Since(t0)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
	runtime.ReadMemStats(&m1)
	g1 := gcCPU()
	n := count() - c0
	if n <= 0 {
		return mode + ": no requests in the measured window"
	}
	per := func(v float64) float64 { return v / float64(n) }
	usec := func(a, b syscall.Timeval) float64 {
		return float64(syscall.TimevalToNsec(b)-syscall.TimevalToNsec(a)) / 1e3
	}
	user, sys := usec(r0.Utime, r1.Utime), usec(r0.Stime, r1.Stime)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d requests in %.1fs, %.0f req/s; CPU per request %.2f µs (user %.2f, system %.2f); ",
		mode, n, elapsed.Seconds(), float64(n)/elapsed.Seconds(), per(user+sys), per(user), per(sys))
	fmt.Fprintf(&b, "%.1f allocs and %.0f B per request; %d GC cycles (one per %.0f requests)",
		per(float64(m1.Mallocs-m0.Mallocs)), per(float64(m1.TotalAlloc-m0.TotalAlloc)), m1.NumGC-m0.NumGC,
		float64(n)/float64(max(1, m1.NumGC-m0.NumGC)))
	fmt.Fprintf(&b, "; GC %.2f µs per request (%.0f%% of the CPU; the runtime's estimate)",
		per((g1-g0)*1e6), (g1-g0)*1e8/(user+sys))
	return b.String()
}

// gcCPU is the runtime's estimate of the CPU seconds spent in garbage collection so far
// (background marking, assists and pauses): how much of a request's CPU the collector takes,
// which getrusage cannot tell apart.
func gcCPU() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return s[0].Value.Float64()
}

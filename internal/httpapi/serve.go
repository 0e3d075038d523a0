package httpapi

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// Timeouts bound how long a connection may hold the server. The zero value of a field means
// its default.
type Timeouts struct {
	ReadHeader     time.Duration // to read the request line and headers
	Read           time.Duration // to read the whole request, body included
	Write          time.Duration // from the end of the headers to the end of the response
	Idle           time.Duration // a keep-alive connection waiting for its next request
	MaxHeaderBytes int           // request line and headers
	Grace          time.Duration // for requests in flight to finish once shutdown starts
	DrainDelay     time.Duration // not ready, still serving, before shutdown starts
	// The lingering close of a request answered before its body was read (linger.go): the
	// most time it lasts, the most it waits for the client's next bytes, the most bytes it
	// discards. A negative LingerTime turns it off.
	LingerTime    time.Duration
	LingerTimeout time.Duration
	LingerBytes   int64
	// The minimum body data rate (bodyrate.go): once a normalize request's body has been
	// arriving for MinBodyRateGrace, it must come at MinBodyRate bytes a second on average, or
	// it is answered 408. A negative value of either turns it off.
	MinBodyRate      int64
	MinBodyRateGrace time.Duration
}

// Default timeouts: long enough for a 20 MiB body on a slow link, short enough that idle or
// stalled clients do not pin connections.
var DefaultTimeouts = Timeouts{
	ReadHeader:     5 * time.Second,
	Read:           60 * time.Second,
	Write:          60 * time.Second,
	Idle:           120 * time.Second,
	MaxHeaderBytes: 64 << 10,
	Grace:          25 * time.Second,
	LingerTime:     30 * time.Second,
	LingerTimeout:  5 * time.Second,
	LingerBytes:    256 << 20,
	// Kestrel's MinRequestBodyDataRate: 240 bytes/s after a 5 s grace period.
	MinBodyRate:      240,
	MinBodyRateGrace: 5 * time.Second,
}

func (t *Timeouts) setDefaults() {
	d := DefaultTimeouts
	set := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&t.ReadHeader, d.ReadHeader)
	set(&t.Read, d.Read)
	set(&t.Write, d.Write)
	set(&t.Idle, d.Idle)
	set(&t.Grace, d.Grace)
	if t.MaxHeaderBytes <= 0 {
		t.MaxHeaderBytes = d.MaxHeaderBytes
	}
	if t.LingerTime == 0 {
		t.LingerTime = d.LingerTime
	}
	set(&t.LingerTimeout, d.LingerTimeout)
	if t.LingerBytes <= 0 {
		t.LingerBytes = d.LingerBytes
	}
	if t.MinBodyRate == 0 {
		t.MinBodyRate = d.MinBodyRate
	}
	if t.MinBodyRateGrace == 0 {
		t.MinBodyRateGrace = d.MinBodyRateGrace
	}
}

// Serve serves on ln until ctx is cancelled, then shuts down gracefully: readiness turns
// false, after DrainDelay the listener closes, and requests in flight get Grace to finish.
// It returns nil after a clean shutdown, and an error when serving failed or requests were
// still running when the grace period ended.
func (s *Server) Serve(ctx context.Context, ln net.Listener, t Timeouts) error {
	t.setDefaults()
	s.writeTimeout = t.Write
	s.lingerCfg = lingerConfig{time: t.LingerTime, timeout: t.LingerTimeout, bytes: t.LingerBytes}
	if t.MinBodyRate > 0 && t.MinBodyRateGrace > 0 {
		s.minRate, s.rateGrace = float64(t.MinBodyRate), t.MinBodyRateGrace
	}
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    t.MaxHeaderBytes,
		ErrorLog:          log.New(serverLogWriter{s.log}, "", 0),
		ConnContext:       connContext, // each request finds its trackedConn (framing.go)
	}
	ln = trackingListener{ln}
	// Connections lingering after their answer (linger.go) are not net/http's: Shutdown does
	// not wait for them, so they end by the end of the grace period, and Serve waits for them.
	srv.RegisterOnShutdown(func() { s.lingering.end(time.Now().Add(t.Grace)) })
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	s.SetReady(true)
	if need := s.largestReservation(); s.budget != nil && need > s.budget.limit {
		s.log.Warn().Int64("memory_budget", s.budget.limit).Int64("largest_reservation", need).
			Msg("the memory budget is smaller than what a request at the body limit with explain reserves: such a request runs only when no other holds any of the budget, and is answered 429 until then; raise --memory-budget (or the memory limit) or lower --body-limit")
	}
	if e := s.log.Info(); e != nil {
		e.Str("addr", ln.Addr().String()).Int64("body_limit", s.cfg.BodyLimit).
			Int("max_in_flight", s.cfg.MaxInFlight).Int64("memory_budget", s.cfg.MemoryBudget)
		if s.cfg.Version != "" {
			e.Str("version", s.cfg.Version)
		}
		e.Msg("listening")
	}
	select {
	case err := <-served:
		s.SetReady(false)
		return fmt.Errorf("serve %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	err := s.shutdown(srv, served, t)
	s.lingering.waitAll()
	return err
}

// shutdown drains and stops srv. From the drain's start every answer says Connection: close
// (closeWhileDraining), so a busy client's keep-alive connections close one by one, each
// after an answer, while the server still serves: a client learns of the drain from its own
// answers, sooner than a load balancer from /readyz, and sends its next request elsewhere.
// Keep-alives are not turned off with srv.SetKeepAlivesEnabled(false): that also closes the
// idle connections at once, under clients that may be sending a request on one just then
// (Go's client does not retry a POST on a reused connection), the loss the drain is there to
// avoid. srv.Shutdown, once the delay is over, closes the listener and the connections still
// idle, by then those of clients that stopped sending, and disables keep-alives for the
// requests still in flight.
func (s *Server) shutdown(srv *http.Server, served <-chan error, t Timeouts) error {
	s.SetReady(false)
	s.stopping.Store(true)
	// Durations carry their unit in the name and are written as the access line's duration_ms
	// is (appendMillis: three decimals); zerolog's Dur would write a bare number in a unit set
	// by a global.
	var drain, grace [24]byte
	s.log.Info().RawJSON("drain_delay_ms", appendMillis(drain[:0], t.DrainDelay)).
		RawJSON("grace_ms", appendMillis(grace[:0], t.Grace)).
		Msg("shutting down: not ready")
	s.waits.drainDelay(t.DrainDelay) // let load balancers see /readyz fail before the listener closes
	ctx, cancel := context.WithTimeout(context.Background(), t.Grace)
	defer cancel()
	err := srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		_ = srv.Close()
		s.awaitHandlers(cmp.Or(s.waits.handlers, HandlersExitWait))
		return fmt.Errorf("shutdown: requests still in flight after the grace period of %s were cut off", t.Grace)
	}
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	s.log.Info().Msg("stopped")
	return nil
}

// HandlersExitWait bounds how long shutdown waits, once the grace period is over and the
// connections are closed, for the cut-off requests' handlers to return: a handler reading or
// writing fails at once then, and one inside the core finishes its result (a 20 MiB one takes
// well under a second). Without the wait the process could exit before their log lines and
// metrics are written.
const HandlersExitWait = 2 * time.Second

// closeWhileDraining asks net/http to close the connection after this answer, with
// Connection: close, once the drain has begun (see shutdown).
func (s *Server) closeWhileDraining(h http.Header) {
	if s.stopping.Load() {
		h["Connection"] = connectionClose
	}
}

// shutdownWaits are the waits of the shutdown path that tests replace: drain, when not nil,
// in place of sleeping through the drain delay, and handlers, when not zero, in place of
// HandlersExitWait.
type shutdownWaits struct {
	drain    func(time.Duration)
	handlers time.Duration
}

func (w shutdownWaits) drainDelay(d time.Duration) {
	if w.drain != nil {
		w.drain(d)
		return
	}
	time.Sleep(d)
}

// awaitHandlers waits until no request is inside ServeHTTP, or d has passed. net/http gives no
// way to wait for handlers after Close, so it polls; it runs once, at exit.
func (s *Server) awaitHandlers(d time.Duration) {
	for deadline := time.Now().Add(d); s.handling.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
}

// serverLogWriter sends net/http's own messages (bad requests it answers itself, panics,
// TLS errors) to zerolog, one warning per message.
type serverLogWriter struct{ log zerolog.Logger }

func (w serverLogWriter) Write(p []byte) (int, error) {
	w.log.Warn().Str("source", "net/http").Msg(strings.TrimSpace(string(p)))
	return len(p), nil
}

// Package memlimit sets the Go runtime's soft memory limit (runtime/debug.SetMemoryLimit) to a
// fraction of the container's memory limit.
//
// A soft limit equal to the container's hard limit leaves no room for the memory the heap does
// not count (goroutine stacks, runtime metadata, fragmentation, the kernel's buffers charged to
// the cgroup): the garbage collector would start working hard only when the kernel is already
// about to OOM-kill the process. Kubernetes can hand the limit to the process
// (resourceFieldRef) but cannot scale it, so the fraction is applied here.
//
// Where the limit comes from, first match wins: GOMEMLIMIT in the environment (the Go runtime
// has applied it before main; it is reported, never overridden); an explicit limit (the serve
// command's --memory-limit or NORMALIZER_MEMORY_LIMIT); the process's cgroup (v1 or v2); else
// nothing is set.
package memlimit

import (
	"errors"
	"fmt"
	"math"
	"runtime/debug"

	automemlimit "github.com/KimMachineGun/automemlimit/memlimit"
	"github.com/rs/zerolog"
)

// DefaultRatio is the share of the container's limit given to the Go heap: the other 10 %
// (about 100 MiB of a 1 GiB container) is for what the soft limit does not count.
const DefaultRatio = 0.9

// Budget is the memory that serve's requests in flight may reserve together by default
// (--memory-budget auto) under the Go soft memory limit soft: 80 % of it. The rest is for what
// no request reserves (the runtime, pooled and per-connection buffers, metrics), and keeps the
// live heap off the soft limit, where the collector would run without pause.
func Budget(soft int64) int64 { return soft / 5 * 4 }

// MinLimit is the smallest explicit container limit accepted. Anything smaller is taken for a
// unit mistake, not a real limit: a resourceFieldRef with `divisor: 1Mi` turns 1Gi into "1024",
// and a soft limit of 921 bytes would make the collector run without pause.
const MinLimit = 32 << 20

// Sources of a plan other than the explicit limit (whose source is Config.LimitFrom).
const (
	SourceGOMEMLIMIT = "GOMEMLIMIT"
	SourceCgroup     = "cgroup"
	SourceNone       = "none"
)

// Config is what the soft limit is decided from.
type Config struct {
	// GOMEMLIMIT is the GOMEMLIMIT environment variable, "" when unset. When set it wins: the
	// runtime read it at start-up.
	GOMEMLIMIT string
	// Limit is the container's memory limit in bytes; 0 when not given (then Detect is asked).
	Limit int64
	// LimitFrom and RatioFrom say where Limit and Ratio came from (a flag or an environment
	// variable), for errors and the log line.
	LimitFrom, RatioFrom string
	// Ratio is the fraction of the limit used as the soft limit: 0 < Ratio <= 1.
	Ratio float64
	// Detect reports the cgroup's memory limit in bytes, 0 for no limit; nil skips it. An error
	// is not fatal (not in a container, not Linux): the plan then sets nothing and says why.
	Detect func() (int64, error)
}

// Plan is the decision: what soft limit to set, and why.
type Plan struct {
	// SoftLimit is the limit Apply sets, in bytes; 0 when Apply leaves the runtime's as it is.
	SoftLimit int64
	// Limit is the container limit SoftLimit derives from; 0 when there is none.
	Limit int64
	Ratio float64
	// Source is SourceGOMEMLIMIT, Config.LimitFrom, SourceCgroup or SourceNone.
	Source string
	// GOMEMLIMIT is the variable's text when it decided.
	GOMEMLIMIT string
	// Reason says why nothing was set (Source is SourceNone).
	Reason string
}

// Resolve decides the soft limit from c. It checks the ratio and an explicit limit even when
// GOMEMLIMIT wins, so a typo fails at once rather than on the day GOMEMLIMIT is removed.
func Resolve(c Config) (Plan, error) {
	if !(c.Ratio > 0 && c.Ratio <= 1) { // NaN fails too
		return Plan{}, fmt.Errorf("%s is %v; expected a fraction of the memory limit above 0 and at most 1, such as %v",
			orDefault(c.RatioFrom, "memory limit ratio"), c.Ratio, DefaultRatio)
	}
	if c.Limit < 0 || (c.Limit > 0 && c.Limit < MinLimit) {
		return Plan{}, fmt.Errorf("%s is %d bytes; expected the container's memory limit in bytes, at least %d (32MiB), or 0 to read it from the cgroup (a resourceFieldRef needs no divisor, or divisor 1)",
			orDefault(c.LimitFrom, "memory limit"), c.Limit, MinLimit)
	}
	switch {
	case c.GOMEMLIMIT != "":
		return Plan{Source: SourceGOMEMLIMIT, GOMEMLIMIT: c.GOMEMLIMIT}, nil
	case c.Limit > 0:
		return derive(c.Limit, c.Ratio, orDefault(c.LimitFrom, "memory limit")), nil
	case c.Detect == nil:
		return Plan{Source: SourceNone, Ratio: c.Ratio, Reason: "no memory limit given and cgroup detection is off"}, nil
	}
	limit, err := c.Detect()
	switch {
	case err != nil:
		return Plan{Source: SourceNone, Ratio: c.Ratio, Reason: "no memory limit given, and none read from the cgroup: " + err.Error()}, nil
	case limit <= 0:
		return Plan{Source: SourceNone, Ratio: c.Ratio, Reason: "no memory limit given, and the cgroup sets none"}, nil
	}
	return derive(limit, c.Ratio, SourceCgroup), nil
}

func derive(limit int64, ratio float64, source string) Plan {
	soft := limit
	if ratio < 1 { // below the limit, so within int64
		soft = int64(float64(limit) * ratio)
	}
	return Plan{SoftLimit: max(soft, 1), Limit: limit, Ratio: ratio, Source: source}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Apply sets the runtime's soft limit when the plan has one, and returns a function that puts
// the previous limit back (serve calls it on return, which matters to tests running serve
// in-process; a real process exits then anyway).
func (p Plan) Apply() (restore func()) {
	if p.SoftLimit <= 0 {
		return func() {}
	}
	prev := debug.SetMemoryLimit(p.SoftLimit)
	return func() { debug.SetMemoryLimit(prev) }
}

// Log writes the one start-up line that says which soft limit is in force and where it came
// from. Call it after Apply: soft_limit is read back from the runtime.
func (p Plan) Log(logger zerolog.Logger) {
	e := logger.Info().Str("source", p.Source)
	switch {
	case p.Source == SourceGOMEMLIMIT:
		e.Str("gomemlimit", p.GOMEMLIMIT).Int64("soft_limit", debug.SetMemoryLimit(-1)).
			Msg("go soft memory limit from GOMEMLIMIT, applied by the Go runtime; --memory-limit and its ratio are not used")
	case p.SoftLimit > 0:
		e.Int64("container_limit", p.Limit).Float64("ratio", p.Ratio).Int64("soft_limit", debug.SetMemoryLimit(-1)).
			Msg("go soft memory limit set")
	default:
		e.Str("reason", p.Reason).Msg("go soft memory limit not set")
	}
}

// Cgroup reports the memory limit of the process's cgroup (v1, v2 or hybrid, the mount point
// and the process's own cgroup path found through /proc/self), 0 when it sets none. The reading
// is automemlimit's: cgroup layouts have enough variants that a maintained, tested parser is
// worth more than a few lines of our own.
func Cgroup() (int64, error) {
	n, err := automemlimit.FromCgroup()
	switch {
	case errors.Is(err, automemlimit.ErrNoLimit):
		return 0, nil
	case err != nil:
		return 0, err
	case n >= math.MaxInt64: // no real limit is that large
		return 0, nil
	}
	return int64(n), nil
}

// Package minheap keeps the garbage collector's heap goal from falling below a floor.
//
// The Go runtime starts a collection when the heap reaches its goal, the live heap times
// (1 + GOGC/100), and never lets that goal fall below 4 MB. A service whose live heap is under
// a megabyte (normalizer serve's is, between requests) and whose requests each leave a few
// kilobytes of garbage (net/http's own, about 2.5 KB per request) so collects every thousand
// requests or so: at tens of thousands of requests a second, 2-3 % of its CPU, for a heap that
// never needed more than a few megabytes. Keep raises GOGC after every collection so that the
// next goal is at least the floor: with a floor of 64 MiB, a collection every ~25,000 small
// requests instead of every ~1,000. Once the live heap is half the floor or more, GOGC is back
// at its base value and the heap is bounded exactly as without Keep; a soft memory limit
// (GOMEMLIMIT, debug.SetMemoryLimit) still bounds it in every case.
//
// This is the "GC tuner" of large Go deployments (a minimum heap instead of a memory ballast),
// done after each cycle from a cleanup the collector itself runs, so it costs nothing between
// collections.
package minheap

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// DefaultFloor is the floor normalizer serve keeps by default: 64 MiB, a small share of any
// container it runs in (the Kubernetes manifest gives it 1 GiB), against a collection every
// ~1,000 requests at the runtime's 4 MB.
const DefaultFloor = 64 << 20

// sentinel is garbage the moment it is made: its cleanup runs after the next collection.
// (Large enough, and holding a pointer, never to share the tiny allocator's blocks, whose
// cleanups may never run.)
type sentinel struct {
	_ *sentinel
	_ [16]byte
}

// tuner holds what Keep needs between collections.
type tuner struct {
	mu      sync.Mutex
	floor   uint64
	base    int // GOGC when Keep started; never gone below
	stopped bool
}

// Keep makes the heap goal after every collection at least floor bytes, raising GOGC from its
// current value (the base) when the live heap is small, and never lowering it below the base.
// It does nothing, and stop does nothing, when floor is not positive or the collector is off
// (GOGC=off). stop ends it and puts the base GOGC back.
func Keep(floor int64) (stop func()) {
	base := currentPercent()
	if floor <= 0 || base < 0 {
		return func() {}
	}
	t := &tuner{floor: uint64(floor), base: base}
	t.adjust()
	t.arm()
	return t.stop
}

// arm makes a sentinel whose cleanup adjusts GOGC after the next collection, and arms again.
func (t *tuner) arm() {
	runtime.AddCleanup(new(sentinel), func(t *tuner) {
		if t.adjust() {
			t.arm()
		}
	}, t)
}

// adjust sets GOGC for the live heap of the last collection; it reports false once stopped.
func (t *tuner) adjust() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return false
	}
	debug.SetGCPercent(PercentFor(liveHeap(), t.floor, t.base))
	return true
}

func (t *tuner) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.stopped {
		t.stopped = true
		debug.SetGCPercent(t.base)
	}
}

// runtimeMinimum is the runtime's smallest heap goal at GOGC=100; it scales with GOGC (at
// GOGC=1600 the goal is never below 64 MiB). TestKeepFollowsTheLiveHeap checks the goal the
// runtime really sets, should a release change this.
const runtimeMinimum = 4 << 20

// maxPercent bounds GOGC (the runtime keeps it in 32 bits): a floor above 40 GiB is not met.
const maxPercent = 1 << 20

// PercentFor is the smallest GOGC, never below base, that makes the runtime's heap goal at
// least floor after a collection that left live bytes: the goal is the larger of live × (1 +
// GOGC/100) (plus a share for stacks and globals, which only adds) and runtimeMinimum ×
// GOGC/100, so either reaching the floor is enough.
func PercentFor(live, floor uint64, base int) int {
	live = max(live, 1)
	floor = min(floor, 1<<50) // the products below stay within 64 bits
	if live >= floor {
		return base
	}
	byMinimum := (floor*100 + runtimeMinimum - 1) / runtimeMinimum // rounded up: the goal must reach the floor
	byLive := ((floor-live)*100 + live - 1) / live
	return int(max(min(byMinimum, byLive, maxPercent), uint64(max(base, 0))))
}

// currentPercent is GOGC as the runtime has it: 100 by default, GOGC's value, or what
// debug.SetGCPercent last set; negative when the collector is off.
func currentPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 100
	}
	v := s[0].Value.Uint64()
	if v > math.MaxInt32 { // GOGC=off reads as uint64(-1)
		return -1
	}
	return int(v)
}

// liveHeap is the heap the last collection marked live, in bytes.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

package normalize_test

import (
	"math"
	"runtime"
	"testing"
)

// The allocation budgets read counters of the whole process (runtime.MemStats, which
// testing.AllocsPerRun reads too): a goroutine other than the test's, the runtime's own or
// one a test left running, can only add to them. So each measurement is taken three times
// and the least kept: it is the work's own unless all three were disturbed, and work over
// its budget is over it every time.
const measurements = 3

// leastAllocs is testing.AllocsPerRun(runs, f), the least of three.
func leastAllocs(runs int, f func()) float64 {
	least := math.Inf(1)
	for range measurements {
		least = min(least, testing.AllocsPerRun(runs, f))
	}
	return least
}

// leastBytes is the bytes one run of f allocates, the least of three runs.
func leastBytes(f func()) uint64 {
	least := uint64(math.MaxUint64)
	for range measurements {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

var sink []byte

// The least of three still sees work that allocates every time.
func TestLeastMeasurementsSeeEveryRunsWork(t *testing.T) {
	if n := leastBytes(func() { sink = make([]byte, 1<<20) }); n < 1<<20 {
		t.Errorf("leastBytes of a 1 MiB allocation = %d", n)
	}
	if n := leastAllocs(10, func() { sink = make([]byte, 1+len(sink)%2) }); n != 1 {
		t.Errorf("leastAllocs of one allocation a run = %v", n)
	}
	sink = nil
}

package porting_test

import (
	"math"
	"testing"
)

// leastAllocs is testing.AllocsPerRun(runs, f), the least of three: a goroutine other than
// the test's can only add to the process's counters (see pkg/normalize's allocs_test.go).
func leastAllocs(runs int, f func()) float64 {
	least := math.Inf(1)
	for range 3 {
		least = min(least, testing.AllocsPerRun(runs, f))
	}
	return least
}

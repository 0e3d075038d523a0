// Package benchcpu adds a cpu-ns/op metric to Go benchmarks: the CPU time of the benchmark's own
// thread, which, unlike ns/op, does not grow when other processes take the machine's cores
// (the machines these benchmarks run on are shared). Compare it between implementations
// measured in the same run, as with ns/op.
package benchcpu

import (
	"runtime"
	"testing"
)

// Measure locks the benchmark's goroutine to its thread and returns a function to defer that
// reports the thread's CPU time per iteration as cpu-ns/op. Where the thread's CPU time cannot
// be read, no metric is reported.
func Measure(b *testing.B) func() {
	runtime.LockOSThread()
	start, ok := threadCPU()
	return func() {
		end, ok2 := threadCPU()
		runtime.UnlockOSThread()
		if ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

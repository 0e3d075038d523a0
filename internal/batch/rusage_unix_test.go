//go:build unix

package batch

import (
	"syscall"
	"testing"
)

// measureCPU returns a function to defer that reports the process's CPU time per iteration,
// user and system (cpu-ns/op) and system alone (sys-ns/op), from getrusage: every goroutine of
// the pipeline and the collector, which wall-clock ns/op on a shared machine does not isolate.
func measureCPU(b *testing.B) func() {
	var start syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &start) != nil {
		return func() {}
	}
	return func() {
		var end syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &end) != nil || b.N == 0 {
			return
		}
		user := end.Utime.Nano() - start.Utime.Nano()
		sys := end.Stime.Nano() - start.Stime.Nano()
		b.ReportMetric(float64(user+sys)/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(sys)/float64(b.N), "sys-ns/op")
	}
}

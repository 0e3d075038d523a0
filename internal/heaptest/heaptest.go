// Package heaptest measures the peak heap of a piece of work, for tests that hold memory to a
// bound. It measures memory, not time, so it is steady on a busy machine.
package heaptest

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// Peak runs f and returns the most heap it saw in use beyond what was in use before: a sampler
// reads runtime/metrics while f runs, and a low GOGC keeps garbage from hiding the live peak.
func Peak(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	record := func() {
		if v := read(); v > peak.Load() {
			peak.Store(v)
		}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			record()
			select {
			case <-done:
				return
			case <-time.After(50 * time.Microsecond):
			}
		}
	}()
	f()
	record()
	close(done)
	<-stopped
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

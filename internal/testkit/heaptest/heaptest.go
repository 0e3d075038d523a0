// Package heaptest measures the memory a piece of work takes, for tests that hold it to a
// bound: the most heap it holds at once (Peak) and the bytes it allocates (Allocated). It
// measures memory, not time, so a busy machine does not move the figures; but both read the
// whole process's heap, so they count whatever else the process does meanwhile: the
// goroutines an earlier test left behind (a server still closing its connections, a client's
// idle ones, a log writer's ticker). A test that measures therefore runs alone, in a child
// process of the test binary (Alone), where no other test has run.
package heaptest

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// aloneEnv names, in a child process that Alone started, the test that runs alone there.
const aloneEnv = "HEAPTEST_ALONE"

// Alone reports whether t runs alone in its process, in a child process of the test binary
// that Alone started for it. When it does not, Alone starts that child, which runs t only
// (-test.run matching t's name, -test.count=1), waits for it, reports its output and its
// verdict as t's, and returns false; the caller then returns at once:
//
//	if !heaptest.Alone(t) {
//		return
//	}
//
// The test's code before the call runs in both processes, its code after only in the child,
// subtests included. In the child only t and what it starts run: the figures of Peak and
// Allocated are its work's.
func Alone(t *testing.T) bool {
	t.Helper()
	if name, ok := os.LookupEnv(aloneEnv); ok && (t.Name() == name || strings.HasPrefix(t.Name(), name+"/")) {
		return true
	}
	res := runAlone(t, t.Name(), nil)
	switch res.verdict {
	case "PASS":
		t.Logf("ran alone in a child process of the test binary:\n%s", res.out)
	case "SKIP":
		t.Skipf("skipped alone in a child process of the test binary:\n%s", res.out)
	default:
		t.Fatalf("alone in a child process of the test binary (%v), %s:\n%s", res.err, res.verdict, res.out)
	}
	return false
}

// child is what a child process of the test binary did: its verdict on the test it ran
// (PASS, FAIL, SKIP, or a sentence saying why there is none), its output and how it exited.
type child struct {
	verdict string
	out     string
	err     error
}

// runAlone runs the test named name, alone, in a child process of the test binary, with env
// added to its environment, and returns what it did.
func runAlone(t *testing.T, name string, env []string) child {
	ctx := context.Background()
	args := []string{"-test.run=" + runPattern(name), "-test.count=1", "-test.v"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	if deadline, ok := t.Deadline(); ok {
		// The child's own timeout panics with its goroutines' stacks, a little before the
		// parent's would end both without them.
		left := time.Until(deadline)
		args = append(args, "-test.timeout="+(left-left/20).String())
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	binary, err := os.Executable() // os.Args[0] may be relative to a directory since left
	if err != nil {
		binary = os.Args[0]
	}
	cmd := exec.CommandContext(ctx, binary, args...)
	// Under -race the child would sleep a second before it exits, for other goroutines'
	// races to be reported; it has none left once its test is over.
	gorace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	cmd.Env = append(append(os.Environ(), aloneEnv+"="+name, "GORACE="+gorace), env...)
	out, err := cmd.CombinedOutput()
	c := child{out: string(out), err: err, verdict: "no verdict for " + name + " in its output"}
	for _, v := range []string{"PASS", "FAIL", "SKIP"} {
		// The -test.v line of the test itself; a subtest's is indented.
		if regexp.MustCompile(`(?m)^\s*--- ` + v + `: ` + regexp.QuoteMeta(name) + ` \(`).MatchString(c.out) {
			c.verdict = v
		}
	}
	if c.verdict == "PASS" && err != nil {
		c.verdict = "FAIL" // it passed, and something else in the child did not
	}
	return c
}

// runPattern is the -test.run pattern that matches the test named name and nothing else:
// each level of the name, quoted and anchored.
func runPattern(name string) string {
	levels := strings.Split(name, "/")
	for i, l := range levels {
		levels[i] = "^" + regexp.QuoteMeta(l) + "$"
	}
	return strings.Join(levels, "/")
}

// Peak runs f and returns the most heap it saw in use beyond what was in use before: a sampler
// reads runtime/metrics while f runs, and a low GOGC keeps garbage from hiding the live peak.
// It counts every goroutine's heap, not only f's: call it in a test that runs Alone.
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
		// One ticker, not a timer a reading: the sampler allocates nothing the peak would count.
		tick := time.NewTicker(50 * time.Microsecond)
		defer tick.Stop()
		for {
			record()
			select {
			case <-done:
				return
			case <-tick.C:
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

// Allocated runs f and returns the bytes the heap allocated meanwhile (runtime.MemStats'
// TotalAlloc, exact: it stops the world to read it). It counts every goroutine's allocations,
// not only f's: call it in a test that runs Alone.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

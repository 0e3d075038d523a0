package heaptest

import (
	"crypto/sha256"
	"os"
	"runtime"
	"strings"
	"testing"
)

var sink []byte

// fill allocates n bytes. The heap counts them when they are allocated, touched or not.
func fill(n int) []byte { return make([]byte, n) }

func TestPeakSeesAnAllocation(t *testing.T) {
	if !Alone(t) {
		return
	}
	const size = 64 << 20
	peak := Peak(func() { sink = fill(size) })
	sink = nil
	if peak < size || peak > 2*size {
		t.Fatalf("Peak = %d, want about %d", peak, size)
	}
	if tiny := Peak(func() {}); tiny > 1<<20 {
		t.Fatalf("Peak of nothing = %d", tiny)
	}
}

func TestAllocatedCountsAllocations(t *testing.T) {
	if !Alone(t) {
		return
	}
	const size = 8 << 20
	if n := Allocated(func() { sink = fill(size) }); n < size || n > size+64<<10 {
		t.Fatalf("Allocated = %d, want about %d", n, size)
	}
	sink = nil
	if n := Allocated(func() {}); n > 64<<10 {
		t.Fatalf("Allocated of nothing = %d", n)
	}
}

// TestPeakCountsOtherGoroutines is why Alone exists: in a process where another goroutine
// allocates while f runs, Peak counts that too.
func TestPeakCountsOtherGoroutines(t *testing.T) {
	const size = 64 << 20
	start, allocated, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		<-start
		b := fill(size)
		close(allocated)
		<-release
		runtime.KeepAlive(b)
	}()
	peak := Peak(func() { // f allocates nothing itself
		close(start)
		<-allocated
	})
	close(release)
	if peak < size {
		t.Fatalf("Peak = %d, want at least the other goroutine's %d", peak, size)
	}
}

// TestAloneLeavesOthersBehind: the goroutines of the process Alone was called in, here one
// that keeps replacing 16 MiB until the test ends, do not run in the child: Peak there sees
// only the test's work, which allocates nothing (it hashes 16 MiB it was given before).
func TestAloneLeavesOthersBehind(t *testing.T) {
	if _, child := os.LookupEnv(aloneEnv); !child {
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				default:
					sink = fill(16 << 20)
				}
			}
		}()
		defer func() { close(stop); <-done; sink = nil }()
	}
	if !Alone(t) {
		return
	}
	data := make([]byte, 8<<20)
	var sum [sha256.Size]byte
	peak := Peak(func() {
		for range 2 {
			sum = sha256.Sum256(data)
		}
	})
	runtime.KeepAlive(sum)
	if peak > 1<<20 {
		t.Fatalf("Peak of work that allocates nothing, alone = %d", peak)
	}
}

// TestAloneGivesTheChildsVerdict runs helperChild, a test that only runs when asked, in a child
// process: its failure, its skip and its pass come back as such, and a name that matches no
// test is no verdict at all.
func TestAloneGivesTheChildsVerdict(t *testing.T) {
	for _, tt := range []struct {
		name, mode, want string
	}{
		{name: "TestHelperChild", mode: "fail", want: "FAIL"},
		{name: "TestHelperChild", mode: "skip", want: "SKIP"},
		{name: "TestHelperChild", mode: "pass", want: "PASS"},
		{name: "TestHelperChild/sub", mode: "pass", want: "PASS"},
		{name: "TestHelperChild/sub", mode: "fail", want: "FAIL"},
		{name: "TestNoSuchTest", mode: "pass", want: "no verdict for TestNoSuchTest in its output"},
	} {
		c := runAlone(t, tt.name, []string{"HEAPTEST_HELPER=" + tt.mode})
		if c.verdict != tt.want {
			t.Errorf("%s, %s: verdict %q, want %q; output:\n%s", tt.name, tt.mode, c.verdict, tt.want, c.out)
		}
		if tt.want == "FAIL" && !strings.Contains(c.out, "asked to fail") {
			t.Errorf("%s, %s: the child's output lacks its failure:\n%s", tt.name, tt.mode, c.out)
		}
	}
}

// TestHelperChild is TestAloneGivesTheChildsVerdict's child: it passes, fails or skips as
// HEAPTEST_HELPER says, and does nothing when that is not set.
func TestHelperChild(t *testing.T) {
	mode, ok := os.LookupEnv("HEAPTEST_HELPER")
	if !ok {
		return
	}
	act := func(t *testing.T) {
		switch mode {
		case "fail":
			t.Fatal("asked to fail")
		case "skip":
			t.Skip("asked to skip")
		}
	}
	if !strings.Contains(os.Getenv(aloneEnv), "/") {
		act(t)
		return
	}
	t.Run("sub", act)
}

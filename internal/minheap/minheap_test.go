package minheap

import (
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const mib = 1 << 20

func TestPercentFor(t *testing.T) {
	tests := []struct {
		name        string
		live, floor uint64
		base, want  int
	}{
		{name: "small live heap: the runtime's minimum, scaled, reaches the floor", live: 1 * mib, floor: 64 * mib, base: 100, want: 1600},
		{name: "nothing live yet: the same", live: 0, floor: 64 * mib, base: 100, want: 1600},
		{name: "larger live heap: its growth reaches the floor first", live: 16 * mib, floor: 64 * mib, base: 100, want: 300},
		{name: "rounded up to reach the floor", live: 3 * mib, floor: 10 * mib, base: 100, want: 234},
		{name: "half the floor: the base", live: 32 * mib, floor: 64 * mib, base: 100, want: 100},
		{name: "never below the base", live: 40 * mib, floor: 64 * mib, base: 100, want: 100},
		{name: "a higher base stays", live: 20 * mib, floor: 64 * mib, base: 400, want: 400},
		{name: "a higher base is passed when the floor needs more", live: 1 * mib, floor: 64 * mib, base: 400, want: 1600},
		{name: "live heap above the floor", live: 100 * mib, floor: 64 * mib, base: 100, want: 100},
		{name: "live heap equal to the floor", live: 64 * mib, floor: 64 * mib, base: 50, want: 50},
		{name: "floor below the runtime's minimum", live: 1 * mib, floor: 2 * mib, base: 0, want: 50},
		{name: "absurd floor: bounded, no overflow", live: 1, floor: 1 << 63, base: 100, want: maxPercent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, PercentFor(tt.live, tt.floor, tt.base))
		})
	}
}

// goal is the runtime's heap goal after a collection that left live bytes, at GOGC p
// (mgcpacer.go, without the stacks and globals, which only add).
func goal(live uint64, p int) uint64 {
	return max(live+live*uint64(p)/100, runtimeMinimum*uint64(p)/100)
}

// The goal PercentFor gives reaches the floor unless bounded, and is never below the base; one
// percent less would not reach it (unless the base decided).
func TestPercentForReachesTheFloor(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		live, floor, base := r.Uint64N(1<<32), 1+r.Uint64N(1<<34), r.IntN(500)
		p := PercentFor(live, floor, base)
		require.GreaterOrEqual(t, p, base, "live %d floor %d base %d", live, floor, base)
		if p < maxPercent {
			require.GreaterOrEqual(t, goal(live, p)+1, floor, "live %d floor %d base %d: %d%%", live, floor, base, p)
		}
		if p > base {
			require.Less(t, goal(live, p-1), floor, "live %d floor %d base %d: %d%% is more than needed", live, floor, base, p)
		}
	}
}

func heapGoal() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Keep follows the live heap collection by collection, and stop puts the base back for good.
func TestKeepFollowsTheLiveHeap(t *testing.T) {
	base := currentPercent()
	require.Positive(t, base, "the collector is on in tests")
	const floor = 64 * mib
	runtime.GC()
	stop := Keep(floor)
	raised := currentPercent()
	assert.Greater(t, raised, base, "a test binary's live heap is far under 64 MiB")
	assert.GreaterOrEqual(t, heapGoal(), uint64(floor), "the goal reaches the floor at once")

	// 48 MiB live: half the floor or more, so the next collection brings GOGC down to the base.
	big := make([]byte, 48*mib)
	runtime.GC()
	require.Eventually(t, func() bool { return currentPercent() == base }, 5*time.Second, time.Millisecond,
		"after a collection with 48 MiB live, GOGC %d, want %d", currentPercent(), base)
	runtime.KeepAlive(big)
	big = nil

	runtime.GC() // frees big: GOGC rises again
	require.Eventually(t, func() bool { return currentPercent() > base }, 5*time.Second, time.Millisecond,
		"after the live heap shrank, GOGC %d, want above %d", currentPercent(), base)

	stop()
	assert.Equal(t, base, currentPercent(), "stop puts the base back")
	runtime.GC()
	runtime.GC()
	time.Sleep(10 * time.Millisecond) // a cleanup still queued would run now
	assert.Equal(t, base, currentPercent(), "nothing changes GOGC after stop")
	stop() // twice is harmless
	assert.Equal(t, base, currentPercent())
}

func TestKeepDoesNothing(t *testing.T) {
	base := currentPercent()
	t.Run("floor 0", func(t *testing.T) {
		Keep(0)()
		runtime.GC()
		assert.Equal(t, base, currentPercent())
	})
	t.Run("collector off", func(t *testing.T) {
		prev := debug.SetGCPercent(-1)
		defer debug.SetGCPercent(prev)
		stop := Keep(64 * mib)
		assert.Equal(t, -1, currentPercent(), "GOGC=off is the user's choice")
		stop()
		assert.Equal(t, -1, currentPercent())
	})
}

//go:build race

package httpapi

// raceEnabled: the race detector changes what allocates and how much, so the memory bounds
// are checked in a run without it (scripts/test.sh runs TestMemoryBound* without -race).
const raceEnabled = true

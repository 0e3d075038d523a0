//go:build race

package normalize_test

// raceEnabled: the race detector changes what allocates and how much, so the memory and
// allocation budgets are checked in a run without it (scripts/test.sh does both).
const raceEnabled = true

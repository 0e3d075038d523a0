//go:build race

package httpapi

// raceEnabled: the race detector changes what allocates and how much, so the memory and
// allocation budgets skip under it. scripts/test.sh runs every package whose norace_test.go
// defines raceEnabled a second time, whole, without -race: a package that adds such budgets
// needs this pair of files for them to run in CI.
const raceEnabled = true

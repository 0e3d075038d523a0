package httpapi

import (
	"testing"
	"time"
)

// hung is how long a test waits for what a passing run sees at once (a handler reaching its
// read, a slot given back, a log line written) before it calls itself hung. A passing run
// never comes near it, however busy the machine: it is a backstop, not a verdict.
const hung = time.Minute

// waitUntil waits until cond holds, looking every millisecond; past hung, the test fails.
func waitUntil(t testing.TB, cond func() bool, what string) {
	t.Helper()
	if !waitFor(cond) {
		t.Fatalf("hung: still waiting after %s for %s", hung, what)
	}
}

// waitFor waits until cond holds, looking every millisecond, and says whether it did before
// hung had passed; for goroutines other than the test's, which cannot fail it.
func waitFor(cond func() bool) bool {
	for deadline := time.Now().Add(hung); !cond(); {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

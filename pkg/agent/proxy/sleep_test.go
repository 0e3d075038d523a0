package proxy

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSleepContextEndsWithTheContext: the default wait between attempts, an hour long here,
// ends as soon as its context is cancelled once it is waiting on it. Nothing is timed: the
// test cancels after sleepContext has asked for ctx.Done, and an hour-long wait that ignored
// the cancellation would only end at the 30 s backstop.
func TestSleepContextEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	watched := &doneWatcher{Context: ctx, asked: make(chan struct{})}
	ended := make(chan error, 1)
	go func() { ended <- sleepContext(watched, time.Hour) }()
	select {
	case <-watched.asked:
	case err := <-ended:
		t.Fatalf("sleepContext(ctx, 1h) returned %v before its context was cancelled", err)
	case <-time.After(30 * time.Second):
		t.Fatal("sleepContext never waited on its context")
	}
	cancel()
	select {
	case err := <-ended:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(30 * time.Second):
		t.Fatal("sleepContext(ctx, 1h) went on waiting after its context was cancelled")
	}
}

// TestSleepContextEndsWhenTheTimeHasPassed: with a context that never ends, the wait ends
// after d, with nil.
func TestSleepContextEndsWhenTheTimeHasPassed(t *testing.T) {
	ended := make(chan error, 1)
	go func() { ended <- sleepContext(context.Background(), time.Millisecond) }()
	select {
	case err := <-ended:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("sleepContext(ctx, 1ms) did not end")
	}
}

// doneWatcher is a context that says when its Done channel is first asked for.
type doneWatcher struct {
	context.Context
	once  sync.Once
	asked chan struct{}
}

func (w *doneWatcher) Done() <-chan struct{} {
	w.once.Do(func() { close(w.asked) })
	return w.Context.Done()
}

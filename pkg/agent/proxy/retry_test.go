package proxy_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/agent/proxy"
	"github.com/dystopic/normalizer/pkg/agent/proxy/proxytest"
)

func TestBackoff(t *testing.T) {
	tests := []struct {
		name  string
		retry int
		r     float64
		want  time.Duration
	}{
		{"first retry, no jitter draw", 0, 0, 375 * time.Millisecond},
		{"first retry, middle", 0, 0.5, 500 * time.Millisecond},
		{"first retry, top", 0, 1, 625 * time.Millisecond},
		{"second retry, middle", 1, 0.5, time.Second},
		{"third retry, low", 2, 0, 1500 * time.Millisecond},
		{"third retry, top", 2, 1, 2500 * time.Millisecond},
		{"fourth retry reaches the cap", 3, 0.5, 4 * time.Second},
		{"far past the cap", 30, 1, 5 * time.Second},
		{"jitter below 0 is clamped", 0, -3, 375 * time.Millisecond},
		{"jitter above 1 is clamped", 0, 7, 625 * time.Millisecond},
		{"negative retry counts as the first", -1, 0.5, 500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, proxy.Backoff(tt.retry, tt.r))
		})
	}
}

// TestBackoffBounds checks ±25% around min(0.5·2^retry, 4) for many jitter draws.
func TestBackoffBounds(t *testing.T) {
	for retry := 0; retry < 8; retry++ {
		base := min(0.5*float64(int(1)<<retry), 4.0)
		lo := time.Duration(base * 0.75 * float64(time.Second))
		hi := time.Duration(base * 1.25 * float64(time.Second))
		for i := 0; i <= 1000; i++ {
			d := proxy.Backoff(retry, float64(i)/1000)
			require.GreaterOrEqual(t, d, lo, "retry %d r %v", retry, float64(i)/1000)
			require.LessOrEqual(t, d, hi, "retry %d r %v", retry, float64(i)/1000)
		}
	}
}

func TestTransientFailuresAreRetried(t *testing.T) {
	transient := []struct {
		name string
		step proxytest.Step
	}{
		{"429", proxytest.Fail(429, "rate_limited", "Slow down.")},
		{"429 without a body", proxytest.Raw(429, "", "")},
		{"503 lock_contention", proxytest.Fail(503, "lock_contention", "Busy.")},
		{"503 context_store_unavailable", proxytest.Fail(503, "context_store_unavailable", "Store down.")},
		{"503 trace_sequence_contended", proxytest.Fail(503, "trace_sequence_contended", "Contended.")},
	}
	for _, tt := range transient {
		t.Run(tt.name+" then success", func(t *testing.T) {
			fake := proxytest.New(t)
			fake.Script("t", tt.step, tt.step)
			fake.Respond("t", proxytest.Reply("ok"))
			got, err := fake.Client(proxy.WithRand(func() float64 { return 0.5 })).Call(context.Background(), "t", nil)
			require.NoError(t, err)
			assert.Equal(t, `"ok"`, string(got))
			assert.Len(t, fake.Requests(), 3)
			assert.Equal(t, []time.Duration{500 * time.Millisecond, time.Second}, fake.Waits())
		})
		t.Run(tt.name+" every time", func(t *testing.T) {
			fake := proxytest.New(t)
			fake.Respond("t", tt.step)
			_, err := fake.Client(proxy.WithRand(func() float64 { return 0 })).Call(context.Background(), "t", nil)
			var pe *proxy.ProxyCallError
			require.True(t, errors.As(err, &pe), "got %v", err)
			assert.Equal(t, proxy.MaxAttempts, pe.Attempts)
			assert.True(t, proxy.Retryable(err))
			assert.Len(t, fake.Requests(), 4, "4 attempts at most")
			assert.Equal(t, []time.Duration{375 * time.Millisecond, 750 * time.Millisecond, 1500 * time.Millisecond}, fake.Waits())
		})
		t.Run(tt.name+" with NoRetry", func(t *testing.T) {
			fake := proxytest.New(t)
			fake.Respond("t", tt.step)
			_, err := fake.Client().Call(context.Background(), "t", nil, proxy.NoRetry())
			require.Error(t, err)
			assert.Len(t, fake.Requests(), 1)
			assert.Empty(t, fake.Waits())
		})
	}
}

func TestRetryStopsAtATerminalFailure(t *testing.T) {
	fake := proxytest.New(t)
	fake.Script("t", proxytest.Fail(429, "", "Slow down."), proxytest.Fail(401, "run_token_expired", "Expired."))
	fake.Respond("t", proxytest.Reply("never reached"))
	_, err := fake.Client().Call(context.Background(), "t", nil)
	assert.True(t, proxy.IsStaleRunToken(err))
	var pe *proxy.ProxyCallError
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, 2, pe.Attempts)
	assert.Len(t, fake.Requests(), 2)
	assert.Len(t, fake.Waits(), 1)
}

func TestRetrySendsTheSameRequest(t *testing.T) {
	fake := proxytest.New(t)
	fake.Script("t", proxytest.Fail(503, "lock_contention", "Busy."))
	fake.Respond("t", proxytest.Reply("ok"))
	_, err := fake.Client().ForActor("planner").Call(context.Background(), "t", map[string]int{"a": 1})
	require.NoError(t, err)
	reqs := fake.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, reqs[0].Body, reqs[1].Body)
	assert.Equal(t, reqs[0].Header, reqs[1].Header)
}

func TestCancellationDuringBackoff(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("t", proxytest.Fail(429, "", "Slow down."))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var asked []time.Duration
	sleep := func(ctx context.Context, d time.Duration) error {
		asked = append(asked, d)
		cancel() // the caller gives up while the client waits
		<-ctx.Done()
		return ctx.Err()
	}
	_, err := fake.Client(proxy.WithSleep(sleep)).Call(ctx, "t", nil)
	assert.ErrorIs(t, err, context.Canceled)
	var pe *proxy.ProxyCallError
	require.True(t, errors.As(err, &pe), "the last failure is kept: %v", err)
	assert.Equal(t, 429, pe.Status)
	assert.Len(t, fake.Requests(), 1)
	assert.Len(t, asked, 1)
	assert.Contains(t, err.Error(), "stopped waiting to retry")
}

// TestDefaultSleepEndsWithTheContext uses the real wait, the 625 ms backoff: a caller that
// gives up once the first attempt's 429 has been read ends the call in that wait, without a
// second request. The context is cancelled as the reply's body is closed, before the wait
// begins, not at a time that a busy machine could let the backoff outrun;
// TestSleepContextEndsWithTheContext shows the wait itself ends when its context does.
func TestDefaultSleepEndsWithTheContext(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("t", proxytest.Fail(429, "", "Slow down."))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelAfterReply := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil {
			resp.Body = cancelOnClose{resp.Body, cancel}
		}
		return resp, err
	})
	c, err := proxy.New(fake.URL, fake.Token, proxy.WithTimeout(30*time.Second),
		proxy.WithRand(func() float64 { return 1 }), proxy.WithHTTPClient(&http.Client{Transport: cancelAfterReply}))
	require.NoError(t, err)
	_, err = c.Call(ctx, "t", nil)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "stopped waiting to retry")
	var pe *proxy.ProxyCallError
	require.True(t, errors.As(err, &pe), "the last failure is kept: %v", err)
	assert.Equal(t, 429, pe.Status)
	assert.Len(t, fake.Requests(), 1)
}

// cancelOnClose is a reply body that cancels a context once the client has closed it.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestCancelledContextBeforeTheCall(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("t", proxytest.Reply("ok"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := fake.Client().Call(ctx, "t", nil)
	assert.ErrorIs(t, err, context.Canceled)
	var pe *proxy.ProxyCallError
	require.True(t, errors.As(err, &pe))
	assert.False(t, pe.TimedOut, "the caller's cancellation is not the call's timeout")
	assert.Empty(t, fake.Requests())
}

func TestTimeout(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("slow", proxytest.Reply("late").After(time.Minute))
	fake.Respond("fast", proxytest.Reply("ok"))
	c := fake.Client()

	_, err := c.Call(context.Background(), "slow", nil, proxy.Timeout(50*time.Millisecond))
	var pe *proxy.ProxyCallError
	require.True(t, errors.As(err, &pe), "got %v", err)
	assert.True(t, pe.TimedOut)
	assert.Equal(t, 0, pe.Status)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, "proxy call slow: no reply within the timeout of 50ms", err.Error())
	assert.Equal(t, 1, pe.Attempts, "a timeout is not retried")
	assert.Empty(t, fake.Waits())

	// The per-call timeout changes only that call.
	got, err := c.Call(context.Background(), "fast", nil)
	require.NoError(t, err)
	assert.Equal(t, `"ok"`, string(got))
	assert.Equal(t, 30*time.Second, c.Timeout())
}

func TestClientTimeoutApplies(t *testing.T) {
	fake := proxytest.New(t)
	fake.Respond("slow", proxytest.Reply("late").After(time.Minute))
	_, err := fake.Client(proxy.WithTimeout(30*time.Millisecond)).Call(context.Background(), "slow", nil)
	var pe *proxy.ProxyCallError
	require.True(t, errors.As(err, &pe))
	assert.True(t, pe.TimedOut)
}

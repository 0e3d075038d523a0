package httpapi

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDrainLosesNoRequest: clients keep sending POSTs over pooled keep-alive connections
// while the server drains (the context cancelled, as main does on SIGTERM), and each stops
// starting requests once it sees that the server drains, as a load balancer stops routing to
// it: an answer with Connection: close, or /readyz failing, which each client probes only every
// 50th request (a probe's period is long beside a busy client's requests). Every request
// started gets its 200.
//
// The drain delay stands for the time load balancers take to stop routing; here it is over
// once every client has stopped, or, where the answers give them no sign, once the clients
// have sent ten requests each since it began. So the verdict does not hang on how fast the
// machine runs the clients: with the sign, the delay ends when they have all seen it; without
// it, the listener and the idle connections close under clients still sending.
func TestDrainLosesNoRequest(t *testing.T) {
	const (
		clients  = 8
		warm     = 5  // requests each before the drain begins: every client has a connection
		probe    = 50 // a client probes /readyz every probe requests
		unsigned = 10 // requests each after which a drain without a sign ends anyway
	)
	s, _ := newTestServer(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + ln.Addr().String()

	var started, stopped atomic.Int64 // requests started; clients stopped
	s.waits.drain = func(time.Duration) {
		base := started.Load()
		waitFor(func() bool { return stopped.Load() == clients || started.Load() >= base+clients*unsigned })
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln, Timeouts{Grace: hung}) }()

	transport := &http.Transport{MaxIdleConnsPerHost: clients, DisableCompression: true}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: hung}
	want, _ := expectedOutput(s.plain, []byte(okResult))

	var mu sync.Mutex
	lost := map[string]int{} // requests that got no answer, by how
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			defer stopped.Add(1)
			for n := 1; ; n++ {
				started.Add(1)
				res, err := client.Post(url+"/v1/normalize", "application/json", strings.NewReader(okResult))
				if err != nil {
					mu.Lock()
					lost[lossKind(err)]++
					mu.Unlock()
					t.Logf("request %d lost: %v", n, err)
					return
				}
				b, err := io.ReadAll(res.Body)
				res.Body.Close()
				assert.NoError(t, err)
				if !assert.Equal(t, 200, res.StatusCode, "%s", b) || !assert.Equal(t, string(want), string(b)) || res.Close {
					return
				}
				if n%probe == 0 && !ready(t, client, url) {
					return
				}
			}
		})
	}
	waitUntil(t, func() bool { return started.Load() >= clients*warm }, "the clients to warm up")
	cancel()
	wg.Wait()
	require.NoError(t, <-served)
	t.Logf("%d requests started, lost: %v", started.Load(), lost)
	assert.Empty(t, lost, "requests started during the drain that got no answer")
}

// ready probes url's /readyz as a load balancer does.
func ready(t *testing.T, client *http.Client, url string) bool {
	res, err := client.Get(url + "/readyz")
	if !assert.NoError(t, err, "the readiness probe") {
		return false
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode == 200 && !res.Close
}

// lossKind names how a request got no answer.
func lossKind(err error) string {
	switch {
	case errors.Is(err, io.EOF):
		return "EOF"
	case errors.Is(err, syscall.ECONNRESET):
		return "reset"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused"
	}
	return "other"
}

// Command soak drives a real `normalizer serve` on loopback for a set time with a realistic
// mix of results (valid, dirty, huge, malformed, gzip, explain), checks every answer byte for
// byte against single-mode normalization of the same bytes, samples the server's RSS and
// goroutines, and prints a summary. It exits 1 on any mismatch, 5xx, transport error, a leak
// of the results' text into the logs, or an unclean server exit. scripts/soak.sh runs it;
// it is not part of the normalizer binary.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/dystopic/normalizer/internal/testkit/corpus"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

// canary is in the text of the hand-written results: the server's logs must never show it.
const canary = "SOAK-CANARY-7f3a"

func main() {
	bin := flag.String("normalizer", "bin/normalizer", "the normalizer binary to serve")
	duration := flag.Duration("duration", 2*time.Minute, "how long to drive the server")
	workers := flag.Int("workers", 8, "concurrent clients")
	flag.Parse()
	if err := soak(*bin, *duration, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "soak: FAIL:", err)
		os.Exit(1)
	}
}

// item is one request of the mix and the exact answer it must get.
type item struct {
	name    string
	wire    []byte // the body as sent
	gzip    bool
	explain bool
	status  int
	want    []byte // exact body; nil: only the status and class are checked
	class   string
	weight  int
}

func soak(bin string, duration time.Duration, workers int) error {
	items := mix()
	srv, err := startServer(bin)
	if err != nil {
		return err
	}
	defer srv.kill()
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: workers, DisableCompression: true}}
	base := "http://" + srv.addr
	startG, err := baseline(client, base, items)
	if err != nil {
		return err
	}
	var (
		requests, mismatches, failures atomic.Int64
		mu                             sync.Mutex
		byStatus                       = map[int]int{}
		byItem                         = map[string]int{}
		firstProblem                   []string
	)
	problem := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(firstProblem) < 10 {
			firstProblem = append(firstProblem, fmt.Sprintf(format, a...))
		}
	}
	stopSampling := srv.sample(250 * time.Millisecond)
	deadline := time.Now().Add(duration)
	total := 0
	for _, it := range items {
		total += it.weight
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for time.Now().Before(deadline) {
				it := pick(items, r.IntN(total))
				status, body, err := post(client, base, it)
				requests.Add(1)
				if err != nil {
					failures.Add(1)
					problem("%s: %v", it.name, err)
					continue
				}
				mu.Lock()
				byStatus[status]++
				byItem[it.name]++
				mu.Unlock()
				if status == http.StatusTooManyRequests {
					time.Sleep(time.Second) // as Retry-After says; not a mismatch
					continue
				}
				if status != it.status || (it.want != nil && !bytes.Equal(body, it.want)) ||
					(it.want == nil && !bytes.Contains(body, []byte(`"class":"`+it.class+`"`))) {
					mismatches.Add(1)
					problem("%s: got %d %.200s, want %d %.200s", it.name, status, body, it.status, it.want)
				}
			}
		}()
	}
	wg.Wait()
	peakRSS := stopSampling()
	client.CloseIdleConnections()
	endG, err := settle(client, base, startG)
	if err != nil {
		return err
	}
	reserved, err := metric(client, base, "normalizer_memory_reserved_bytes")
	if err != nil {
		return err
	}
	budget, err := metric(client, base, "normalizer_memory_budget_bytes")
	if err != nil {
		return err
	}
	client.CloseIdleConnections()
	hwm := srv.status("VmHWM")
	exitErr := srv.stop()

	fmt.Printf("soak: %s, %d workers, normalizer serve on %s (defaults, and --memory-limit 1GiB)\n", duration, workers, srv.addr)
	fmt.Printf("requests: %d (%.0f/s)\n", requests.Load(), float64(requests.Load())/duration.Seconds())
	fmt.Printf("answers by status: %s\n", counts(byStatus))
	fmt.Printf("mismatches: %d   transport errors: %d\n", mismatches.Load(), failures.Load())
	fmt.Printf("peak RSS: %.1f MiB sampled (VmHWM %s)\n", float64(peakRSS)/(1<<20), hwm)
	fmt.Printf("goroutines: %d at the start, %d at the end\n", startG, endG)
	fmt.Printf("memory budget: %.1f MiB, reserved at the end: %.0f bytes\n", budget/(1<<20), reserved)
	fmt.Printf("log bytes: %d, result text in the logs: %v\n", srv.logBytes.Load(), srv.leak.Load())
	fmt.Printf("server exit: %v\n", errOrClean(exitErr))
	fmt.Printf("mix: %s\n", counts(byItem))
	for _, p := range firstProblem {
		fmt.Println("  problem:", p)
	}
	fivexx := 0
	for code, n := range byStatus {
		if code >= 500 {
			fivexx += n
		}
	}
	switch {
	case mismatches.Load() > 0 || failures.Load() > 0:
		return fmt.Errorf("%d mismatches, %d transport errors", mismatches.Load(), failures.Load())
	case fivexx > 0:
		return fmt.Errorf("%d answers were 5xx", fivexx)
	case srv.leak.Load():
		return errors.New("the logs carry a result's text")
	case exitErr != nil:
		return fmt.Errorf("server did not exit cleanly: %v", exitErr)
	case endG > startG:
		return fmt.Errorf("goroutines did not come back: %d at the start, %d at the end", startG, endG)
	case reserved != 0:
		return fmt.Errorf("the requests in flight's memory reservations did not all come back: %.0f bytes still reserved", reserved)
	case requests.Load() == 0:
		return errors.New("no requests were made")
	}
	fmt.Println("soak: PASS")
	return nil
}

func errOrClean(err error) string {
	if err == nil {
		return "clean (0)"
	}
	return err.Error()
}

// counts writes a tally as "key=n" pairs in key order.
func counts[K cmp.Ordered](m map[K]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%v=%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

func pick(items []item, n int) item {
	for _, it := range items {
		if n < it.weight {
			return it
		}
		n -= it.weight
	}
	return items[len(items)-1]
}

func post(client *http.Client, base string, it item) (int, []byte, error) {
	target := base + "/v1/normalize"
	if it.explain {
		target += "?explain=true"
	}
	req, err := http.NewRequest("POST", target, bytes.NewReader(it.wire))
	if err != nil {
		return 0, nil, err
	}
	if it.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// mix is the workload: what each request sends and the exact answer single-mode
// normalization gives for the same bytes (the HTTP body is the CLI's output without its
// final newline).
func mix() []item {
	plain := porting.New()
	explain := porting.New(normalize.WithExplain())
	expect := func(n *normalize.Normalizer, raw []byte) ([]byte, int) {
		res, err := n.Normalize(raw)
		if err != nil {
			class, _ := normalize.ClassOf(err)
			status := map[normalize.Class]int{normalize.ClassInvalidJSON: 400, normalize.ClassResponseShape: 422, normalize.ClassPayloadTooLarge: 413}[class]
			return normalize.AppendError(nil, err), status
		}
		return res.AppendJSON(nil), 200
	}
	huge := func(size int) []byte { // MBs of tool-call transcript
		return corpus.Sized(size, 11)
	}
	longAnswer := []byte(`{"final_response":"` + canary + strings.Repeat(" and then ", 6000) + `","messages":[{"role":"user","content":"q"}]}`)
	raws := []struct {
		name   string
		raw    []byte
		weight int
	}{
		{"small", corpus.Small(), 30},
		{"medium", corpus.Medium(), 15},
		{"dirty", corpus.Dirty(), 15},
		{"large-3MB", corpus.Large(), 2},
		{"huge-8MB", huge(8 << 20), 1},
		{"dirty-hand", []byte(`{"final_response":"` + canary + ` \ud800","messages":[{"role":"developer","content":"x"},{"role":"user","content":{"type":"text"}},` +
			`{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},{"role":"tool","tool_call_id":"c9","content":"r"}],` +
			`"metadata":{"model":7,"total_input_tokens":10.0,"total_output_tokens":-1,"x":{"y":[1,2.50,1E+2]}},"final_response":"` + canary + ` last"}`), 10},
		{"long-answer", longAnswer, 5},
		{"string", []byte(`"` + canary + ` plain string"`), 5},
		{"null", []byte(`null`), 2},
		{"no-final", []byte(`{"output":"` + canary + `"}`), 2},
		{"number", []byte(`42`), 1},
		{"truncated", corpus.Medium()[:30000], 4},
		{"trailing-comma", []byte(`{"final_response":"` + canary + `",}`), 2},
		{"invalid-utf8", []byte("{\"final_response\":\"" + canary + "\xff\"}"), 2},
		{"nested-100k", []byte(strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)), 1},
		{"empty", []byte(``), 1},
		{"over-limit", append(append([]byte(`"`), bytes.Repeat([]byte("a"), 21<<20)...), '"'), 1},
	}
	var items []item
	for _, r := range raws {
		if r.name == "over-limit" {
			// The service words its 413s itself (the flag that raises the limit): checked by
			// status and class, as the gzip bomb below.
			items = append(items, item{name: r.name, wire: r.raw, status: 413, class: "PayloadTooLarge", weight: r.weight})
			continue
		}
		want, status := expect(plain, r.raw)
		items = append(items, item{name: r.name, wire: r.raw, status: status, want: want, weight: r.weight})
		if r.weight >= 2 {
			want, status := expect(explain, r.raw)
			items = append(items, item{name: r.name + "+explain", wire: r.raw, explain: true, status: status, want: want, weight: max(1, r.weight/3)})
			items = append(items, item{name: r.name + "+gzip", wire: gz(r.raw), gzip: true, status: status, want: mustExpect(plain, r.raw), weight: max(1, r.weight/3)})
		}
	}
	// A gzip bomb (64 MiB of zeros, decoded) and a corrupt gzip stream: the service's own
	// answers, checked by status and class.
	items = append(items,
		item{name: "gzip-bomb", wire: gz(make([]byte, 64<<20)), gzip: true, status: 413, class: "PayloadTooLarge", weight: 1},
		item{name: "corrupt-gzip", wire: []byte("\x1f\x8b\x08\x00garbage"), gzip: true, status: 400, class: "BadRequest", weight: 1})
	return items
}

func mustExpect(n *normalize.Normalizer, raw []byte) []byte {
	res, err := n.Normalize(raw)
	if err != nil {
		return normalize.AppendError(nil, err)
	}
	return res.AppendJSON(nil)
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

// server is the normalizer process under test.
type server struct {
	cmd      *exec.Cmd
	addr     string
	logBytes atomic.Int64
	leak     atomic.Bool
	logsDone chan struct{}
	exited   chan error
}

func startServer(bin string) (*server, error) {
	// As the Kubernetes manifest runs it: a 1 GiB container, so a Go soft memory limit and the
	// memory budget derived from it (737 MiB, room for every worker's largest request at once:
	// no 429 is expected, and every reservation must come back).
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--shutdown-grace", "10s", "--memory-limit", "1GiB")
	cmd.Env = append(os.Environ(), "GOTRACEBACK=all")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &server{cmd: cmd, logsDone: make(chan struct{}), exited: make(chan error, 1)}
	addr := make(chan string, 1)
	go func() {
		defer close(s.logsDone)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			s.logBytes.Add(int64(len(line)) + 1)
			if bytes.Contains(line, []byte(canary)) {
				s.leak.Store(true)
			}
			var l struct{ Message, Addr string }
			if json.Unmarshal(line, &l) == nil && l.Message == "listening" {
				addr <- l.Addr
			}
		}
	}()
	go func() { <-s.logsDone; s.exited <- cmd.Wait() }()
	select {
	case s.addr = <-addr:
		return s, nil
	case err := <-s.exited:
		return nil, fmt.Errorf("%s serve exited before listening: %v", bin, err)
	case <-time.After(30 * time.Second):
		s.kill()
		return nil, errors.New("no listening line within 30 s")
	}
}

// status reads a field of /proc/PID/status (VmRSS, VmHWM), "" when it cannot.
func (s *server) status(field string) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func (s *server) rss() int64 {
	f := strings.Fields(s.status("VmRSS")) // "123456 kB"
	if len(f) == 0 {
		return 0
	}
	kb, _ := strconv.ParseInt(f[0], 10, 64)
	return kb << 10
}

// sample records the peak RSS every interval until the returned function is called.
func (s *server) sample(every time.Duration) func() int64 {
	var peak atomic.Int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			if v := s.rss(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 { close(done); <-stopped; return peak.Load() }
}

// stop sends SIGTERM and waits for a clean exit.
func (s *server) stop() error {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.exited:
		return err
	case <-time.After(30 * time.Second):
		s.kill()
		return errors.New("did not exit within 30 s of SIGTERM")
	}
}

func (s *server) kill() {
	if s.cmd.ProcessState == nil {
		_ = s.cmd.Process.Kill()
	}
}

// goroutines reads go_goroutines from /metrics.
func goroutines(client *http.Client, base string) (int, error) {
	v, err := metric(client, base, "go_goroutines")
	return int(v), err
}

// metric reads the value of an unlabelled series from /metrics.
func metric(client *http.Client, base, name string) (float64, error) {
	res, err := client.Get(base + "/metrics")
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			return strconv.ParseFloat(v, 64)
		}
	}
	return 0, fmt.Errorf("no %s in /metrics", name)
}

// baseline is the goroutine count to come back to: taken after one request of every item, with
// the idle connections closed and the count steady, since the runtime starts some goroutines of
// its own lazily (a count taken before any request was once 9, and 10 at the end of a run that
// leaked nothing).
func baseline(client *http.Client, base string, items []item) (int, error) {
	for _, it := range items {
		if _, _, err := post(client, base, it); err != nil {
			return 0, fmt.Errorf("warm-up, %s: %w", it.name, err)
		}
	}
	client.CloseIdleConnections()
	prev := -1
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := goroutines(client, base)
		if err != nil || n == prev || time.Now().After(deadline) {
			return n, err
		}
		prev = n
		client.CloseIdleConnections()
		time.Sleep(200 * time.Millisecond)
	}
}

// settle waits up to 10 s for the goroutines to come back to want (idle connections closed).
func settle(client *http.Client, base string, want int) (int, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		client.CloseIdleConnections()
		n, err := goroutines(client, base)
		if err != nil || n <= want || time.Now().After(deadline) {
			return n, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

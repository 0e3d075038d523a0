package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

const healthcheckUsage = `Usage: normalizer healthcheck [--url URL] [--timeout D]

Probes a running service's /healthz and exits 0 when it answers 200, 1 otherwise; a bad --url or
--timeout is a usage error, exit 2. It needs no shell, so a distroless image can use it as its
HEALTHCHECK. The URL is --url, else NORMALIZER_HEALTHCHECK_URL, else derived from
NORMALIZER_ADDR (default :8080): http://HOST:PORT/healthz, where HOST is the host that
NORMALIZER_ADDR names, or 127.0.0.1 when it names none or all interfaces ("", 0.0.0.0, ::).

Flags:
`

// healthcheckURLEnv supplies --url when the flag is not given.
const healthcheckURLEnv = "NORMALIZER_HEALTHCHECK_URL"

// healthcheckConfig is what `normalizer healthcheck` probes, and how long it waits.
type healthcheckConfig struct {
	url     string
	timeout time.Duration
}

// runHealthcheck is `normalizer healthcheck`.
func runHealthcheck(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, done, err := parseHealthcheck(args, getenv, stdout)
	if done || err != nil {
		return err
	}
	err = probe(ctx, cfg.url, cfg.timeout)
	if stoppedBy(ctx, err) {
		return interrupted(ctx, "healthcheck ", "while waiting for "+cfg.url)
	}
	if err != nil {
		return &exitError{code: exitRejected, err: fmt.Errorf("healthcheck: %w", err)}
	}
	fmt.Fprintf(stdout, "ok: %s\n", cfg.url)
	return nil
}

// parseHealthcheck reads the flags and the environment. Whatever is wrong with them is a
// usage error (exit 2): a probe that cannot even be attempted is a misconfiguration, not an
// unhealthy service (exit 1).
func parseHealthcheck(args []string, getenv func(string) string, stdout io.Writer) (cfg healthcheckConfig, done bool, err error) {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.StringVar(&cfg.url, "url", "", "URL to probe (default derived from NORMALIZER_ADDR: http://HOST:PORT/healthz)")
	fs.DurationVar(&cfg.timeout, "timeout", 3*time.Second, "time to wait for the answer")
	if done, err := parseNoOperands(fs, args, healthcheckUsage, stdout); done || err != nil {
		return cfg, done, err
	}
	if cfg.timeout <= 0 {
		return cfg, false, usageErrorf("healthcheck: --timeout is %s; expected a positive duration such as 3s", cfg.timeout)
	}
	from := "--url"
	if cfg.url == "" {
		cfg.url, from = getenv(healthcheckURLEnv), healthcheckURLEnv
	}
	if cfg.url == "" {
		addrEnv := envName("addr") // serve's
		addr := getenv(addrEnv)
		if cfg.url, err = defaultHealthURL(addr); err != nil {
			return cfg, false, usageErrorf("healthcheck: %s=%q: %v; or set --url", addrEnv, addr, err)
		}
		return cfg, false, nil
	}
	if err := checkProbeURL(cfg.url); err != nil {
		return cfg, false, usageErrorf("healthcheck: %s %q: %v", from, cfg.url, err)
	}
	return cfg, false, nil
}

// checkProbeURL accepts an absolute http or https URL with a host.
func checkProbeURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w; expected a URL such as http://127.0.0.1:8080/healthz", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("found scheme %q, expected http or https (as in http://127.0.0.1:8080/healthz)", u.Scheme)
	}
	if u.Host == "" {
		return fmt.Errorf("found no host, expected one (as in http://127.0.0.1:8080/healthz)")
	}
	return nil
}

// defaultHealthURL derives the /healthz URL of a service listening on addr (NORMALIZER_ADDR,
// the same host:port syntax as `serve --addr`). A named host is probed as named: a service
// bound to 10.1.2.3 or [::1] alone does not answer on 127.0.0.1. No host or an all-interfaces
// one (0.0.0.0, ::) is probed on 127.0.0.1, also for ::, since Go listens there dual-stack (or
// IPv4 only where IPv6 is off), so 127.0.0.1 answers where [::1] might not exist.
func defaultHealthURL(addr string) (string, error) {
	if addr == "" {
		addr = ":8080" // serve's default
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("%w; expected host:port such as :8080 or 10.1.2.3:8080", err)
	}
	n, err := net.LookupPort("tcp", port)
	if err != nil {
		return "", fmt.Errorf("port %q: %w", port, err)
	}
	if n == 0 {
		return "", fmt.Errorf("found port %q, which makes serve pick a free port that healthcheck cannot know", port)
	}
	if host == "" || net.ParseIP(host).IsUnspecified() {
		host = "127.0.0.1"
	}
	u := url.URL{Scheme: "http", Host: net.JoinHostPort(host, strconv.Itoa(n)), Path: "/healthz"}
	return u.String(), nil
}

func probe(ctx context.Context, url string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("bad URL %q: %w", url, err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: status %d, expected 200", url, res.StatusCode)
	}
	return nil
}

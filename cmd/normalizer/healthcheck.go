package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

const healthcheckUsage = `Usage: normalizer healthcheck [--url URL] [--timeout D]

Probes a running service's /healthz and exits 0 when it answers 200, 1 otherwise. It needs no
shell, so a distroless image can use it as its HEALTHCHECK. The default URL is
http://127.0.0.1:PORT/healthz, PORT taken from NORMALIZER_ADDR (default 8080); the
environment variable NORMALIZER_HEALTHCHECK_URL sets it too.

Flags:
`

// runHealthcheck is `normalizer healthcheck`.
func runHealthcheck(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	url := fs.String("url", "", "URL to probe (default http://127.0.0.1:PORT/healthz)")
	timeout := fs.Duration("timeout", 3*time.Second, "time to wait for the answer")
	if done, err := parseNoOperands(fs, args, healthcheckUsage, stdout); done || err != nil {
		return err
	}
	if *url == "" {
		*url = getenv("NORMALIZER_HEALTHCHECK_URL")
	}
	if *url == "" {
		*url = defaultHealthURL(getenv("NORMALIZER_ADDR"))
	}
	if err := probe(ctx, *url, *timeout); err != nil {
		return &exitError{code: exitRejected, err: fmt.Errorf("healthcheck: %w", err)}
	}
	fmt.Fprintf(stdout, "ok: %s\n", *url)
	return nil
}

// defaultHealthURL probes the loopback interface on the port the service listens on.
func defaultHealthURL(addr string) string {
	port := "8080"
	if _, p, err := net.SplitHostPort(addr); err == nil && p != "" {
		port = p
	}
	return "http://127.0.0.1:" + port + "/healthz"
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

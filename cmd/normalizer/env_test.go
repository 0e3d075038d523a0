package main

import (
	"context"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnknownVariables(t *testing.T) {
	known := knownVariables(newServeFlagSet(&serveFlags{}))
	tests := []struct {
		name string
		env  map[string]string
		want []unknownVariable // nil: no warning
	}{
		{name: "serve's own", env: map[string]string{"NORMALIZER_ADDR": ":9", "NORMALIZER_BODY_LIMIT": "1MiB",
			"NORMALIZER_MAX_IN_FLIGHT": "2", "NORMALIZER_MEMORY_LIMIT_RATIO": "0.8", "NORMALIZER_LOG_FORMAT": "console"}},
		{name: "healthcheck's url", env: map[string]string{"NORMALIZER_HEALTHCHECK_URL": "http://127.0.0.1:8080/healthz"}},
		{name: "normalize's max bytes", env: map[string]string{"NORMALIZER_MAX_BYTES": "1MiB"}},
		{name: "not ours", env: map[string]string{"PATH": "/bin", "GOMEMLIMIT": "1GiB", "NORMALIZERX": "1", "MY_NORMALIZER_ADDR": "x"}},
		{name: "misspelt, as in the review", env: map[string]string{"NORMALIZER_BODYLIMIT": "1MiB", "NORMALIZER_MAX_INFLIGHT": "2"},
			want: []unknownVariable{{"NORMALIZER_BODYLIMIT", "NORMALIZER_BODY_LIMIT"}, {"NORMALIZER_MAX_INFLIGHT", "NORMALIZER_MAX_IN_FLIGHT"}}},
		{name: "lower case", env: map[string]string{"normalizer_addr": ":9"},
			want: []unknownVariable{{"normalizer_addr", "NORMALIZER_ADDR"}}},
		{name: "dash for underscore", env: map[string]string{"NORMALIZER_LOG-LEVEL": "warn"},
			want: []unknownVariable{{"NORMALIZER_LOG-LEVEL", "NORMALIZER_LOG_LEVEL"}}},
		{name: "letters swapped", env: map[string]string{"NORMALIZER_MAX_DEPHT": "10"},
			want: []unknownVariable{{"NORMALIZER_MAX_DEPHT", "NORMALIZER_MAX_DEPTH"}}},
		{name: "letter dropped", env: map[string]string{"NORMALIZER_SHUTDOWN_GRACE_": "1s", "NORMALIZER_DRAIN_DELY": "1s"},
			want: []unknownVariable{{"NORMALIZER_DRAIN_DELY", "NORMALIZER_DRAIN_DELAY"}, {"NORMALIZER_SHUTDOWN_GRACE_", "NORMALIZER_SHUTDOWN_GRACE"}}},
		{name: "healthcheck's, misspelt", env: map[string]string{"NORMALIZER_HEALTHCHEK_URL": "http://x/healthz"},
			want: []unknownVariable{{"NORMALIZER_HEALTHCHEK_URL", "NORMALIZER_HEALTHCHECK_URL"}}},
		{name: "nothing near", env: map[string]string{"NORMALIZER_DEBUG": "1", "NORMALIZER_TIMEOUT": "5s"},
			want: []unknownVariable{{"NORMALIZER_DEBUG", ""}, {"NORMALIZER_TIMEOUT", ""}}},
		{name: "short names: one edit at most", env: map[string]string{"NORMALIZER_ADR": ":9", "NORMALIZER_AD": ":9"},
			want: []unknownVariable{{"NORMALIZER_AD", ""}, {"NORMALIZER_ADR", "NORMALIZER_ADDR"}}},
		{name: "a letter changed", env: map[string]string{"NORMALIZER_RITE_TIMEOUT": "5s", "NORMALIZER_MAX_BYTE": "1MiB"},
			want: []unknownVariable{{"NORMALIZER_MAX_BYTE", "NORMALIZER_MAX_BYTES"}, {"NORMALIZER_RITE_TIMEOUT", "NORMALIZER_WRITE_TIMEOUT"}}},
		{name: "two edits", env: map[string]string{"NORMALIZER_READ_TIMEOT_": "5s", "NORMALIZER_RETRYAFTERS_": "2s"},
			want: []unknownVariable{{"NORMALIZER_READ_TIMEOT_", "NORMALIZER_READ_TIMEOUT"}, {"NORMALIZER_RETRYAFTERS_", "NORMALIZER_RETRY_AFTER"}}},
		{name: "three edits: no guess", env: map[string]string{"NORMALIZER_RED_TIMOT": "5s"},
			want: []unknownVariable{{"NORMALIZER_RED_TIMOT", ""}}},
		{name: "empty value counts as unset", env: map[string]string{"NORMALIZER_BODYLIMIT": ""}},
		{name: "service links of a Service named normalizer", env: map[string]string{
			"NORMALIZER_SERVICE_HOST": "10.96.0.12", "NORMALIZER_SERVICE_PORT": "80", "NORMALIZER_SERVICE_PORT_HTTP": "80",
			"NORMALIZER_PORT": "tcp://10.96.0.12:80", "NORMALIZER_PORT_80_TCP": "tcp://10.96.0.12:80",
			"NORMALIZER_PORT_80_TCP_PROTO": "tcp", "NORMALIZER_PORT_80_TCP_PORT": "80", "NORMALIZER_PORT_80_TCP_ADDR": "10.96.0.12",
			"NORMALIZER_PORT_8080_UDP_ADDR": "10.96.0.12", "NORMALIZER_SERVICE_PORT_METRICS_HTTP": "9090"}},
		{name: "service links of a Service named normalizer-canary", env: map[string]string{
			"NORMALIZER_CANARY_SERVICE_HOST": "10.96.0.13", "NORMALIZER_CANARY_SERVICE_PORT": "80",
			"NORMALIZER_CANARY_PORT": "tcp://10.96.0.13:80", "NORMALIZER_CANARY_PORT_80_TCP_ADDR": "10.96.0.13"}},
		{name: "a port set by hand is not a service link", env: map[string]string{"NORMALIZER_PORT": "9090", "NORMALIZER_METRICS_PORT": "9090"},
			want: []unknownVariable{{"NORMALIZER_METRICS_PORT", ""}, {"NORMALIZER_PORT", ""}}},
		{name: "link-like names that are not links", env: map[string]string{"NORMALIZER_PORT_HTTP": "80", "NORMALIZER_SERVICE": "x"},
			want: []unknownVariable{{"NORMALIZER_PORT_HTTP", ""}, {"NORMALIZER_SERVICE", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names := make([]string, 0, len(tt.env))
			for k := range tt.env {
				names = append(names, k)
			}
			assert.Equal(t, tt.want, unknownVariables(names, envOf(tt.env), known))
		})
	}
}

// TestNearestVariableTies: a name as near to two known ones is no obvious misspelling of either.
func TestNearestVariableTies(t *testing.T) {
	known := []string{"NORMALIZER_READ_TIMEOUT", "NORMALIZER_REAL_TIMEOUT", "NORMALIZER_WRITE_TIMEOUT"}
	tests := []struct{ name, want string }{
		{"NORMALIZER_REAX_TIMEOUT", ""}, // one edit from READ and from REAL
		{"NORMALIZER_REA_TIMEOUT", ""},  // one edit from both, again
		{"NORMALIZER_READTIMEOUT", "NORMALIZER_READ_TIMEOUT"},
		{"NORMALIZER_WRTIE_TIMEOUT", "NORMALIZER_WRITE_TIMEOUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, nearestVariable(tt.name, known)) })
	}
}

// TestKnownVariablesAreTheOnesRead holds knownVariables to what the subcommands read: every
// NORMALIZER_ variable a subcommand asks getenv for is known, and every known one is read.
func TestKnownVariablesAreTheOnesRead(t *testing.T) {
	withEnviron(t, nil)
	var mu sync.Mutex
	read := map[string]bool{}
	record := func(k string) string {
		mu.Lock()
		defer mu.Unlock()
		if strings.HasPrefix(k, envPrefix) {
			read[k] = true
		}
		return ""
	}
	// serve reads everything up to the failed listen; healthcheck, with no --url, both its
	// variables; normalize reads its own before the flags.
	require.Error(t, run(context.Background(), []string{"serve", "--addr", "127.0.0.1:99999"}, record, nil, io.Discard, io.Discard))
	_, _, err := parseHealthcheck(nil, record, io.Discard)
	require.NoError(t, err)
	_, err = parseNormalize(nil, record)
	require.NoError(t, err)

	got := make([]string, 0, len(read))
	for k := range read {
		got = append(got, k)
	}
	known := knownVariables(newServeFlagSet(&serveFlags{}))
	sort.Strings(got)
	sort.Strings(known)
	assert.Equal(t, slices.Compact(known), got)
}

// withEnviron makes environ return env for the rest of the test. Tests that use it do not run
// in parallel: environ is the package's.
func withEnviron(t *testing.T, env []string) {
	prev := environ
	environ = func() []string { return env }
	t.Cleanup(func() { environ = prev })
}

// TestServeWarnsOfUnknownVariables runs serve with misspelt variables among right ones and
// service links: one warning line names the misspelt ones and what they probably meant, and
// serve goes on (here to a listen failure, which ends it early).
func TestServeWarnsOfUnknownVariables(t *testing.T) {
	env := map[string]string{
		"NORMALIZER_BODYLIMIT": "1MiB", "NORMALIZER_MAX_INFLIGHT": "2", "NORMALIZER_NOPE": "1",
		"NORMALIZER_MAX_DEPTH": "10", "NORMALIZER_HEALTHCHECK_URL": "http://127.0.0.1:1/healthz",
		"NORMALIZER_SERVICE_HOST": "10.96.0.12", "NORMALIZER_PORT": "tcp://10.96.0.12:80", "NORMALIZER_PORT_80_TCP_PROTO": "tcp",
		"NORMALIZER_EMPTY": "",
	}
	var environment []string
	for k, v := range env {
		environment = append(environment, k+"="+v)
	}
	withEnviron(t, environment)
	var stderr lockedBuffer
	err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:99999"}, envOf(env), nil, io.Discard, &stderr)
	require.Error(t, err)

	var warnings []map[string]any
	for _, l := range logLines(t, stderr.String()) {
		if l["level"] == "warn" {
			warnings = append(warnings, l)
		}
	}
	require.Len(t, warnings, 1, stderr.String())
	w := warnings[0]
	assert.Equal(t, "serve", w["component"])
	assert.Equal(t, []any{"NORMALIZER_BODYLIMIT", "NORMALIZER_MAX_INFLIGHT", "NORMALIZER_NOPE"}, w["ignored_variables"])
	assert.Equal(t, map[string]any{"NORMALIZER_BODYLIMIT": "NORMALIZER_BODY_LIMIT", "NORMALIZER_MAX_INFLIGHT": "NORMALIZER_MAX_IN_FLIGHT"}, w["did_you_mean"])
	assert.Contains(t, w["message"], "misspelt")
	assert.NotContains(t, stderr.String(), "1MiB", "values are not logged")
}

func TestServeWarnsOfNothingWhenAllIsKnown(t *testing.T) {
	env := map[string]string{"NORMALIZER_MAX_DEPTH": "10", "NORMALIZER_SERVICE_PORT_HTTP": "80"}
	withEnviron(t, []string{"NORMALIZER_MAX_DEPTH=10", "NORMALIZER_SERVICE_PORT_HTTP=80", "HOME=/root"})
	var stderr lockedBuffer
	require.Error(t, run(context.Background(), []string{"serve", "--addr", "127.0.0.1:99999"}, envOf(env), nil, io.Discard, &stderr))
	for _, l := range logLines(t, stderr.String()) {
		assert.NotEqual(t, "warn", l["level"], l)
	}
}

package runenv_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/agent/runenv"
)

func lookupIn(vars map[string]string) runenv.LookupFunc {
	return func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
}

func TestFromLookup(t *testing.T) {
	full := map[string]string{
		"DYSTOPIC_ODYSSEY_PROXY_URL": "http://127.0.0.1:8700",
		"DYSTOPIC_RUN_TOKEN":         "tok",
		"DYSTOPIC_RUN_TOKEN_JTI":     "jti-1",
		"DYSTOPIC_RUN_ID":            "run-1",
		"DYSTOPIC_TASK_ID":           "task-1",
	}
	without := func(name string) map[string]string {
		m := map[string]string{}
		for k, v := range full {
			if k != name {
				m[k] = v
			}
		}
		return m
	}
	with := func(name, value string) map[string]string {
		m := without(name)
		m[name] = value
		return m
	}
	tests := []struct {
		name    string
		vars    map[string]string
		want    runenv.Env
		missing string // the variable a *MissingVarError must name
		invalid string // the variable an *InvalidVarError must name
	}{
		{name: "all set", vars: full, want: runenv.Env{ProxyURL: "http://127.0.0.1:8700", RunToken: "tok", RunTokenJTI: "jti-1", RunID: "run-1", TaskID: "task-1"}},
		{name: "optional ids absent", vars: map[string]string{"DYSTOPIC_ODYSSEY_PROXY_URL": "https://proxy.example/run/7", "DYSTOPIC_RUN_TOKEN": "t"},
			want: runenv.Env{ProxyURL: "https://proxy.example/run/7", RunToken: "t"}},
		{name: "proxy URL missing", vars: without("DYSTOPIC_ODYSSEY_PROXY_URL"), missing: "DYSTOPIC_ODYSSEY_PROXY_URL"},
		{name: "run token missing", vars: without("DYSTOPIC_RUN_TOKEN"), missing: "DYSTOPIC_RUN_TOKEN"},
		{name: "run token empty", vars: with("DYSTOPIC_RUN_TOKEN", ""), missing: "DYSTOPIC_RUN_TOKEN"},
		{name: "both missing names the URL first", vars: map[string]string{}, missing: "DYSTOPIC_ODYSSEY_PROXY_URL"},
		{name: "proxy URL relative", vars: with("DYSTOPIC_ODYSSEY_PROXY_URL", "/tools"), invalid: "DYSTOPIC_ODYSSEY_PROXY_URL"},
		{name: "proxy URL without scheme", vars: with("DYSTOPIC_ODYSSEY_PROXY_URL", "127.0.0.1:8700"), invalid: "DYSTOPIC_ODYSSEY_PROXY_URL"},
		{name: "proxy URL ftp", vars: with("DYSTOPIC_ODYSSEY_PROXY_URL", "ftp://h/"), invalid: "DYSTOPIC_ODYSSEY_PROXY_URL"},
		{name: "proxy URL with query", vars: with("DYSTOPIC_ODYSSEY_PROXY_URL", "http://h/?a=1"), invalid: "DYSTOPIC_ODYSSEY_PROXY_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runenv.FromLookup(lookupIn(tt.vars))
			switch {
			case tt.missing != "":
				var miss *runenv.MissingVarError
				require.True(t, errors.As(err, &miss), "got %v", err)
				assert.Equal(t, tt.missing, miss.Name)
				assert.Contains(t, err.Error(), tt.missing)
				assert.ErrorIs(t, err, runenv.ErrMissing)
			case tt.invalid != "":
				var inv *runenv.InvalidVarError
				require.True(t, errors.As(err, &inv), "got %v", err)
				assert.Equal(t, tt.invalid, inv.Name)
				assert.ErrorIs(t, err, runenv.ErrInvalid)
			default:
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv("DYSTOPIC_ODYSSEY_PROXY_URL", "http://127.0.0.1:1")
	t.Setenv("DYSTOPIC_RUN_TOKEN", "secret")
	t.Setenv("DYSTOPIC_RUN_ID", "r")
	env, err := runenv.FromEnv()
	require.NoError(t, err)
	assert.Equal(t, runenv.Env{ProxyURL: "http://127.0.0.1:1", RunToken: "secret", RunID: "r"}, env)
}

func TestSubprocessEnv(t *testing.T) {
	env := runenv.Env{ProxyURL: "http://127.0.0.1:8700", RunToken: "tok", RunID: "run-2"}
	base := []string{
		"PATH=/usr/bin",
		"DYSTOPIC_RUN_TOKEN=old",
		"DYSTOPIC_RUN_TOKEN_JTI=jti-of-another-run",
		"DYSTOPIC_PROXY_TIMEOUT_S=30",
		"EMPTY=",
	}
	assert.Equal(t, []string{
		"PATH=/usr/bin",
		"DYSTOPIC_PROXY_TIMEOUT_S=30",
		"EMPTY=",
		"DYSTOPIC_ODYSSEY_PROXY_URL=http://127.0.0.1:8700",
		"DYSTOPIC_RUN_TOKEN=tok",
		"DYSTOPIC_RUN_ID=run-2",
	}, env.SubprocessEnv(base))

	// Reading the child's environment back gives the same run context.
	child := map[string]string{}
	for _, kv := range env.SubprocessEnv(nil) {
		for i := range kv {
			if kv[i] == '=' {
				child[kv[:i]] = kv[i+1:]
				break
			}
		}
	}
	back, err := runenv.FromLookup(lookupIn(child))
	require.NoError(t, err)
	assert.Equal(t, env, back)
}

func TestProxyTimeout(t *testing.T) {
	tests := []struct {
		name  string
		value *string
		want  time.Duration
		bad   bool
	}{
		{name: "unset", value: nil, want: 120 * time.Second},
		{name: "empty", value: ptr(""), want: 120 * time.Second},
		{name: "blank", value: ptr("  "), want: 120 * time.Second},
		{name: "whole", value: ptr("30"), want: 30 * time.Second},
		{name: "fraction", value: ptr("2.5"), want: 2500 * time.Millisecond},
		{name: "spaces", value: ptr(" 10 "), want: 10 * time.Second},
		{name: "unit suffix", value: ptr("30s"), bad: true},
		{name: "zero", value: ptr("0"), bad: true},
		{name: "negative", value: ptr("-1"), bad: true},
		{name: "NaN", value: ptr("NaN"), bad: true},
		{name: "infinite", value: ptr("inf"), bad: true},
		{name: "below a nanosecond", value: ptr("1e-12"), bad: true},
		{name: "too large", value: ptr("1e30"), bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]string{}
			if tt.value != nil {
				vars["DYSTOPIC_PROXY_TIMEOUT_S"] = *tt.value
			}
			got, err := runenv.ProxyTimeout(lookupIn(vars))
			if tt.bad {
				var inv *runenv.InvalidVarError
				require.True(t, errors.As(err, &inv), "got %v", err)
				assert.Equal(t, "DYSTOPIC_PROXY_TIMEOUT_S", inv.Name)
				assert.Contains(t, err.Error(), "DYSTOPIC_PROXY_TIMEOUT_S=")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func ptr(s string) *string { return &s }

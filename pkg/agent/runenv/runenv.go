// Package runenv reads the run context that the platform injects into the sandbox as DYSTOPIC_*
// environment variables, and writes it back out for a subprocess that needs it: the Go side of
// the SDK's Envelope.from_env and make_subprocess_env.
//
// The per-call settings of the proxy (the timeout in DYSTOPIC_PROXY_TIMEOUT_S) are read here
// too, so that every environment variable of the contract has one reader.
package runenv

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// The environment variables of the contract.
const (
	VarProxyURL     = "DYSTOPIC_ODYSSEY_PROXY_URL" // required
	VarRunToken     = "DYSTOPIC_RUN_TOKEN"         // required
	VarRunTokenJTI  = "DYSTOPIC_RUN_TOKEN_JTI"     // optional correlation id
	VarRunID        = "DYSTOPIC_RUN_ID"            // optional correlation id
	VarTaskID       = "DYSTOPIC_TASK_ID"           // optional correlation id
	VarProxyTimeout = "DYSTOPIC_PROXY_TIMEOUT_S"   // optional, seconds
)

// DefaultProxyTimeout is the proxy call timeout when DYSTOPIC_PROXY_TIMEOUT_S is not set.
const DefaultProxyTimeout = 120 * time.Second

// ErrMissing is the sentinel of *MissingVarError.
var ErrMissing = errors.New("missing environment variable")

// ErrInvalid is the sentinel of *InvalidVarError.
var ErrInvalid = errors.New("invalid environment variable")

// MissingVarError reports a required variable that is unset or empty (Python raises KeyError).
type MissingVarError struct{ Name string }

func (e *MissingVarError) Error() string {
	return fmt.Sprintf("run context: environment variable %s is not set or empty; the platform sets it in the sandbox, set it yourself when running outside", e.Name)
}

// Unwrap returns ErrMissing.
func (e *MissingVarError) Unwrap() error { return ErrMissing }

// InvalidVarError reports a variable whose value cannot be used.
type InvalidVarError struct {
	Name  string // the variable
	Value string // what it holds
	Want  string // what was expected
}

func (e *InvalidVarError) Error() string {
	return fmt.Sprintf("run context: environment variable %s=%q is invalid; expected %s", e.Name, e.Value, e.Want)
}

// Unwrap returns ErrInvalid.
func (e *InvalidVarError) Unwrap() error { return ErrInvalid }

// LookupFunc looks up one environment variable; os.LookupEnv is one.
type LookupFunc func(name string) (string, bool)

// Env is the run context of one run: where the proxy is, the token that authorizes calls to it,
// and the ids that correlate the run's logs. The optional ids are "" when not set.
type Env struct {
	ProxyURL    string
	RunToken    string
	RunTokenJTI string
	RunID       string
	TaskID      string
}

// FromEnv reads the run context from the process environment.
func FromEnv() (Env, error) { return FromLookup(os.LookupEnv) }

// FromLookup reads the run context through lookup. DYSTOPIC_ODYSSEY_PROXY_URL and
// DYSTOPIC_RUN_TOKEN are required: unset or empty is a *MissingVarError naming the variable.
// The proxy URL must be an absolute http or https URL (*InvalidVarError otherwise).
func FromLookup(lookup LookupFunc) (Env, error) {
	get := func(name string) string { v, _ := lookup(name); return v }
	env := Env{
		ProxyURL:    get(VarProxyURL),
		RunToken:    get(VarRunToken),
		RunTokenJTI: get(VarRunTokenJTI),
		RunID:       get(VarRunID),
		TaskID:      get(VarTaskID),
	}
	for _, req := range []struct{ name, value string }{{VarProxyURL, env.ProxyURL}, {VarRunToken, env.RunToken}} {
		if req.value == "" {
			return Env{}, &MissingVarError{Name: req.name}
		}
	}
	if err := CheckProxyURL(env.ProxyURL); err != nil {
		return Env{}, err
	}
	return env, nil
}

// CheckProxyURL reports an *InvalidVarError unless s is an absolute http or https URL with a
// host and without a query or fragment (the tool path is appended to it).
func CheckProxyURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return &InvalidVarError{Name: VarProxyURL, Value: s, Want: "an absolute http(s) URL without query or fragment, such as http://127.0.0.1:8700"}
	}
	return nil
}

// vars returns the variables of e in a fixed order; optional ones are "" when not set.
func (e Env) vars() [5][2]string {
	return [5][2]string{
		{VarProxyURL, e.ProxyURL}, {VarRunToken, e.RunToken},
		{VarRunTokenJTI, e.RunTokenJTI}, {VarRunID, e.RunID}, {VarTaskID, e.TaskID},
	}
}

// Environ returns the run context as NAME=value entries, in the form of os.Environ, with only
// the variables that are set.
func (e Env) Environ() []string {
	var out []string
	for _, kv := range e.vars() {
		if kv[1] != "" {
			out = append(out, kv[0]+"="+kv[1])
		}
	}
	return out
}

// SubprocessEnv returns base (usually os.Environ()) with the run context of e: its variables
// replace any of the same name in base, and the optional ids e does not have are removed from
// base, so a child never sees a correlation id of another run. Other variables, including
// DYSTOPIC_PROXY_TIMEOUT_S, are kept as they are. It is the Go side of make_subprocess_env; use
// it as exec.Cmd.Env.
func (e Env) SubprocessEnv(base []string) []string {
	ours := map[string]bool{}
	for _, kv := range e.vars() {
		ours[kv[0]] = true
	}
	out := make([]string, 0, len(base)+5)
	for _, entry := range base {
		name, _, _ := strings.Cut(entry, "=")
		if !ours[name] {
			out = append(out, entry)
		}
	}
	return append(out, e.Environ()...)
}

// ProxyTimeout reads DYSTOPIC_PROXY_TIMEOUT_S through lookup: a number of seconds, fractions
// allowed. Unset or empty gives DefaultProxyTimeout. A value that is not a finite number
// greater than zero is an *InvalidVarError: a typo such as "30s" must not silently become 120
// seconds, so the caller learns of it when it builds its client rather than when a call hangs.
func ProxyTimeout(lookup LookupFunc) (time.Duration, error) {
	v, _ := lookup(VarProxyTimeout)
	if strings.TrimSpace(v) == "" {
		return DefaultProxyTimeout, nil
	}
	secs, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(secs) || secs <= 0 || secs > math.MaxInt64/float64(time.Second) ||
		time.Duration(secs*float64(time.Second)) <= 0 {
		return 0, &InvalidVarError{Name: VarProxyTimeout, Value: v, Want: "a number of seconds greater than 0, such as 30 or 2.5"}
	}
	return time.Duration(secs * float64(time.Second)), nil
}

package main

import (
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/rs/zerolog"

	"github.com/dystopic/normalizer/internal/textdist"
)

// environ lists the process's variables as KEY=VALUE: run's getenv reads one variable but
// cannot list them, and the warning about unknown variables needs their names. Values are
// still read through getenv, so a test that passes its own getenv sees none of the test
// process's variables.
var environ = os.Environ

// envPrefix starts every variable of normalizer's.
const envPrefix = "NORMALIZER_"

// knownVariables returns every NORMALIZER_ variable some subcommand reads, taken from the flag
// definitions: one per flag of serve's flag set (envName), and the variables of normalize's
// --max-bytes and healthcheck's --url. Subcommands share an environment (a container's
// HEALTHCHECK runs beside serve), so serve knows them all.
func knownVariables(serve *flag.FlagSet) []string {
	var known []string
	serve.VisitAll(func(f *flag.Flag) { known = append(known, envName(f.Name)) })
	return append(known, maxBytesEnv, healthcheckURLEnv)
}

// serviceLink matches the variables Kubernetes injects for a Service whose name starts with
// normalizer (enableServiceLinks, on by default): NAME_SERVICE_HOST, NAME_SERVICE_PORT and
// NAME_SERVICE_PORT_PORTNAME, NAME_PORT_8080_TCP and its _PROTO, _PORT and _ADDR. NAME_PORT
// alone is matched by serviceLinkPort, with its value.
var serviceLink = regexp.MustCompile(`^NORMALIZER(_[A-Z0-9_]+)?_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT_[0-9]+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?)$`)

// serviceLinkPort matches NAME_PORT=tcp://10.0.0.1:80, Kubernetes' docker-link style variable.
// Its name is one an operator could write meaning the listen port (NORMALIZER_PORT=9090):
// that one, a number, is warned about.
var (
	serviceLinkPortName  = regexp.MustCompile(`^NORMALIZER(_[A-Z0-9_]+)?_PORT$`)
	serviceLinkPortValue = regexp.MustCompile(`^(tcp|udp|sctp)://`)
)

// unknownVariable is a NORMALIZER_ variable that no subcommand reads.
type unknownVariable struct {
	name  string
	meant string // the known variable it is probably a misspelling of, or ""
}

// unknownVariables finds, among names (the environment's), the variables that start with
// NORMALIZER_ (in any case), are set to a value that is not empty, and are neither known nor
// a Kubernetes service link. An empty value counts as unset, as it does for the settings: it
// would have changed nothing even if spelt right. Sorted by name.
func unknownVariables(names []string, getenv func(string) string, known []string) []unknownVariable {
	var unknown []unknownVariable
	for _, name := range names {
		if !strings.HasPrefix(strings.ToUpper(name), envPrefix) || slices.Contains(known, name) {
			continue
		}
		v := getenv(name)
		if v == "" || serviceLink.MatchString(name) || serviceLinkPortName.MatchString(name) && serviceLinkPortValue.MatchString(v) {
			continue
		}
		unknown = append(unknown, unknownVariable{name: name, meant: nearestVariable(name, known)})
	}
	slices.SortFunc(unknown, func(a, b unknownVariable) int { return strings.Compare(a.name, b.name) })
	return slices.CompactFunc(unknown, func(a, b unknownVariable) bool { return a.name == b.name })
}

// nearestVariable returns the known variable that name probably meant, or "" when none is an
// obvious match. Names are compared in capitals without the prefix and without '_' and '-'
// (NORMALIZER_BODYLIMIT, normalizer_max_in-flight); past that, a known name one edit away (two
// for names of more than 5 letters: a letter added, dropped, changed, or two swapped) is taken
// when it is the only one that close.
func nearestVariable(name string, known []string) string {
	key := variableKey(name)
	best, bestDist, ties := "", 3, 0
	for _, k := range known {
		d := textdist.EditDistance(key, variableKey(k))
		switch {
		case d < bestDist:
			best, bestDist, ties = k, d, 1
		case d == bestDist:
			ties++
		}
	}
	maxDist := 2
	if len(key) <= 5 {
		maxDist = 1
	}
	if best == "" || bestDist > maxDist || ties > 1 {
		return ""
	}
	return best
}

func variableKey(name string) string {
	key := strings.ToUpper(name)
	key = key[len(envPrefix):] // every name here starts with the prefix, in some case
	return strings.NewReplacer("_", "", "-", "").Replace(key)
}

// warnUnknownVariables logs one warning naming every NORMALIZER_ variable of environment
// (KEY=VALUE entries) that sets nothing, with the variable each probably meant: a misspelt
// flag is a usage error, but a misspelt variable would otherwise leave its setting at the
// default without a word. It does not refuse to start: the environment is shared with other
// programs and other deployments' variables. Values are not logged: an unrelated variable may
// hold a secret.
func warnUnknownVariables(log zerolog.Logger, environment []string, getenv func(string) string, serve *flag.FlagSet) {
	names := make([]string, 0, len(environment))
	for _, kv := range environment {
		if name, _, ok := strings.Cut(kv, "="); ok && name != "" {
			names = append(names, name)
		}
	}
	unknown := unknownVariables(names, getenv, knownVariables(serve))
	if len(unknown) == 0 {
		return
	}
	ignored := make([]string, len(unknown))
	meant, guessed := zerolog.Dict(), false
	for i, u := range unknown {
		ignored[i] = u.name
		if u.meant != "" {
			meant, guessed = meant.Str(u.name, u.meant), true
		}
	}
	e := log.Warn().Strs("ignored_variables", ignored)
	if guessed {
		e = e.Dict("did_you_mean", meant)
	}
	e.Msg("environment variables starting with NORMALIZER_ that set nothing are ignored: a misspelt one leaves its setting at the default; serve's variables are NORMALIZER_ and a flag's name (normalizer serve -h)")
}

#!/usr/bin/env bash
# Runs every test of normalizer: formatting, vet, the unit, golden, schema, contract and
# end-to-end tests under the race detector (among them the SDK corpus, regenerated from the
# pinned npm packages and compared), the memory and allocation budgets (which need a run
# without it), a short run of every fuzz target, the golden corpus through the real command,
# the OpenAPI document linted (Redocly CLI) and a TypeScript and a Go client generated from it run
# against the real service, and the static build the Dockerfile makes. It needs Go (and gcc, for
# -race), and Node.js with npm for the OpenAPI checks (scripts/openapi-client.sh installs
# Debian's packages when they are missing),
# and Debian's python3 with requests, httpx and aiohttp, curl and nginx for the client tests
# (installed below when missing, as root).
#
# Usage: scripts/test.sh            FUZZTIME=30000x by default; FUZZTIME=0 skips fuzzing
#
# The fuzz budget is a count of executions, not a duration: with a duration, Go 1.26's fuzz
# coordinator can fail a target with a bare "context deadline exceeded" at the deadline, no
# failing input found (go.dev/issue/75804, fixed in Go 1.27); a count never reaches that path.
# 30000 runs take 2-10 s per target here.
set -euo pipefail
cd "$(dirname "$0")/.."
# -pgo=off: the tests check behaviour, which profile-guided optimization does not change, and
# without it every package is compiled once for all of them; scripts/build-static.sh builds the
# shipped binary with the profile (cmd/normalizer/default.pgo), as the Dockerfile does.
export GOFLAGS=${GOFLAGS:--buildvcs=false -pgo=off}
fuzztime=${FUZZTIME:-30000x}

step() { printf '\n== %s\n' "$*"; }

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

# The scripts that are not run here (load benchmarks, profiling, soak) must at least parse.
step "bash -n scripts/*.sh"
for f in scripts/*.sh; do bash -n "$f"; done

# deploy/ is a module of its own (the Dockerfile's and the manifests' checks, with buildkit's
# parser and k8s.io/api), so that a library user's module graph does not carry them.
step "go vet"
go vet ./...
(cd deploy && go vet ./...)

# The string scan has assembly for amd64 and plain Go elsewhere: keep the other side compiling
# (and vetted, tests included) on a 64-bit and a 32-bit architecture.
step "go vet for arm64 and 386"
GOARCH=arm64 go vet ./...
GOARCH=386 go vet ./...

# nst/JSONTestSuite's 318 parsing cases (pkg/normalize/jsontestsuite_test.go): from the Go module
# proxy, at a pinned commit whose checksum is checked here as well as by the checksum database,
# so that the test runs on any clean clone (it finds ../shared/corpora only beside the team's
# checkout). With NORMALIZER_JSONTESTSUITE set, a missing suite fails the test rather than
# skipping it.
if [ -z "${NORMALIZER_JSONTESTSUITE:-}" ]; then
	step "JSONTestSuite from the Go module proxy"
	suite_mod=github.com/nst/JSONTestSuite@v0.0.0-20241122125541-1ef36fa01286
	suite_sum='h1:t/cjDwz9uc/5ZSagWtr7nWpoEA5Imvw/ArlJuI+d+Cw='
	suite_tmp=$(mktemp -d) # outside the module: the download must not touch go.mod or go.sum
	suite_json=$(cd "$suite_tmp" && GOFLAGS= go mod download -json "$suite_mod")
	rmdir "$suite_tmp"
	suite_dir=$(printf '%s\n' "$suite_json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	if ! printf '%s\n' "$suite_json" | grep -qF "\"Sum\": \"$suite_sum\""; then
		echo "JSONTestSuite: $suite_mod does not have the checksum $suite_sum:"; echo "$suite_json"; exit 1
	fi
	export NORMALIZER_JSONTESTSUITE="$suite_dir/test_parsing"
	echo "$NORMALIZER_JSONTESTSUITE"
fi

# internal/httpapi's client tests send refused uploads with real clients (Python's requests,
# httpx, aiohttp and urllib, curl) and put nginx in front of the service; a missing one fails
# those tests, so Debian's packages are installed here when they are missing and this runs as
# root. The nginx package would start the system's nginx on port 80: a policy-rc.d that denies
# it is in place for the install (unless the machine has one), as in Debian's container images.
step "client programs for internal/httpapi's client tests"
client_pkgs=""
/usr/bin/python3 -c 'import requests' 2>/dev/null || client_pkgs="$client_pkgs python3-requests"
/usr/bin/python3 -c 'import httpx' 2>/dev/null || client_pkgs="$client_pkgs python3-httpx"
/usr/bin/python3 -c 'import aiohttp' 2>/dev/null || client_pkgs="$client_pkgs python3-aiohttp"
command -v curl >/dev/null || client_pkgs="$client_pkgs curl"
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || client_pkgs="$client_pkgs nginx"
if [ -n "$client_pkgs" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "test.sh: the client tests need:$client_pkgs (apt-get install$client_pkgs)" >&2; exit 1
	fi
	echo "installing$client_pkgs"
	policy=""
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		policy=/usr/sbin/policy-rc.d
		printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"
	fi
	# shellcheck disable=SC2086 # the list is words
	apt-get install -y $client_pkgs >/dev/null || { apt-get update >/dev/null && apt-get install -y $client_pkgs >/dev/null; }
	[ -z "$policy" ] || rm -f "$policy"
fi

# internal/sdkcorpus compares its committed corpus with what its generator writes from the real
# SDKs (scripts/sdk-corpus.sh: Node.js, npm and the pinned npm packages, installed into a cache
# once); the variable makes a missing Node fail that test rather than skip it.
step "Node.js for internal/sdkcorpus's generated corpus"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	[ "$(id -u)" -eq 0 ] || { echo "test.sh: the SDK corpus needs Node.js and npm (apt-get install nodejs npm)" >&2; exit 1; }
	echo "installing nodejs npm"
	apt-get install -y nodejs npm >/dev/null || { apt-get update >/dev/null && apt-get install -y nodejs npm >/dev/null; }
fi
node --version
export NORMALIZER_SDKCORPUS=1

step "go test -race (every package, both modules)"
go test -race -count=1 ./...
(cd deploy && go test -race -count=1 ./...)

# The memory and allocation budgets skip under -race (it changes what allocates), so every
# package that has them (it defines raceEnabled in a norace_test.go) runs whole once more
# without the detector: a -run pattern would silently miss the next such test. -v shows the
# measured peaks and allocations; the PASS/RUN lines are left out.
step "packages with memory and allocation budgets, without the race detector"
budget_pkgs=$(grep -l '^const raceEnabled = false' $(git ls-files '*_test.go') | xargs -n1 dirname | sort -u | sed 's|^|./|')
go test -count=1 -v $budget_pkgs | grep -Ev '^(=== (RUN|PAUSE|CONT|NAME)|\s*--- PASS|PASS$)'

if [ "$fuzztime" != "0" ]; then
	step "fuzz targets, -fuzztime $fuzztime each (seed corpora under each package's testdata/fuzz)"
	for pkg in $(go list ./...); do
		for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
			echo "-- $pkg $target"
			# A new input is minimized for up to a minute by default, which would eat the whole
			# run; two seconds keeps the run fuzzing.
			go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime 2s "$pkg"
		done
	done
fi

step "golden corpus and porters' explain views through the command line"
bin_dir=$(mktemp -d)
trap 'rm -rf "$bin_dir"' EXIT
go build -pgo=off -o "$bin_dir/normalizer" ./cmd/normalizer
"$bin_dir/normalizer" check testdata/golden | tail -n 1
"$bin_dir/normalizer" check --explain testdata/explain | tail -n 1
"$bin_dir/normalizer" check --explain --format text testdata/explain | tail -n 1
"$bin_dir/normalizer" check --explain internal/sdkcorpus/testdata | tail -n 1 | cut -d';' -f1
"$bin_dir/normalizer" check --explain --format text internal/sdkcorpus/testdata | tail -n 1 | cut -d';' -f1

step "OpenAPI: the document linted, a TypeScript and a Go client generated from it, compiled and run against the real service"
scripts/openapi-client.sh

# The porter's page in a real browser: Debian's chromium (installed when missing, as root) and
# the pinned playwright-core and axe-core, against the real service.
step "the porter's page in chromium (scripts/browser-test.sh)"
scripts/browser-test.sh

step "static build, as the Dockerfile makes it"
scripts/build-static.sh bin/normalizer

step "soak smoke run: the real service under a mixed load, every answer checked"
scripts/soak.sh "${SOAKTIME:-10s}"

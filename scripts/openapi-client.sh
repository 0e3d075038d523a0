#!/usr/bin/env bash
# OpenAPI client check: lints internal/httpapi/openapi.json with Redocly CLI's recommended rules
# (internal/httpapi/testdata/redocly: redocly.yaml, and the problems it does not count, each
# with its reason, in .redocly.lint-ignore.yaml), then generates two clients from it and runs
# each against the real `normalizer serve` on 127.0.0.1:
# - TypeScript: openapi-typescript (a client generator that takes OpenAPI 3.1); a client of
#   every operation (testdata/tsclient/client.ts) type-checks against it (tsc, strict) and runs.
# - Go: oapi-codegen generates package nclient; testdata/goclient/main.go compiles against it
#   (go vet) and runs. testdata/goclient is a module of its own, so that oapi-codegen (its
#   go.mod's tool) and the runtime the generated code imports are no requirement of the
#   normalizer's go.mod, which every library user's module graph carries.
# A document that the linter or a generator rejects, or that does not describe what the service
# answers, fails here. The npm packages are pinned by the package-lock.json of testdata/redocly
# and testdata/tsclient, the Go modules by testdata/goclient's go.mod and go.sum; each is
# installed in a temporary directory. Node.js and npm come from the machine (Debian's nodejs and
# npm packages, installed if missing and running as root), Go modules from the Go module proxy.
#
# Usage: scripts/openapi-client.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	[ "$(id -u)" -eq 0 ] || { echo "openapi-client: Node.js and npm are needed (apt-get install nodejs npm)" >&2; exit 1; }
	echo "openapi-client: installing nodejs and npm" >&2
	apt-get install -y nodejs npm >/dev/null || { apt-get update >/dev/null && apt-get install -y nodejs npm >/dev/null; }
fi

work=$(mktemp -d)
server=""
cleanup() {
	[ -z "$server" ] || kill "$server" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

doc=$root/internal/httpapi/openapi.json

# Redocly CLI: zero errors and zero warnings, or the check fails.
mkdir "$work/redocly"
cp internal/httpapi/testdata/redocly/{package.json,package-lock.json} "$work/redocly"
(cd "$work/redocly" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
lint_out=$(REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true "$work/redocly/node_modules/.bin/redocly" lint \
	--config internal/httpapi/testdata/redocly/redocly.yaml --format=stylish "$doc" 2>&1) || {
	printf '%s\n' "$lint_out" >&2; echo "openapi-client: redocly lint failed" >&2; exit 1
}
if printf '%s\n' "$lint_out" | grep -Eq '^[[:space:]]+[0-9]+:[0-9]+[[:space:]]+warning'; then
	printf '%s\n' "$lint_out" >&2; echo "openapi-client: redocly lint warns" >&2; exit 1
fi
printf '%s\n' "$lint_out" | grep -E 'valid|ignored' || true

# TypeScript.
mkdir "$work/ts"
cp internal/httpapi/testdata/tsclient/{package.json,package-lock.json,tsconfig.json,client.ts} "$work/ts"
(
	cd "$work/ts"
	npm ci --no-audit --no-fund --loglevel=error >/dev/null
	npx --no-install openapi-typescript "$doc" -o schema.d.ts
	npx --no-install tsc -p .
)

# Go: outside the normalizer's module (GOFLAGS cleared: the caller's -pgo or -mod do not
# apply), with the versions of its own go.sum.
mkdir "$work/go"
cp internal/httpapi/testdata/goclient/{go.mod,go.sum,oapi-codegen.yaml,main.go} "$work/go"
(
	cd "$work/go"
	export GOFLAGS= GOWORK=off
	go tool oapi-codegen -config oapi-codegen.yaml "$doc"
	go vet ./...
	go build -o goclientcheck .
	echo "oapi-codegen: $(grep -c '^type ' nclient/client.gen.go) types, $(grep -c '^func (c \*ClientWithResponses)' nclient/client.gen.go) operations"
)

go build -o "$work/normalizer" ./cmd/normalizer
"$work/normalizer" serve --addr 127.0.0.1:0 2>"$work/serve.log" &
server=$!
addr=""
for _ in $(seq 100); do
	addr=$(grep -o '"addr":"[^"]*"' "$work/serve.log" | head -n 1 | cut -d'"' -f4 || true)
	[ -n "$addr" ] && break
	kill -0 "$server" 2>/dev/null || { cat "$work/serve.log" >&2; echo "openapi-client: serve exited" >&2; exit 1; }
	sleep 0.1
done
[ -n "$addr" ] || { cat "$work/serve.log" >&2; echo "openapi-client: serve did not say where it listens" >&2; exit 1; }
node "$work/ts/out/client.js" "http://$addr"
"$work/go/goclientcheck" "http://$addr"

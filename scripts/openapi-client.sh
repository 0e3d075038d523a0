#!/usr/bin/env bash
# OpenAPI client check: generates a TypeScript client from internal/httpapi/openapi.json with
# openapi-typescript (a client generator that takes OpenAPI 3.1), type-checks a client of every
# operation against it (tsc, strict), and runs that client against the real `normalizer serve`
# on 127.0.0.1. A document that a generator rejects, or that does not describe what the service
# answers, fails here. The npm packages are pinned by internal/httpapi/testdata/tsclient's
# package-lock.json and installed in a temporary directory; Node.js and npm come from the
# machine (Debian's nodejs and npm packages, installed if missing and running as root).
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

cp internal/httpapi/testdata/tsclient/{package.json,package-lock.json,tsconfig.json,client.ts} "$work"
(
	cd "$work"
	npm ci --no-audit --no-fund --loglevel=error >/dev/null
	npx --no-install openapi-typescript "$root/internal/httpapi/openapi.json" -o schema.d.ts
	npx --no-install tsc -p .
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
node "$work/out/client.js" "http://$addr"

#!/usr/bin/env bash
# Regenerates cmd/normalizer/default.pgo: the CPU profile that Go's profile-guided optimization
# builds the normalizer binary with (go build, go install and the Dockerfile pick it up by
# themselves, -pgo=auto). It profiles the service under load on loopback, as the load benchmark
# drives it: DURATION seconds (default 10) of ~2 KB results, then as long of ~60 KB ones, through
# internal/tools/loadbench/profile (the service's handler with serve's settings). Refresh it
# after changes to the hot path; a stale profile costs some of the gain, never correctness.
#
# Usage: scripts/pgo-profile.sh   (env: DURATION=10; wrk is installed if missing, as for scripts/loadbench.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10}
PORT=${PORT:-18096}
. scripts/load-tools.sh
need_load_tools pgo-profile

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/profile" ./internal/tools/loadbench/profile
go run ./internal/tools/loadbench/bodies "$work"

taskset -c 0 "$work/profile" -mode serve -addr "127.0.0.1:$PORT" -warm 1s -d "$((2 * DURATION))s" -cpuprofile "$work/default.pgo" &
pid=$!
sleep 0.5
for body in small medium; do
	BODY="$work/$body.json" taskset -c 1 wrk -t1 -c32 -d"${DURATION}s" -s internal/tools/loadbench/post.lua "http://127.0.0.1:$PORT/v1/normalize" >/dev/null
done
wait "$pid"
cp "$work/default.pgo" cmd/normalizer/default.pgo
echo "pgo-profile: wrote cmd/normalizer/default.pgo ($(wc -c <cmd/normalizer/default.pgo) bytes)"

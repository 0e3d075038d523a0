#!/usr/bin/env bash
# Soak test: builds normalizer and drives a real `normalizer serve` on 127.0.0.1 (a free port)
# for a set time with a realistic mix (valid, dirty, huge, malformed, gzip, explain), checking
# every answer byte for byte against single-mode normalization, sampling the server's RSS and
# goroutines; prints a summary and exits non-zero on any mismatch, 5xx or leak. Stops by itself.
#
# Usage: scripts/soak.sh [DURATION]     default 2m (or $SOAK_DURATION); e.g. scripts/soak.sh 10s
#        SOAK_WORKERS=8 concurrent clients
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS=${GOFLAGS:--buildvcs=false}
duration=${1:-${SOAK_DURATION:-2m}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/normalizer" ./cmd/normalizer
go build -o "$tmp/soak" ./internal/tools/soak
"$tmp/soak" -normalizer "$tmp/normalizer" -duration "$duration" -workers "${SOAK_WORKERS:-8}"

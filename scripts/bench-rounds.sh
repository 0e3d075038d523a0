#!/usr/bin/env bash
# bench-rounds.sh: runs a package's benchmarks in interleaved rounds, for paired ratios.
#
#   scripts/bench-rounds.sh PACKAGE BENCH [ROUNDS] > out.txt
#
# `go test -count N` runs each benchmark N times in a row, so the first of two compared
# benchmarks runs while the machine is in one state and the second in another: on a shared
# machine whose speed drifts by half within minutes, that is no pairing. This builds the
# package's test binary once and runs it ROUNDS times (default 6) with -test.count 1, so that
# every benchmark the pattern BENCH matches runs once per round, in order, and round k of one
# is beside round k of the other. The output is go test's, the rounds one after the other:
# scripts/core-pairs.sh and scripts/batch-pairs.sh read it, benchstat too.
set -euo pipefail
if [ $# -lt 2 ]; then
	echo "usage: $0 PACKAGE BENCH [ROUNDS]" >&2
	exit 2
fi
pkg=$1 bench=$2 rounds=${3:-6}
bin=$(mktemp -d)/bench.test
trap 'rm -rf "$(dirname "$bin")"' EXIT
go test -c -o "$bin" "$pkg"
dir=$(go list -f '{{.Dir}}' "$pkg")
for ((r = 1; r <= rounds; r++)); do
	(cd "$dir" && "$bin" -test.run '^$' -test.bench "$bench" -test.benchmem -test.count 1)
done

#!/usr/bin/env bash
# batch-memory.sh: resident memory of `normalizer normalize --jsonl` on a long stream of
# generated lines (internal/jsonlgen, ~2% malformed), read through a pipe, at -j 1 and -j 2.
# The command's VmRSS is sampled from /proc every second while it runs, and its VmHWM (peak)
# read just before it exits; flat memory means the samples stop growing after the first
# seconds and the peak does not grow with SIZE_GB.
#
#   scripts/batch-memory.sh               # 10 GB (10^10 bytes) through each
#   SIZE_GB=1 scripts/batch-memory.sh
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE_GB=${SIZE_GB:-10}
BIN=${BIN:-/tmp/normalizer-bench-bin}
GEN=${GEN:-/tmp/normalizer-genjsonl}
scripts/build-static.sh "$BIN" >&2 # the binary as shipped
go build -o "$GEN" ./internal/tools/genjsonl
echo "commit $(git rev-parse --short HEAD); $(nproc) cores; $(go version); ${SIZE_GB} GB of lines per run"

for j in 1 2; do
	fifo=$(mktemp -u)
	mkfifo "$fifo"
	"$GEN" -size $((SIZE_GB * 1000)) -seed 3 -malformed -o /dev/stdout 2>/dev/null >"$fifo" &
	gen=$!
	"$BIN" normalize --jsonl -j "$j" <"$fifo" >/dev/null 2>/tmp/batch-memory-$j.err &
	pid=$!
	samples=() hwm=0 secs=0
	while kill -0 "$pid" 2>/dev/null; do
		if st=$(cat /proc/$pid/status 2>/dev/null); then
			rss=$(awk '/^VmRSS/ {print $2}' <<<"$st")
			hwm=$(awk '/^VmHWM/ {print $2}' <<<"$st")
			[[ -n $rss ]] && ((secs % 10 == 0)) && samples+=("${secs}s:$((rss / 1024))")
		fi
		sleep 1
		secs=$((secs + 1))
	done
	wait "$pid" "$gen"
	rm -f "$fifo"
	echo
	echo "-j $j: peak RSS (VmHWM, last sample) $((hwm / 1024)) MiB; VmRSS MiB every 10 s: ${samples[*]}"
	head -2 /tmp/batch-memory-$j.err
done

#!/usr/bin/env bash
# bench-batch.sh: CPU, system time and wall-clock of `normalizer normalize --jsonl` at -j 1 and
# -j 2, from getrusage of each run (/usr/bin/time), on two files: internal/corpus's results of
# every size (corpus.Lines, the mix BenchmarkBatch's input=corpus is) and the generated mix of
# scripts/bench-jsonl.sh. The in-process and encoding/json figures for the same lines come from
# BenchmarkBatch (go test ./internal/batch -bench Batch); this script gives what a benchmark
# cannot: the command's own system time and its start-up, and a file read through the page cache.
#
#   scripts/bench-batch.sh                      # 150 MB files in /tmp, 8 runs of each
#   RUNS=4 SIZE_MB=300 scripts/bench-batch.sh
#   STDIN=1 scripts/bench-batch.sh              # read through a pipe (cat FILE |), not mapped;
#                                               # CPU and faults are the normalizer's, not cat's
#   BUILD=0 BIN=/tmp/old scripts/bench-batch.sh # an earlier build, for a before/after
#
# Each line: the median of RUNS runs of wall-clock, user and system seconds, MB/s of wall-clock
# and of CPU, system time as a share of CPU, and minor page faults (memory the process touches
# for the first time, the main cost of its system time); runs alternate -j 1 and -j 2 so that a
# change in the machine's load falls on both. The load average is printed: wall-clock needs
# idle cores.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-150}
RUNS=${RUNS:-8}
BIN=${BIN:-/tmp/normalizer-bench-bin}
TIME=/usr/bin/time
[[ -x $TIME ]] || { echo "bench-batch.sh: needs GNU time at $TIME (apt-get install time)" >&2; exit 1; }

[[ ${BUILD:-1} == 0 ]] || go build -o "$BIN" ./cmd/normalizer
files=(/tmp/normalizer-corpus-${SIZE_MB}MB.jsonl /tmp/normalizer-bench-${SIZE_MB}MB-seed1.jsonl)
[[ -s ${files[0]} ]] || go run ./internal/tools/genjsonl -size "$SIZE_MB" -corpus -o "${files[0]}"
[[ -s ${files[1]} ]] || go run ./internal/tools/genjsonl -size "$SIZE_MB" -seed 1 -o "${files[1]}"
echo "commit $(git rev-parse --short HEAD); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(go version)"

tf=$(mktemp)
trap 'rm -f "$tf" "$tf.own"' EXIT
run() { # run FILE J: prints "wall user sys faults"
	if [[ -n ${STDIN:-} ]]; then
		# wall-clock of the pipeline, CPU and faults of the normalizer alone
		$TIME -o "$tf" -f "%e" bash -c "cat '$1' | $TIME -o '$tf.own' -f '%U %S %R' '$BIN' normalize --jsonl -j $2" >/dev/null 2>&1
		echo "$(tail -1 "$tf") $(tail -1 "$tf.own")"
	else
		$TIME -o "$tf" -f "%e %U %S %R" "$BIN" normalize --jsonl -j "$2" "$1" >/dev/null 2>&1
		tail -1 "$tf"
	fi
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

for f in "${files[@]}"; do
	bytes=$(stat -c %s "$f")
	declare -A out=()
	for _ in $(seq "$RUNS"); do
		for j in 1 2; do out[$j]+="$(run "$f" $j)"$'\n'; done
	done
	echo
	echo "$(basename "$f"): $bytes bytes; load average $(cut -d' ' -f1-3 /proc/loadavg)"
	for j in 1 2; do
		w=$(awk 'NF {print $1}' <<<"${out[$j]}" | median)
		u=$(awk 'NF {print $2}' <<<"${out[$j]}" | median)
		s=$(awk 'NF {print $3}' <<<"${out[$j]}" | median)
		pf=$(awk 'NF {print $4}' <<<"${out[$j]}" | median)
		awk -v j="$j" -v w="$w" -v u="$u" -v s="$s" -v pf="$pf" -v b="$bytes" 'BEGIN {
			printf "  -j %d  wall %6.3f s  user %6.3f s  sys %6.3f s  %7.1f MB/s  %7.1f MB per CPU-s  sys %4.1f%% of CPU  %6d faults\n",
				j, w, u, s, b/1e6/w, b/1e6/(u+s), 100*s/(u+s), pf }'
	done
	unset out
done

#!/usr/bin/env bash
# bench-jsonl.sh: throughput of `normalizer normalize --jsonl` on a generated file of
# raw handler results, against `jq -c .` over the same file as a familiar one-pass reference.
#
#   scripts/bench-jsonl.sh            # 256 MB file in /tmp, 5 runs each
#   SIZE_MB=512 RUNS=3 scripts/bench-jsonl.sh
#
# The file holds only lines jq accepts (jq stops at the first malformed line): results with
# messages, tool calls and metadata, a fifth of them dirty (soft warnings), ~2% rejected by
# shape, a few blank lines, a few over the 50,000-character cap. It is generated once by
# internal/tools/genjsonl and kept in /tmp, never in the repository.
# Uses hyperfine (installed with apt-get when missing and possible), else /usr/bin/time
# (or set NO_HYPERFINE=1).
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-256}
RUNS=${RUNS:-5}
SEED=${SEED:-1}
FILE=${FILE:-/tmp/normalizer-bench-${SIZE_MB}MB-seed${SEED}.jsonl}
BIN=${BIN:-/tmp/normalizer-bench-bin}
JQ=${JQ:-/usr/bin/jq}
CORES=$(nproc)

scripts/build-static.sh "$BIN" >&2 # the binary as shipped
if [[ ! -s "$FILE" ]]; then
	go run ./internal/tools/genjsonl -size "$SIZE_MB" -seed "$SEED" -o "$FILE"
fi
BYTES=$(stat -c %s "$FILE")
LINES=$(wc -l <"$FILE")
echo "file: $FILE, $BYTES bytes, $LINES lines; $CORES cores; $("$JQ" --version); $(go version)"

if ! command -v hyperfine >/dev/null && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
	apt-get install -y hyperfine >/dev/null 2>&1 || true
fi

names=("jq -c ." "normalizer --jsonl -j 1" "normalizer --jsonl -j $CORES")
cmds=(
	"$JQ -c . $FILE >/dev/null"
	"$BIN normalize --jsonl -j 1 $FILE >/dev/null 2>&1"
	"$BIN normalize --jsonl -j $CORES $FILE >/dev/null 2>&1"
)

declare -a secs cpu
if [[ -z ${NO_HYPERFINE:-} ]] && command -v hyperfine >/dev/null; then
	json=$(mktemp)
	hyperfine --warmup 1 --runs "$RUNS" --export-json "$json" \
		-n "${names[0]}" "${cmds[0]}" -n "${names[1]}" "${cmds[1]}" -n "${names[2]}" "${cmds[2]}" >&2
	for i in 0 1 2; do
		secs[i]=$("$JQ" -r ".results[$i].median" "$json")
		cpu[i]=$("$JQ" -r ".results[$i] | .user + .system" "$json")
	done
	rm -f "$json"
	how="hyperfine: median wall-clock, mean CPU, of $RUNS runs"
else
	for i in 0 1 2; do
		best=
		for _ in $(seq "$RUNS"); do
			read -r t c < <( { /usr/bin/time -f "%e %U %S" bash -c "${cmds[i]}" >/dev/null; } 2>&1 | tail -1 | awk '{print $1, $2 + $3}')
			if [[ -z $best ]] || awk "BEGIN{exit !($t < $best)}"; then best=$t bestcpu=$c; fi
		done
		secs[i]=$best cpu[i]=$bestcpu
	done
	how="/usr/bin/time, best of $RUNS runs"
fi

echo
echo "throughput ($how; MB = 10^6 bytes; CPU = user+system seconds):"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $CORES cores (wall-clock figures need idle cores)"
for i in 0 1 2; do
	awk -v n="${names[i]}" -v s="${secs[i]}" -v c="${cpu[i]}" -v b="$BYTES" -v l="$LINES" -v jq="${secs[0]}" -v jqc="${cpu[0]}" \
		'BEGIN { printf "  %-28s %7.2f s %7.1f MB/s %9.0f lines/s %6.2fx jq | CPU %6.2f s %7.1f MB per CPU-s %6.2fx jq\n", n, s, b/1e6/s, l/s, jq/s, c, b/1e6/c, jqc/c }'
done

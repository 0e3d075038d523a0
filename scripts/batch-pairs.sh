#!/usr/bin/env bash
# batch-pairs.sh: paired ratios from BenchmarkBatch output in rounds (scripts/bench-rounds.sh,
# which runs every impl once per round, in order; `go test -count N` would run each impl N
# times in a row instead, which pairs nothing). Each round's in-process figure is divided by
# each impl's of the same round, so that a change in the machine's load between rounds falls
# on both; the median of the N rounds' ratios is printed, with their range, for wall-clock
# (ns/op) and CPU (cpu-ns/op), and -j 2 against -j 1 in wall-clock.
#
#   scripts/bench-rounds.sh ./internal/batch Batch 6 > batch.txt
#   scripts/batch-pairs.sh batch.txt
set -euo pipefail
awk -f "$(dirname "$0")/rounds.awk" -f /dev/stdin "$@" <<'EOF'
function ratios(in_, num, den, field, out,    k, n) {
	n = 0
	for (k = 1; k <= cnt[in_ SUBSEP num] && k <= cnt[in_ SUBSEP den]; k++)
		out[++n] = v[in_ SUBSEP num SUBSEP k SUBSEP field] / v[in_ SUBSEP den SUBSEP k SUBSEP field]
	return n
}
/^BenchmarkBatch\// {
	split($1, p, "/"); sub("input=", "", p[2]); impl = p[3]; sub("impl=", "", impl); sub(/-[0-9]+$/, "", impl)
	key = p[2] SUBSEP impl
	k = ++cnt[key]
	if (!(p[2] in seen)) { seen[p[2]] = 1; inputs[++ni] = p[2] }
	if (!((key) in iseen)) { iseen[key] = 1; impls[p[2], ++nimpl[p[2]]] = impl }
	for (f = 3; f < NF; f++) if ($(f+1) == "ns/op" || $(f+1) == "cpu-ns/op") v[key SUBSEP k SUBSEP $(f+1)] = $f
}
END {
	for (i = 1; i <= ni; i++) {
		in_ = inputs[i]
		printf "input=%s: in-process over each impl, median of the rounds (range)\n", in_
		for (j = 1; j <= nimpl[in_]; j++) {
			impl = impls[in_, j]
			if (impl == "inprocess") continue
			n = ratios(in_, "inprocess", impl, "ns/op", w); m = ratios(in_, "inprocess", impl, "cpu-ns/op", c)
			printf "  %-10s wall %.2f (%.2f-%.2f)  CPU %.2f (%.2f-%.2f)  %d rounds\n", impl,
				median(w, n), lo(w, n), hi(w, n), median(c, m), lo(c, m), hi(c, m), n
		}
		for (j = 1; j <= 3; j++) {
			one = (j == 1 ? "stream-j1" : j == 2 ? "bytes-j1" : "inprocess"); two = (j == 1 ? "stream-j2" : j == 2 ? "bytes-j2" : "inprocess-j2")
			n = ratios(in_, one, two, "ns/op", w)
			if (n) printf "  %s over %s, wall: %.2f (%.2f-%.2f)\n", one, two, median(w, n), lo(w, n), hi(w, n)
		}
		for (j = 1; j <= 2; j++) {
			impl = (j == 1 ? "stream-j1" : "bytes-j1")
			n = ratios(in_, "baseline", impl, "ns/op", w); m = ratios(in_, "baseline", impl, "cpu-ns/op", c)
			if (n) printf "  baseline over %s: wall %.1fx (%.1f-%.1f)  CPU %.1fx (%.1f-%.1f)\n", impl,
				median(w, n), lo(w, n), hi(w, n), median(c, m), lo(c, m), hi(c, m)
		}
	}
}
EOF

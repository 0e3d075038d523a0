#!/usr/bin/env bash
# core-pairs.sh: paired ratios from BenchmarkNormalize output in rounds (bench-rounds.sh). For
# each input, every other impl's cpu-ns/op (fastjson, sonic, baseline) over the normalizer's
# in the same round: above 1 the normalizer is the faster. The median of the rounds' ratios
# is printed with their range, and the normalizer's median cpu-ns/op and allocs/op.
#
#   scripts/bench-rounds.sh ./pkg/normalize 'Normalize/' 6 > core.txt
#   scripts/core-pairs.sh core.txt
set -euo pipefail
awk -f "$(dirname "$0")/rounds.awk" -f /dev/stdin "$@" <<'EOF'
/^BenchmarkNormalize\/input=/ {
	split($1, p, "/"); in_ = p[2]; sub("input=", "", in_); impl = p[3]; sub("impl=", "", impl); sub(/-[0-9]+$/, "", impl)
	key = in_ SUBSEP impl
	k = ++cnt[key]
	if (!(in_ in seen)) { seen[in_] = 1; inputs[++ni] = in_ }
	if (!(key in iseen)) { iseen[key] = 1; impls[in_, ++nimpl[in_]] = impl }
	for (f = 3; f < NF; f++) {
		if ($(f+1) == "cpu-ns/op") v[key SUBSEP k] = $f
		if ($(f+1) == "allocs/op") al[key] = $f
	}
}
END {
	for (i = 1; i <= ni; i++) {
		in_ = inputs[i]; nk = in_ SUBSEP "normalizer"
		if (!cnt[nk]) continue
		n = 0; for (k = 1; k <= cnt[nk]; k++) c[++n] = v[nk SUBSEP k]
		printf "input=%s: normalizer %.0f cpu-ns/op, %s allocs/op, %d rounds\n", in_, median(c, n), al[nk], n
		for (j = 1; j <= nimpl[in_]; j++) {
			impl = impls[in_, j]; ik = in_ SUBSEP impl
			if (impl == "normalizer") continue
			n = 0
			for (k = 1; k <= cnt[nk] && k <= cnt[ik]; k++) r[++n] = v[ik SUBSEP k] / v[nk SUBSEP k]
			if (n) printf "  %-9s over normalizer: %.2f (%.2f-%.2f)\n", impl, median(r, n), lo(r, n), hi(r, n)
		}
	}
}
EOF

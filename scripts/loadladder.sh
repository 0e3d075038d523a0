#!/usr/bin/env bash
# Load ladder: where a request's CPU goes between the echo-back floor and `normalizer serve`.
# It serves, one after the other on CPU 0 under wrk on CPU 1 (as scripts/loadbench.sh does),
# the servers of internal/tools/loadbench/profile:
#   floor     net/http reading the body and writing it back (the load benchmark's floor)
#   spin:D    the floor plus D of busy CPU per request: whether a slower server pays more than
#             its own extra work under this load (its clients wait, and waking them costs)
#   bare      the floor's handler running the core (Normalize, AppendJSON): no echo, access
#             log, metrics, request id or limits; the best any server around this core can do
#   serve     normalizer serve's configuration (echo, access log, metrics, limits)
# A mode may be given more than once with a label, MODE#N (such as floor#2): a second floor
# later in each round is the control, the ratio of two identical servers, which shows how far
# the machine drifts within a round.
# ROUNDS rounds (default 7) go through the modes in turn, each 1 s of warm-up and 3 s measured,
# so that they share the machine's drifts; it prints each round's server CPU per request
# (getrusage) and, per mode, the median and the median of its paired ratios against the floor
# of the same round: floor CPU over the mode's, which is the req/s ratio while the server is
# CPU-bound, and moves much less on a shared machine. With six rounds or more it also gives a
# 95% confidence interval for that median (from order statistics: no assumption about the
# distribution of the ratios).
#
# Usage: scripts/loadladder.sh [MODE...]   (env: BODIES="small medium" ROUNDS=7 CONNECTIONS=32)
#        scripts/loadladder.sh floor bare serve floor#2   (the last: a control, ideally 1.00)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-7}
CONNECTIONS=${CONNECTIONS:-32}
BODIES=${BODIES:-small medium}
PORT=${PORT:-18095}
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(floor spin:2us spin:4us bare serve)
[ "${modes[0]}" = floor ] || { echo "loadladder: the first mode must be floor (ratios are against it)" >&2; exit 2; }
declare -A given=()
for m in "${modes[@]}"; do
	# runs are kept by mode: a repeat without its own label would overwrite the first
	[ -z "${given[$m]:-}" ] || { echo "loadladder: mode \"$m\" is given twice; give a repeat a label, such as $m#2" >&2; exit 2; }
	given[$m]=1
	[[ $m =~ ^(floor|bare|serve|spin:[0-9.]+(ns|us|µs|ms))(#[0-9]+)?$ ]] || { echo "loadladder: mode \"$m\": expected floor, spin:DURATION (such as spin:2us), bare or serve, optionally with a label #N" >&2; exit 2; }
done

. scripts/load-tools.sh
need_load_tools loadladder

work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/profile" ./internal/tools/loadbench/profile
go run ./internal/tools/loadbench/bodies "$work"

# one MODE BODY -> "cpu_us_per_request req_per_s"
one() {
	local spec=${1%%#*} args=()
	local mode=${spec%%:*}
	[[ $spec == spin:* ]] && args=(-spin "${spec#spin:}")
	taskset -c 0 "$work/profile" -addr "127.0.0.1:$PORT" -mode "$mode" "${args[@]}" -warm 1s -d 3s 2>"$work/report" &
	local pid=$!
	for _ in $(seq 50); do curl -fs -o /dev/null -X POST --data-binary @"$2" "http://127.0.0.1:$PORT/v1/normalize" && break; sleep 0.02; done
	BODY=$2 taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d5s -s internal/tools/loadbench/post.lua "http://127.0.0.1:$PORT/v1/normalize" >/dev/null
	wait "$pid"
	sed -n 's/.* \([0-9]*\) req\/s; CPU per request \([0-9.]*\) µs.*/\2 \1/p' "$work/report" | grep . || { cat "$work/report" >&2; exit 1; }
}

for body in $BODIES; do
	echo "== $body ($(wc -c <"$work/$body.json") bytes): server CPU µs per request, per round"
	for r in $(seq "$ROUNDS"); do
		line="round $r:"
		for m in "${modes[@]}"; do
			one "$m" "$work/$body.json" >"$work/one" # not in a subshell: a failure stops the script
			read -r cpu rps <"$work/one"
			line+=" $m $cpu"
			echo "$r $m $cpu $rps" >>"$work/$body.runs"
		done
		echo "$line"
	done
	awk -v order="${modes[*]}" "$AWK_MEDIAN"'
		{ cpu[$2, $1] = $3; rounds[$1] = 1 }
		END {
			n = split(order, ms, " ")
			for (k = 1; k <= n; k++) {
				m = ms[k]; c = 0
				for (r in rounds) { c++; v[c] = cpu[m, r]; q[c] = cpu["floor", r] / cpu[m, r] }
				printf "  %-10s median %6.2f µs per request; paired ratio to the floor %.2f", m, median(v, c), median(q, c)
				if (m != "floor" && (k2 = ci_rank(c)) > 0) printf " (95%% CI %.2f-%.2f)", q[k2], q[c + 1 - k2]
				printf "\n"
			}
		}' "$work/$body.runs"
done

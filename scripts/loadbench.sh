#!/usr/bin/env bash
# Load benchmark: `normalizer serve` against a plain net/http server that echoes the body back
# (the floor for any service answering with a record about the size of its input), with ~2 KB
# and ~60 KB realistic results. Loopback only, bounded in time: ROUNDS (default 5) rounds per
# body size, each a 1 s warm-up and DURATION (default 3s) of floor, then the same of normalizer,
# so that both see the same noise on a shared machine; the median round of each is reported,
# and the median of the rounds' own ratios (each round's normalizer against the floor measured
# just before it), which the machine's drifts between rounds disturb least; with ROUNDS=6 or more,
# with its 95% confidence interval.
# The servers are pinned to CPU 0 and wrk to CPU 1. Besides requests per second, each round
# records the server's CPU time per request (from /proc/PID/stat around the measured run): on a
# shared machine it moves much less than req/s, and the floor's CPU per request over the
# normalizer's is the same ratio when the server is CPU-bound, as it is here. Before each round
# it also times the core alone (Normalize of the 60 KB body, on CPU 0): that tells a slow phase
# of the machine from a slow server.
#
# Usage: scripts/loadbench.sh   (env: DURATION=3s ROUNDS=5 CONNECTIONS=32 SERVE_ARGS="--log-level warn")
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-3s}
ROUNDS=${ROUNDS:-5}
CONNECTIONS=${CONNECTIONS:-32}
PORT_FLOOR=${PORT_FLOOR:-18090}
PORT_SERVE=${PORT_SERVE:-18091}

. scripts/load-tools.sh
need_load_tools loadbench

work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/floor" ./internal/tools/loadbench/floor
go test -c -o "$work/normalize.test" ./pkg/normalize
go run ./internal/tools/loadbench/bodies "$work"
scripts/build-static.sh "$work/normalizer" >/dev/null

taskset -c 0 "$work/floor" -addr "127.0.0.1:$PORT_FLOOR" & pids+=($!)
pid_floor=$!
# Logs at the default level (one JSON line per request), to /dev/null: the cost of writing them stays in.
taskset -c 0 "$work/normalizer" serve --addr "127.0.0.1:$PORT_SERVE" ${SERVE_ARGS:-} 2>/dev/null & pids+=($!)
pid_serve=$!
clk_tck=$(getconf CLK_TCK)

# cpu_ticks PID -> user + system CPU time of the process, in clock ticks
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

wait_up() { for _ in $(seq 100); do curl -fs -o /dev/null -X POST --data '"x"' "$1" && return 0; sleep 0.05; done; echo "loadbench: $1 is not up" >&2; exit 1; }
wait_up "http://127.0.0.1:$PORT_FLOOR/"
wait_up "http://127.0.0.1:$PORT_SERVE/v1/normalize"

# run URL BODY PID -> "req/s p50_ms p99_ms cpu_us_per_request"
run() {
	local url=$1 body=$2 pid=$3 t0 t1
	BODY=$body taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d1s -s internal/tools/loadbench/post.lua "$url" >/dev/null
	t0=$(cpu_ticks "$pid")
	BODY=$body taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency -s internal/tools/loadbench/post.lua "$url" >"$work/out"
	t1=$(cpu_ticks "$pid")
	grep -q "Non-2xx" "$work/out" && { echo "loadbench: non-2xx answers from $url" >&2; cat "$work/out" >&2; exit 1; }
	awk -v ticks=$((t1 - t0)) -v hz="$clk_tck" '
		function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
		/^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) } /^Requests\/sec:/ { rps = $2 }
		/ requests in / { n = $1 }
		END { printf "%.0f %.2f %.2f %.1f\n", rps, p50, p99, ticks / hz * 1e6 / n }' "$work/out"
}

# core_us -> the core's speed at this moment: µs of CPU per Normalize of the 60 KB body
# (BenchmarkNormalize medium, 2000 iterations on the servers' CPU while they are idle). The
# machine's slow phases show here first: the ratio on 60 KB follows it.
core_us() {
	taskset -c 0 "$work/normalize.test" -test.run '^$' -test.bench 'BenchmarkNormalize/^input=medium$/impl=normalizer$' \
		-test.benchtime 2000x | awk '/cpu-ns\/op/ { for (i = 1; i < NF; i++) if ($(i+1) == "cpu-ns/op") printf "%.1f\n", $i / 1000 }'
}

# median ROUND_FILE -> the line with the median req/s
median() { sort -n "$1" | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'; }
# paired FLOOR_FILE SERVE_FILE: each round's ratios (req/s, and CPU per request) and their medians
paired() {
	paste -d' ' "$1" "$2" | awk "$AWK_MEDIAN"'
		function interval(a, n,   k) { k = ci_rank(n); return k ? sprintf(", 95%% CI %.2f-%.2f", a[k], a[n + 1 - k]) : "" }
		{ r[NR] = $5 / $1; c[NR] = $4 / $8; rs = rs sprintf(" %.2f", r[NR]); cs = cs sprintf(" %.2f", c[NR]) }
		END {
			mr = median(r, NR); mc = median(c, NR) # median sorts: the intervals read the sorted values
			printf "  paired ratios, req/s:%s (median %.2f%s); CPU per request:%s (median %.2f%s)\n", rs, mr, interval(r, NR), cs, mc, interval(c, NR)
		}'
}
# median_cpu ROUND_FILE -> the median CPU µs per request
median_cpu() { cut -d' ' -f4 "$1" | sort -n | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'; }

printf "%-13s %-10s %10s %9s %9s %7s %11s %9s\n" body server "req/s" "p50 ms" "p99 ms" ratio "CPU µs/req" "CPU ratio"
for size in small medium; do
	body="$work/$size.json"
	: >"$work/floor.$size"; : >"$work/serve.$size"
	cores=()
	for _ in $(seq "$ROUNDS"); do
		cores+=("$(core_us)")
		run "http://127.0.0.1:$PORT_FLOOR/" "$body" "$pid_floor" >>"$work/floor.$size"
		run "http://127.0.0.1:$PORT_SERVE/v1/normalize" "$body" "$pid_serve" >>"$work/serve.$size"
	done
	read -r f_rps f_p50 f_p99 _ < <(median "$work/floor.$size")
	read -r s_rps s_p50 s_p99 _ < <(median "$work/serve.$size")
	f_cpu=$(median_cpu "$work/floor.$size")
	s_cpu=$(median_cpu "$work/serve.$size")
	label="$size($(( $(wc -c <"$body") / 1024 ))KB)"
	printf "%-13s %-10s %10s %9s %9s %7s %11s %9s\n" "$label" floor "$f_rps" "$f_p50" "$f_p99" "" "$f_cpu" ""
	printf "%-13s %-10s %10s %9s %9s %7s %11s %9s\n" "$label" normalizer "$s_rps" "$s_p50" "$s_p99" \
		"$(awk -v a="$s_rps" -v b="$f_rps" 'BEGIN{printf "%.2f", a/b}')" "$s_cpu" "$(awk -v a="$f_cpu" -v b="$s_cpu" 'BEGIN{printf "%.2f", a/b}')"
	echo "  rounds floor: $(cut -d' ' -f1 "$work/floor.$size" | paste -sd' ')  normalizer: $(cut -d' ' -f1 "$work/serve.$size" | paste -sd' ')"
	echo "  CPU µs/req floor: $(cut -d' ' -f4 "$work/floor.$size" | paste -sd' ')  normalizer: $(cut -d' ' -f4 "$work/serve.$size" | paste -sd' ')"
	paired "$work/floor.$size" "$work/serve.$size"
	echo "  core before each round, µs per Normalize of the 60 KB body: ${cores[*]}"
done
echo "(median of $ROUNDS rounds of wrk -t1 -c$CONNECTIONS -d$DURATION; servers on CPU 0, wrk on CPU 1; $(go env GOVERSION); $(nproc) CPUs)"

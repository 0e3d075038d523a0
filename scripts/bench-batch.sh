#!/usr/bin/env bash
# bench-batch.sh: CPU, system time and wall-clock of `normalizer normalize --jsonl` at -j 1 and
# -j 2, from getrusage of each run, on two files: internal/corpus's results of every size
# (corpus.Lines, the mix BenchmarkBatch's input=corpus is) and the generated mix of
# scripts/bench-jsonl.sh. The in-process and encoding/json figures for the same lines come from
# BenchmarkBatch (go test ./internal/batch -bench Batch); this script gives what a benchmark
# cannot: the command's own system time and its start-up, and a file read through the page cache.
#
#   scripts/bench-batch.sh                      # 150 MB files in /tmp, 8 runs of each
#   RUNS=4 SIZE_MB=600 scripts/bench-batch.sh
#   STDIN=1 scripts/bench-batch.sh              # read through a pipe (cat FILE |), not mapped;
#                                               # CPU and faults are the normalizer's, not cat's
#   BUILD=0 BIN=/tmp/old scripts/bench-batch.sh # an earlier build
#   OLD_BIN=/tmp/old scripts/bench-batch.sh     # before/after: each round runs both builds
#   PAUSE=3 scripts/bench-batch.sh              # sleep 3 s before each run, as a one-off run
#                                               # starts (below)
#   OUT=/dev/shm/out scripts/bench-batch.sh     # output into a new file, emptied after each run,
#                                               # not /dev/null: the kernel's copy counted
#
# How the page cache holds a file decides what mapping it costs (BenchmarkFileInput): a file
# read in from disk sits in large folios, mapped up to 2 MiB a page fault, one just written a
# few KiB at a time in 4 KiB pages, mapped 16 a fault. Each file is measured both ways:
# "read", evicted from the page cache (dd iflag=nocache) and read back in with cat, and
# "written", a copy written 4 KiB at a time (dd bs=4k). Through a pipe only "read" is run.
#
# Each line: the median of RUNS runs of wall-clock, user and system seconds, MB/s of wall-clock
# and of CPU, system time as a share of CPU, and minor page faults; runs alternate -j 1 and
# -j 2 so that a change in the machine's load falls on both, and "-j 2 over -j 1" is the
# median of the runs' paired ratios of wall-clock. User plus system is exact; the kernel splits
# it by the ticks it sampled (4 ms apart at HZ=250), so a run's system time is not, and the
# median of several is what is printed. The load average is printed: wall-clock needs idle
# cores. With OLD_BIN, each round runs both builds at -j 1, then at -j 2, the new one first in
# every other round, and "old over new" is the median of the rounds' paired ratios (above 1:
# the new one is faster). PAUSE matters on a virtual machine that reports free memory to its host
# (virtio-balloon free page reporting): a few seconds after a run exits, the host has taken back
# the memory it freed, and the next run's memory is new to the host too, which costs most in
# transparent huge pages (go run ./internal/tools/pagetouch). Needs python3 (for getrusage of
# each run, to the microsecond) and GNU dd.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-150}
RUNS=${RUNS:-8}
BIN=${BIN:-/tmp/normalizer-bench-bin}

if [[ -n ${OUT:-} && -e $OUT ]]; then
	echo "bench-batch.sh: OUT=$OUT exists; name a file to create (it is removed at the end)" >&2
	exit 2
fi
source scripts/bench-setup.sh
bench_setup bench-batch.sh
[[ ${PAUSE:-0} == 0 ]] || echo "a pause of ${PAUSE} s before each run"
[[ -z ${OUT:-} ]] || echo "output into $OUT, emptied after each run"

copy=$(mktemp /tmp/normalizer-bench-written.XXXXXX)
trap 'rm -f "$copy" ${OUT:+"$OUT"}' EXIT

# runs FILE: RUNS alternating runs of -j 1 and -j 2 on FILE, then a summary line for each.
runs() {
	python3 - "$1" "$BIN" "$RUNS" "${STDIN:-}" "${OLD_BIN:-}" "${PAUSE:-0}" "${OUT:-}" <<'PY'
import os, statistics as st, subprocess, sys, time
path, binary, runs, stdin, old, pause, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], float(sys.argv[6]), sys.argv[7]
size = os.path.getsize(path)
builds = [("", binary)] + ([("old ", old)] if old else [])
def run(binary, j):
    if pause:
        time.sleep(pause)
    cmd = [binary, "normalize", "--jsonl", "-j", str(j)]
    sink = open(out, "wb") if out else subprocess.DEVNULL
    t = time.perf_counter()
    if stdin:  # wall-clock of the pipeline, CPU and faults of the normalizer alone
        cat = subprocess.Popen(["cat", path], stdout=subprocess.PIPE)
        p = subprocess.Popen(cmd, stdin=cat.stdout, stdout=sink, stderr=subprocess.DEVNULL)
        cat.stdout.close()
        _, status, ru = os.wait4(p.pid, 0)
        cat.wait()
    else:
        p = subprocess.Popen(cmd + [path], stdout=sink, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if out:  # emptied now, so that the pause before the next run follows the pages' release
        sink.close()
        os.truncate(out, 0)
    if status != 0:
        sys.exit(f"bench-batch.sh: {' '.join(cmd)} exited with status {os.waitstatus_to_exitcode(status)}")
    return wall, ru.ru_utime, ru.ru_stime, ru.ru_minflt
res = {(name, j): [] for name, _ in builds for j in (1, 2)}
for r in range(runs):
    for j in (1, 2):
        for name, b in builds if r % 2 == 0 else builds[::-1]:
            res[name, j].append(run(b, j))
def paired(a, b, i):  # median and range of the rounds' ratios of a's figure i over b's
    r = sorted(x[i] / y[i] for x, y in zip(a, b))
    return f"{st.median(r):.3f} ({r[0]:.2f}-{r[-1]:.2f})"
for name, _ in builds:
    for j in (1, 2):
        rs = res[name, j]
        w, u, s, f = (st.median(r[i] for r in rs) for i in range(4))
        cpu = st.median(r[1] + r[2] for r in rs)
        print(f"  {name}-j {j}  wall {w:6.3f} s  user {u:6.3f} s  sys {s:6.3f} s  {size/1e6/w:7.1f} MB/s  "
              f"{size/1e6/cpu:7.1f} MB per CPU-s  sys {100*s/cpu:4.1f}% of CPU  {f:6.0f} faults")
    print(f"  {name}-j 2 over -j 1, wall: {paired(res[name, 1], res[name, 2], 0)}")
if old:
    cpu = lambda rs: [(r[0], r[1] + r[2]) for r in rs]
    for j in (1, 2):
        o, n = cpu(res["old ", j]), cpu(res["", j])
        print(f"  old over new at -j {j}: wall {paired(o, n, 0)}, CPU {paired(o, n, 1)}")
PY
}

for f in "${files[@]}"; do
	states=(read written)
	[[ -z ${STDIN:-} ]] || states=(read)
	for state in "${states[@]}"; do
		in=$f
		if [[ $state == written ]]; then
			dd if="$f" of="$copy" bs=4k status=none
			in=$copy
		else
			dd if="$f" iflag=nocache count=0 status=none # evict it, then read it back in
			cat "$f" >/dev/null
		fi
		echo
		echo "$(basename "$f"), $state: $(stat -c %s "$in") bytes; load average $(cut -d' ' -f1-3 /proc/loadavg)"
		runs "$in"
	done
done

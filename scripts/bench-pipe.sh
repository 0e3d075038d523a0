#!/usr/bin/env bash
# bench-pipe.sh: `normalizer normalize --jsonl` with its records read through a pipe, as a
# consumer reads them: by cat (into /dev/null), and by Python the way the platform reads a
# child's output (subprocess.run with capture_output). bench-batch.sh writes to /dev/null,
# which costs nothing; here the kernel's copy into the pipe, and the consumer's wakeups,
# count. Medians of RUNS rounds (default 16) of wall-clock, the normalizer's CPU and the
# consumer's, on the 150 MB files of bench-batch.sh, at -j 1 and -j 2.
#
#   scripts/bench-pipe.sh
#   OLD_BIN=/tmp/old scripts/bench-pipe.sh   # before/after: both builds in each round, paired
#   BUILD=0 BIN=/tmp/new scripts/bench-pipe.sh
#
# With OLD_BIN, each round runs the old build and the new one (in turn first) and "old over
# new" is the median of the rounds' paired ratios (above 1: the new one is faster). Needs
# python3.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-150}
RUNS=${RUNS:-16}
BIN=${BIN:-/tmp/normalizer-bench-bin}

source scripts/bench-setup.sh
bench_setup bench-pipe.sh

for f in "${files[@]}"; do
	cat "$f" >/dev/null # in the page cache
	echo
	echo "$(basename "$f"): $(stat -c %s "$f") bytes; load average $(cut -d' ' -f1-3 /proc/loadavg)"
	python3 - "$f" "$BIN" "$RUNS" "${OLD_BIN:-}" <<'PY'
import os, resource, statistics as st, subprocess, sys, time
path, new, runs, old = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
builds = [("", new)] + ([("old ", old)] if old else [])

def cat(binary, j):  # wall, normalizer CPU, its system time, cat's CPU
    t = time.perf_counter()
    p = subprocess.Popen([binary, "normalize", "--jsonl", "-j", str(j), path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    c = subprocess.Popen(["cat"], stdin=p.stdout, stdout=subprocess.DEVNULL)
    p.stdout.close()
    _, status, ru = os.wait4(p.pid, 0)
    _, _, cru = os.wait4(c.pid, 0)
    wall = time.perf_counter() - t
    if status != 0:
        sys.exit(f"bench-pipe.sh: {binary} exited with status {os.waitstatus_to_exitcode(status)}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_stime, cru.ru_utime + cru.ru_stime

def python(binary, j):  # wall, normalizer CPU, its system time, this Python's CPU
    cpu = lambda who: (lambda r: (r.ru_utime + r.ru_stime, r.ru_stime))(resource.getrusage(who))
    c0, s0 = cpu(resource.RUSAGE_CHILDREN), cpu(resource.RUSAGE_SELF)
    t = time.perf_counter()
    p = subprocess.run([binary, "normalize", "--jsonl", "-j", str(j), path], capture_output=True)
    wall = time.perf_counter() - t
    c1, s1 = cpu(resource.RUSAGE_CHILDREN), cpu(resource.RUSAGE_SELF)
    if p.returncode != 0:
        sys.exit(f"bench-pipe.sh: {binary} exited with status {p.returncode}")
    if not p.stdout:
        sys.exit(f"bench-pipe.sh: {binary} wrote nothing")
    return wall, c1[0] - c0[0], c1[1] - c0[1], s1[0] - s0[0]

def paired(a, b, i):
    r = sorted(x[i] / y[i] for x, y in zip(a, b))
    return f"{st.median(r):.3f} ({r[0]:.2f}-{r[-1]:.2f})"

for consumer, run in (("cat", cat), ("Python", python)):
    print(f"  read by {consumer}")
    res = {}
    for r in range(runs):
        for j in (1, 2):
            for name, b in builds if r % 2 == 0 else builds[::-1]:
                res.setdefault((name, j), []).append(run(b, j))
    for j in (1, 2):
        for name, _ in builds:
            rs = res[name, j]
            w, cpu, sys_, other = (st.median(x[i] for x in rs) for i in range(4))
            print(f"    {name}-j {j}  wall {w*1e3:6.1f} ms  normalizer CPU {cpu*1e3:6.1f} ms (sys {sys_*1e3:5.1f})  {consumer}'s CPU {other*1e3:6.1f} ms")
        if old:
            o, n = res["old ", j], res["", j]
            print(f"    old over new at -j {j}: wall {paired(o, n, 0)}, normalizer CPU {paired(o, n, 1)}, {consumer}'s CPU {paired(o, n, 3)}")
PY
done

# bench-setup.sh, sourced by bench-batch.sh and bench-pipe.sh: what both do before measuring.
# With SIZE_MB, BIN, OLD_BIN and BUILD set, bench_setup NAME refuses an OLD_BIN that is BIN,
# builds BIN as the Dockerfile does (unless BUILD=0), makes the two files of SIZE_MB MB the
# runs read when they are missing (the corpus mix and the generated mix) into the array
# files, and prints the header: commit, cores, CPU, Go's and Python's versions, the old build.
bench_setup() {
	local name=$1
	if [[ -n ${OLD_BIN:-} && $OLD_BIN -ef $BIN ]]; then
		echo "$name: OLD_BIN is BIN, which the build replaces; copy the old build elsewhere" >&2
		exit 2
	fi
	[[ ${BUILD:-1} == 0 ]] || scripts/build-static.sh "$BIN" >&2 # the binary as shipped
	files=(/tmp/normalizer-corpus-${SIZE_MB}MB.jsonl /tmp/normalizer-bench-${SIZE_MB}MB-seed1.jsonl)
	[[ -s ${files[0]} ]] || go run ./internal/tools/genjsonl -size "$SIZE_MB" -corpus -o "${files[0]}"
	[[ -s ${files[1]} ]] || go run ./internal/tools/genjsonl -size "$SIZE_MB" -seed 1 -o "${files[1]}"
	echo "commit $(git rev-parse --short HEAD); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(go version); $(python3 --version)"
	[[ -z ${OLD_BIN:-} ]] || echo "old build: $OLD_BIN"
}

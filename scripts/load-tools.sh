# Sourced by the load scripts: need_load_tools makes sure wrk (Debian's package, installed if
# missing) and taskset are there ($1 names the script in messages); AWK_MEDIAN holds the awk
# functions both scripts summarise rounds with.
need_load_tools() {
	if ! command -v wrk >/dev/null; then
		echo "$1: installing wrk" >&2
		if [ "$(id -u)" -eq 0 ]; then apt-get install -y wrk >/dev/null || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }
		else sudo apt-get install -y wrk >/dev/null; fi
	fi
	command -v taskset >/dev/null || { echo "$1: taskset (util-linux) is needed" >&2; exit 1; }
}

# median(a, n) sorts a[1..n] in place and returns its median. ci_rank(n) is the rank k of the
# 95% confidence interval for a median of n values from order statistics, [a[k], a[n+1-k]] of
# the sorted values, with no assumption about their distribution: the largest k with
# P(Binomial(n, 1/2) < k) <= 0.025; 0 when n < 6, too few for one.
AWK_MEDIAN='
function sort(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
}
function median(a, n) { sort(a, n); return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
function ci_rank(n,   k, p, cum) {
	p = 0.5 ^ n; cum = 0
	for (k = 0; k < n; k++) { if (cum + p > 0.025) return k; cum += p; p = p * (n - k) / (k + 1) }
	return 0
}
'

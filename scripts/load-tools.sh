# Sourced by the load scripts: makes sure wrk (Debian's package, installed if missing) and
# taskset are there. $1 names the script in messages.
need_load_tools() {
	if ! command -v wrk >/dev/null; then
		echo "$1: installing wrk" >&2
		if [ "$(id -u)" -eq 0 ]; then apt-get install -y wrk >/dev/null || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }
		else sudo apt-get install -y wrk >/dev/null; fi
	fi
	command -v taskset >/dev/null || { echo "$1: taskset (util-linux) is needed" >&2; exit 1; }
}

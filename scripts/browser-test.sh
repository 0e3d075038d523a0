#!/usr/bin/env bash
# Browser tests of the porter's page and of the corpus viewer (internal/webui/e2e/*.test.mjs,
# with the unit tests of the page's JSON scanner, jsonspan.test.mjs, which need no browser):
# Debian's chromium, driven by playwright-core (pinned with axe-core by
# internal/webui/e2e/package-lock.json), against the real `normalizer serve` and `normalizer
# view` on 127.0.0.1, built here with genjsonl, which writes the viewer's corpus. Installs what
# is missing: chromium from apt and Node.js with npm (as root), the npm packages with npm ci
# into internal/webui/e2e/node_modules (git-ignored).
#
# Usage: scripts/browser-test.sh              the tests
#        SCREENSHOTS=1 scripts/browser-test.sh  also rewrites docs/page.png and docs/page-phone.png
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
need=""
[ -x /usr/bin/chromium ] || need="$need chromium"
command -v node >/dev/null || need="$need nodejs"
command -v npm >/dev/null || need="$need npm"
if [ -n "$need" ]; then
	[ "$(id -u)" -eq 0 ] || { echo "browser-test: needs$need (apt-get install$need)" >&2; exit 1; }
	echo "browser-test: installing$need" >&2
	# shellcheck disable=SC2086 # the list is words
	apt-get install -y $need >/dev/null || { apt-get update >/dev/null && apt-get install -y $need >/dev/null; }
fi
/usr/bin/chromium --version
(cd internal/webui/e2e && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/normalizer" ./cmd/normalizer
go build -o "$work/genjsonl" ./internal/tools/genjsonl
export NORMALIZER_BIN="$work/normalizer" NORMALIZER_GENJSONL="$work/genjsonl"
if [ -n "${SCREENSHOTS:-}" ]; then
	export NORMALIZER_SCREENSHOTS="$root/docs"
fi
cd internal/webui/e2e
node --test --test-reporter=spec jsonspan.test.mjs page.test.mjs view.test.mjs

#!/usr/bin/env bash
# SDK corpus: writes internal/sdkcorpus/testdata's inputs and case files (NAME.input.json,
# NAME.case.json) from the real objects of the SDKs porters use, with the Node program of
# internal/sdkcorpus/gen and the npm packages its package-lock.json pins (openai,
# @anthropic-ai/sdk, @google/genai, ai, @langchain/core, @openai/agents, @mistralai/mistralai,
# @llamaindex/core, @llamaindex/openai, @llamaindex/workflow, @strands-agents/sdk).
# The packages are installed with npm ci once into a cache directory named by the lock file's
# checksum ($NORMALIZER_SDKCORPUS_CACHE, else ~/.cache/normalizer/sdkcorpus); Python's cases run
# python3 with its standard library only. Node.js and npm come from the machine (Debian's
# packages, installed if missing and running as root, as scripts/openapi-client.sh does).
#
# Usage: scripts/sdk-corpus.sh [OUT]   OUT defaults to internal/sdkcorpus/testdata, whose old
#                                      inputs and case files are replaced (goldens are kept)
# After a change, rewrite the goldens: go test ./internal/sdkcorpus -run Golden -update
set -euo pipefail
cd "$(dirname "$0")/.."
gen=internal/sdkcorpus/gen
out=${1:-internal/sdkcorpus/testdata}

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	[ "$(id -u)" -eq 0 ] || { echo "sdk-corpus: Node.js and npm are needed (apt-get install nodejs npm)" >&2; exit 1; }
	echo "sdk-corpus: installing nodejs and npm" >&2
	apt-get install -y nodejs npm >/dev/null || { apt-get update >/dev/null && apt-get install -y nodejs npm >/dev/null; }
fi
command -v python3 >/dev/null || { echo "sdk-corpus: python3 is needed for the Python cases" >&2; exit 1; }

sum=$(sha256sum "$gen/package-lock.json" | cut -c1-16)
cache=${NORMALIZER_SDKCORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/normalizer/sdkcorpus}/$sum
if [ ! -d "$cache/node_modules" ]; then
	mkdir -p "$(dirname "$cache")"
	staging=$(mktemp -d "$(dirname "$cache")/install.XXXXXX")
	# .npmrc: @strands-agents/sdk names an optional peer, @anthropic-ai/sdk, in another major
	# than the one pinned here; it stays optional, so npm keeps the pinned one.
	cp "$gen/package.json" "$gen/package-lock.json" "$gen/.npmrc" "$staging"
	(cd "$staging" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
	# A concurrent run may have finished first: its copy is the same.
	mv -T "$staging" "$cache" 2>/dev/null || rm -rf "$staging"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$gen/generate.mjs" "$gen/pyserialize.py" "$gen/cases" "$gen/package.json" "$gen/package-lock.json" "$work"
ln -s "$cache/node_modules" "$work/node_modules"
node "$work/generate.mjs" "$work/out"
mkdir -p "$out"
rm -f "$out"/*.input.json "$out"/*.case.json
cp "$work/out"/* "$out"

#!/usr/bin/env bash
# Builds the normalizer binary exactly as the Dockerfile does (same flags), then checks that it
# is statically linked: no ELF interpreter, no dynamic section, built with CGO_ENABLED=0.
#
# Usage: scripts/build-static.sh [OUTPUT]   (default bin/normalizer; VERSION=... sets the version)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bin/normalizer}
VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
mkdir -p "$(dirname "$out")"

# -pgo=auto is go build's default (the profile cmd/normalizer/default.pgo), spelled out here and
# in the Dockerfile so that a GOFLAGS=-pgo=off around it (scripts/test.sh sets one) does not apply.
CGO_ENABLED=0 go build -trimpath -pgo=auto -ldflags "-s -w -X main.version=${VERSION}" -o "$out" ./cmd/normalizer

fail() { echo "build-static: $out: $*" >&2; exit 1; }
go version -m "$out" | grep -q 'CGO_ENABLED=0' || fail "not built with CGO_ENABLED=0"
go version -m "$out" | grep -q -- '-trimpath=true' || fail "not built with -trimpath"
go version -m "$out" | grep -q -- '-pgo=' || fail "not built with the profile (cmd/normalizer/default.pgo)"
if command -v readelf >/dev/null; then
	readelf -l "$out" | grep -q 'INTERP' && fail "has an ELF interpreter: dynamically linked"
	readelf -d "$out" 2>/dev/null | grep -q 'NEEDED' && fail "needs shared libraries: dynamically linked"
elif command -v file >/dev/null; then
	file "$out" | grep -q 'statically linked' || fail "$(file "$out")"
else
	echo "build-static: neither readelf nor file found; checked the build settings only" >&2
fi
echo "build-static: $out is a static binary ($(du -h "$out" | cut -f1), version ${VERSION})"

#!/usr/bin/env bash
# Builds the swift-argument-parser integration (Integrations/ArgumentParser), a nested package with its own
# dependency, once in debug, then runs its tests: the exit-code table, a hosted command's session in-process
# (launch, the command, terminate; a signal; an aborted launch), and the example `shop` as a real process
# (`--help` lists every module's subcommands, usage errors exit 64 with ArgumentParser's message, a failing
# launch exits 3, SIGINT and SIGTERM exit 128 + n after terminate ran); checks the library's public API
# against PublicAPI.md. Prints how long each part took. Arguments go to `swift test`, for example
# `--filter ShopProcessTests`.
#
# The root package stays dependency-free: only this nested package depends on swift-argument-parser.
set -euo pipefail
cd "$(dirname "$0")/../Integrations/ArgumentParser"

started=$SECONDS
graphs=.build/symbol-graphs
mkdir -p "$graphs"
echo "== build: the library, the example and the tests (debug)"
# Bounded, so a hung build fails CI instead of eating its 90 minutes. The symbol graphs are for the public
# API check below.
timeout 1200 swift build --build-tests \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
built=$SECONDS
echo "build: $((built - started)) s"

# The library's public API against the checked-in PublicAPI.md (WRITE_API=1 rewrites it).
PUBLIC_API_SCRIPT=Scripts/test-argument-parser.sh \
    swift ../../Scripts/public-api.swift "$graphs" .build/PublicAPI.md LifecycleArgumentParser
if [ "${WRITE_API:-}" = 1 ]; then
    cp .build/PublicAPI.md PublicAPI.md
    echo "Integrations/ArgumentParser/PublicAPI.md written"
elif ! diff -u PublicAPI.md .build/PublicAPI.md; then
    echo "The library's public API changed (diff above) and PublicAPI.md did not. If the change is"
    echo "meant, run WRITE_API=1 Scripts/test-argument-parser.sh and commit Integrations/ArgumentParser/PublicAPI.md."
    exit 1
else
    echo "Public API: unchanged (Integrations/ArgumentParser/PublicAPI.md)"
fi

echo "== test"
tested=$SECONDS
timeout 600 swift test --skip-build "$@"
echo "test: $((SECONDS - tested)) s"
echo "argument parser integration: passed in $((SECONDS - started)) s"

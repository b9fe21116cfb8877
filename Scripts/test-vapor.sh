#!/usr/bin/env bash
# Builds the Vapor integration (Integrations/LifecycleVapor), a nested package with its own dependencies, once in
# debug, then runs its tests: the host in Vapor applications with VaporTesting (launch in the async boot,
# gated module routes, request scopes, services from a request, the health and admin routes), the
# example's app in-process, and the example server as a real process (SIGTERM with a request in flight, a
# taken port); checks the library's public API against PublicAPI.md. Prints how long each part took.
# Arguments go to `swift test`, for example `--filter ExampleProcessTests`.
#
# The root package stays dependency-free: only this nested package depends on Vapor. Its first build
# compiles Vapor and what it pulls in (about 8 minutes on 2 cores). The benchmark, vapor-bench, is built
# here in debug and its end-to-end comparison run once, small, so it keeps compiling and every side keeps
# answering what the other answers; its figures are taken in release by hand (Docs/Performance.md, "End to
# end").
set -euo pipefail
cd "$(dirname "$0")/../Integrations/LifecycleVapor"

started=$SECONDS
graphs=.build/symbol-graphs
mkdir -p "$graphs"
echo "== build: the library, the example server, the benchmark and the tests (debug)"
# Bounded, so a hung build fails CI instead of eating its 90 minutes. The symbol graphs are for the public
# API check below.
timeout 1800 swift build --build-tests \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
built=$SECONDS
echo "build: $((built - started)) s"

# The library's public API against the checked-in PublicAPI.md (WRITE_API=1 rewrites it).
PUBLIC_API_SCRIPT=Scripts/test-vapor.sh swift ../../Scripts/public-api.swift "$graphs" .build/PublicAPI.md LifecycleVapor
if [ "${WRITE_API:-}" = 1 ]; then
    cp .build/PublicAPI.md PublicAPI.md
    echo "Integrations/LifecycleVapor/PublicAPI.md written"
elif ! diff -u PublicAPI.md .build/PublicAPI.md; then
    echo "The library's public API changed (diff above) and PublicAPI.md did not. If the change is"
    echo "meant, run WRITE_API=1 Scripts/test-vapor.sh and commit Integrations/LifecycleVapor/PublicAPI.md."
    exit 1
else
    echo "Public API: unchanged (Integrations/LifecycleVapor/PublicAPI.md)"
fi
api=$SECONDS
echo "public API check: $((api - built)) s"

echo "== test"
timeout 900 swift test --skip-build "$@"
echo "test: $((SECONDS - api)) s"

echo "== vapor-bench --only end-to-end, small, in debug: each side must answer \"order 7 of 8\"; no figure is judged"
timeout 300 .build/debug/vapor-bench --quick --requests 200 --only end-to-end
echo "Vapor integration: passed in $((SECONDS - started)) s"

#!/usr/bin/env bash
# Builds the swift-service-lifecycle integration (Integrations/ServiceLifecycle), a nested package with its
# own dependencies, once in debug, then runs its tests: the host service in real ServiceGroups, the
# logging bridge, the module switches from swift-configuration, the tracing and metrics instruments, the
# examples of Docs/Hosting.md and Docs/Observability.md, and the example HTTP server as a real process
# (SIGTERM with requests in flight, its Prometheus metrics); checks the libraries' public API against
# PublicAPI.md. Prints how long each part took. Arguments go to `swift test`, for example
# `--filter ExampleProcessTests`.
#
# The root package stays dependency-free: only this nested package depends on swift-service-lifecycle,
# swift-log, swift-configuration, swift-distributed-tracing, swift-metrics, swift-prometheus and
# Hummingbird. Its first build compiles them (about 4 minutes on 2 cores).
#
# The end-to-end benchmark, hummingbird-bench, is built here in debug and run once, small, so it keeps
# compiling and every side keeps answering what the others answer; its figures are taken in release by hand
# (Docs/Performance.md, "End to end").
set -euo pipefail
cd "$(dirname "$0")/../Integrations/ServiceLifecycle"

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

# The libraries' public API against the checked-in PublicAPI.md (WRITE_API=1 rewrites it).
swift ../../Scripts/public-api.swift "$graphs" .build/PublicAPI.md LifecycleServiceLifecycle LifecycleConfiguration \
    LifecycleObservability
if [ "${WRITE_API:-}" = 1 ]; then
    cp .build/PublicAPI.md PublicAPI.md
    echo "Integrations/ServiceLifecycle/PublicAPI.md written"
elif ! diff -u PublicAPI.md .build/PublicAPI.md; then
    echo "The libraries' public API changed (diff above) and PublicAPI.md did not. If the change is"
    echo "meant, run WRITE_API=1 Scripts/test-service-lifecycle.sh and commit Integrations/ServiceLifecycle/PublicAPI.md."
    exit 1
else
    echo "Public API: unchanged (Integrations/ServiceLifecycle/PublicAPI.md)"
fi

echo "== test"
timeout 900 swift test --skip-build "$@"
echo "test: $((SECONDS - built)) s"

echo "== hummingbird-bench, small, in debug: each side must answer \"order 7 of 8\"; no figure is judged"
timeout 300 .build/debug/hummingbird-bench --quick --requests 200
echo "service lifecycle integration: passed in $((SECONDS - started)) s"

#!/usr/bin/env bash
# Builds the swift-service-lifecycle integration (Integrations/ServiceLifecycle), a nested package with its
# own dependencies, once in debug, then runs its tests: the host service in real ServiceGroups, the
# logging bridge, the hosting examples of Docs/Hosting.md, and the example HTTP server as a real process
# (SIGTERM with requests in flight). Prints how long each part took. Arguments go to `swift test`, for
# example `--filter ExampleProcessTests`.
#
# The root package stays dependency-free: only this nested package depends on swift-service-lifecycle,
# swift-log and Hummingbird. Its first build compiles them (about 3 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../Integrations/ServiceLifecycle"

started=$SECONDS
echo "== build: the library, the example server and the tests (debug)"
# Bounded, so a hung build fails CI instead of eating its 90 minutes.
timeout 1800 swift build --build-tests
built=$SECONDS
echo "build: $((built - started)) s"

echo "== test"
timeout 900 swift test --skip-build "$@"
echo "test: $((SECONDS - built)) s"
echo "service lifecycle integration: passed in $((SECONDS - started)) s"

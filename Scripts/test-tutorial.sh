#!/usr/bin/env bash
# The DocC tutorial "Build a modular server" (Sources/LifecycleCore/LifecycleCore.docc/Tutorials): its
# package, Examples/ModularServer, built once in debug; its tests (the modules, the routes, the message,
# the request scope, and the server as a real process under SIGTERM); then the server run as its README
# runs it. The root's TutorialTests check that the tutorial's steps show this package's code. Prints how
# long each part took.
#
# The package depends on the root by path and on nothing else, so its first build compiles only this
# repository's libraries.
set -euo pipefail
cd "$(dirname "$0")/../Examples/ModularServer"

started=$SECONDS
echo "== build: the modules, the server and the tests (debug)"
# Bounded, so a hung build fails CI instead of eating its 90 minutes.
timeout 900 swift build --build-tests
built=$SECONDS
echo "build: $((built - started)) s"

echo "== test"
timeout 300 swift test --skip-build
tested=$SECONDS
echo "test: $((tested - built)) s"

echo "== run: two requests on standard input, as the README shows"
expected="200 hello, Ada! (visit 1)
200 account 42: Ada, 1 visit(s)"
actual=$(printf 'GET /greetings/42\nGET /accounts/42?key=tutorial\n' |
    MODULAR_SERVER_KEY=tutorial timeout 60 swift run --skip-build ModularServer 2>/dev/null) ||
    { echo "FAIL: the server exited $?"; exit 1; }
if [ "$actual" != "$expected" ]; then
    printf 'FAIL: the server answered\n%s\ninstead of\n%s\n' "$actual" "$expected"
    exit 1
fi
echo "ok: the server answered both requests and exited 0 at the end of its input"
echo "tutorial: passed in $((SECONDS - started)) s"

#!/usr/bin/env bash
# Runs every suite of the root package under Thread Sanitizer (Docs/Reliability.md): each one that starts a
# task or a thread, services and messaging included, and the rest at no extra cost.
#
# -DLIFECYCLE_TSAN swaps the package's one lock (Sources/LifecycleCore/Concurrency/Locked.swift) for a pthread mutex:
# the sanitizer cannot see inside Synchronization.Mutex on this toolchain and would report every access
# under it as a race. A separate scratch path keeps the instrumented build apart from the normal one.
set -euo pipefail
cd "$(dirname "$0")/.."

# Code written as a user's (demo modules, examples, the documentation's snippets) keeps `Mutex`; its target then
# has a SanitizerMutex.swift that makes that `Mutex` the lock above in this build. Every other target uses
# `Locked`. A target that uses `Mutex` without the file would bring the false reports back, so it fails here.
# The tutorial's package (Examples/ModularServer) is a package of its own, not built here.
missing=""
for file in $(grep -rlE --include='*.swift' '\bMutex[<(]' Sources Tests Examples | grep -vE '\.docc/|^Tests/Fixtures/|^Examples/ModularServer/|/Concurrency/Locked\.swift$'); do
    case "$file" in
    Examples/*) target=$(echo "$file" | cut -d/ -f1-3) ;;
    *) target=$(echo "$file" | cut -d/ -f1-2) ;;
    esac
    [ -f "$target/SanitizerMutex.swift" ] || missing="$missing $file"
done
# The copies are one file: a target cannot share another's source, and a type the target does not declare
# would need `import LifecycleCore` in each file that locks.
for copy in $(find Sources Tests Examples -name SanitizerMutex.swift -not -path '*/.build/*'); do
    cmp -s "$copy" Sources/DemoModules/SanitizerMutex.swift || missing="$missing $copy(differs from Sources/DemoModules')"
done
if [ -n "$missing" ]; then
    echo "These files use Mutex, which the sanitizer cannot see, in a target without SanitizerMutex.swift:$missing"
    echo "Use Locked, or add the target's SanitizerMutex.swift (as Sources/DemoModules has)."
    exit 1
fi

log=$(mktemp)
# TSAN_OPTIONS: a report fails the run (exit code 66) instead of only printing.
TSAN_OPTIONS="halt_on_error=1 exitcode=66" timeout 1800 swift test --sanitize=thread -Xswiftc -DLIFECYCLE_TSAN \
    --scratch-path .build-tsan 2>&1 | tee "$log"
if grep -q "WARNING: ThreadSanitizer" "$log"; then
    echo "Thread Sanitizer reported a race"
    exit 1
fi
echo "Thread Sanitizer: no race reported"

#!/usr/bin/env bash
# Checks every library product that is API (README, "Stability") for breaking changes against the last
# release, with the toolchain's own `swift package diagnose-api-breaking-changes`. The release's commit is
# recorded in .ci/api-baseline, and each release moves it (CONTRIBUTING.md, "API stability"). A removed or
# changed public declaration fails; an added one passes. A break that a minor release before 1.0 makes on
# purpose is listed, message by message, in .ci/api-breakage-allowlist until the next release moves the
# baseline past it.
#
#   Scripts/check-api-breakage.sh              # the check CI runs
#   Scripts/check-api-breakage.sh --self-test  # shows, in a scratch clone, that a removed public method
#                                              # fails the check and an added one passes (three builds)
#
# It builds the current sources in the default .build (so after `swift test` little is left to compile)
# and the baseline in a scratch clone of it that SwiftPM makes, then compares each module's API.
set -euo pipefail
cd "$(dirname "$0")/.."

# The products whose `public` declarations are API. Not ModuleScanner: its declarations are
# `@_spi(Validation)`, for the nested package Validation/ only.
products=(LifecycleCore LifecycleProxy LifecycleTesting LifecycleHosting LifecycleServices LifecycleMessaging
    LifecycleRouting LifecycleScopes LifecycleWork)

# The first word of the first line that is not a comment: the baseline commit.
baseline=$(grep -v '^#' .ci/api-baseline | awk 'NF { print $1; exit }')
release=$(grep -v '^#' .ci/api-baseline | awk 'NF { print $2; exit }')
if ! [[ "$baseline" =~ ^[0-9a-f]{40}$ ]]; then
    echo "error: .ci/api-baseline must name the baseline as a full 40-digit commit id, then the release; it says '$baseline'"
    exit 1
fi
if ! git cat-file -e "$baseline^{commit}" 2>/dev/null; then
    echo "error: the API baseline $baseline (release $release, .ci/api-baseline) is not in this clone."
    echo "The check needs the history: clone without --depth, or run 'git fetch --unshallow'."
    exit 1
fi

check() {  # check: runs the comparison in the current directory; its status is the check's
    # The allowlist without its comments: SwiftPM compares each line with each message, exactly.
    local allowlist=() allowed
    allowed=$(mktemp)
    grep -v -e '^#' -e '^[[:space:]]*$' .ci/api-breakage-allowlist > "$allowed" 2>/dev/null || true
    if [ -s "$allowed" ]; then allowlist=(--breakage-allowlist-path "$allowed"); fi
    # Bounded, so a hung build fails CI instead of eating its 90 minutes.
    timeout 1800 swift package diagnose-api-breaking-changes "$baseline" --products "${products[@]}" \
        "${allowlist[@]}"
}

if [ "${1:-}" != "--self-test" ]; then
    echo "API baseline: release $release, commit $baseline"
    started=$SECONDS
    if check; then
        echo "API: no breaking change since $release ($((SECONDS - started)) s)"
    else
        echo
        echo "The public API broke (above) since release $release. If the break is meant, it can only ship in"
        echo "a minor release before 1.0: list each message above in .ci/api-breakage-allowlist and say in"
        echo "CHANGELOG.md, under [Unreleased], what broke and how users move. Otherwise restore the declaration"
        echo "(a deprecated forwarder keeps old callers compiling)."
        exit 1
    fi
    exit 0
fi

# --self-test: a scratch clone at HEAD, with the current baseline. First its sources lose a public method,
# then they get it back and gain another. The check must fail on the first and pass on the second.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git clone --quiet "$PWD" "$scratch/clone"
cd "$scratch/clone"
file=Sources/LifecycleMessaging/Messenger.swift
cp "$file" "$scratch/Messenger.swift"

echo "== a removed public method: Messenger.within(_:)"
python3 - "$file" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
start = text.index("    public func within(")
end = text.index("\n    }\n", start) + len("\n    }\n")
open(path, "w").write(text[:start] + text[end:])
PY
if check > "$scratch/removed.log" 2>&1; then
    tail -20 "$scratch/removed.log"
    echo "FAIL: the check passed although a public method was removed"
    exit 1
fi
grep 'API breakage' "$scratch/removed.log"
echo "ok: the removal fails the check"

echo "== an added public method: Messenger.withoutBudget()"
cp "$scratch/Messenger.swift" "$file"
python3 - "$file" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
anchor = "    public func within("
added = (
    "    /// This messenger, with no budget for `async` handlers.\n"
    "    public func withoutBudget() -> Messenger { Messenger(bus: bus, sender: sender) }\n\n"
)
i = text.index(anchor)
i = text.rindex("\n\n", 0, i) + 2
open(path, "w").write(text[:i] + added + text[i:])
PY
if ! check > "$scratch/added.log" 2>&1; then
    tail -20 "$scratch/added.log"
    echo "FAIL: the check failed on an additive change"
    exit 1
fi
tail -3 "$scratch/added.log"
echo "ok: the addition passes the check"

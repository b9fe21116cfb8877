#!/usr/bin/env bash
# Builds every library with warnings as errors, checks that the public API is the one Docs/PublicAPI.md lists
# (`--write-api` rewrites that file), and checks each DocC catalog: every symbol link resolves, every
# documented parameter exists. Uses its own scratch path so it never disturbs `swift test`'s build.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-strict
graphs="$scratch/symbol-graphs"
# Kept between runs: an incremental build re-emits only the graphs of modules it recompiles.
mkdir -p "$graphs"

swift build --scratch-path "$scratch" \
    -Xswiftc -warnings-as-errors \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"

# The public API of each product, against the checked-in Docs/PublicAPI.md (Architecture.md, "Public API").
swift Scripts/public-api.swift "$graphs" "$scratch/PublicAPI.md"
if [ "${1:-}" = "--write-api" ]; then
    cp "$scratch/PublicAPI.md" Docs/PublicAPI.md
    echo "Docs/PublicAPI.md written"
elif ! diff -u Docs/PublicAPI.md "$scratch/PublicAPI.md"; then
    echo "The public API changed (diff above) and Docs/PublicAPI.md did not. If the change is meant, run"
    echo "Scripts/check-docs.sh --write-api and commit Docs/PublicAPI.md with it."
    exit 1
else
    echo "Public API: unchanged (Docs/PublicAPI.md)"
fi

mkdir -p "$scratch/docs"
for module in LifecycleCore LifecycleProxy LifecycleTesting LifecycleHosting LifecycleServices LifecycleMessaging \
    LifecycleRouting LifecycleScopes LifecycleWork; do
    own="$scratch/symbol-graphs-$module"
    rm -rf "$own"
    mkdir -p "$own"
    cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$own"/ 2>/dev/null || true
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$own" \
        --output-path "$scratch/docs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "$module" \
        --analyze --warnings-as-errors > "$scratch/docs-$module.log" 2>&1 || {
        cat "$scratch/docs-$module.log"
        echo "DocC found problems in $module (see above)"
        exit 1
    }
    echo "DocC: $module clean"
done

#!/usr/bin/env bash
# Builds the corpus of the differential check (Docs/Discovery.md, "Checking the scanner against
# swift-syntax") from the package mirrors under /opt/swift-packages (bare git repositories):
#
#     Validation/make-corpus.sh slice   # the CI slice: a few packages at fixed tags -> Validation/.corpus/slice
#     Validation/make-corpus.sh all     # every mirror at its newest version tag    -> Validation/.corpus/all
#
# Only the `.swift` files are extracted (`git archive`), one directory per package, named OWNER+NAME@TAG. The
# corpus is rebuilt from scratch each time; it is git-ignored. MIRRORS overrides the mirrors' directory.
set -euo pipefail
cd "$(dirname "$0")"
mirrors=${MIRRORS:-/opt/swift-packages}

# The CI slice: fixed tags, so its figures never move unless the scanner or swift-syntax does. Chosen for
# variety (#if-heavy NIO, generic-heavy collections, swift-syntax's own sources, a web framework, a command-line
# parser) at a size that compares in well under a minute in a release build.
slice=(
    apple/swift-nio@2.101.3
    apple/swift-collections@1.6.0
    apple/swift-log@1.16.2
    swiftlang/swift-syntax@600.0.1
    hummingbird-project/hummingbird@2.28.1
    apple/swift-argument-parser@1.8.2
)

# The newest release tag (`1.2.3` or `v1.2.3`, no pre-release), or nothing.
newest_tag() {
    git --git-dir="$1" tag --list --sort=-v:refname | grep -E '^v?[0-9]+(\.[0-9]+)*$' | head -1 || true
}

# extract OWNER/NAME TAG DESTINATION
extract() {
    local git_dir="$mirrors/$1.git" destination="$3/${1/\//+}@$2"
    mkdir -p "$destination"
    git --git-dir="$git_dir" archive --format=tar "$2" -- '*.swift' 2>/dev/null | tar -x -C "$destination" ||
        echo "note: $1@$2 has no .swift files" >&2
}

case "${1:-}" in
slice)
    out=.corpus/slice
    rm -rf "$out"
    for entry in "${slice[@]}"; do
        extract "${entry%@*}" "${entry#*@}" "$out"
    done
    ;;
all)
    out=.corpus/all
    rm -rf "$out"
    for git_dir in "$mirrors"/*/*.git; do
        repository=${git_dir#"$mirrors"/}
        repository=${repository%.git}
        tag=$(newest_tag "$git_dir")
        if [ -z "$tag" ]; then
            echo "note: $repository has no version tag; skipped" >&2
            continue
        fi
        extract "$repository" "$tag" "$out"
    done
    ;;
*)
    echo "usage: $0 slice|all" >&2
    exit 2
    ;;
esac
echo "corpus: $(find "$out" -name '*.swift' | wc -l | tr -d ' ') Swift files, $(du -sh "$out" | cut -f1) in $out"

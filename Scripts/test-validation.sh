#!/usr/bin/env bash
# The differential check of the discovery scanner (Docs/Discovery.md, "Checking the scanner against
# swift-syntax"), on the CI slice: builds Validation/ (a nested package that depends on swift-syntax) once,
# builds the slice corpus from the package mirrors, and runs `scanner-diff --strict`, which fails on a
# disagreement between ModuleScanner and swift-syntax that no documented known limit explains. Prints how
# long each part took. Arguments go to scanner-diff, for example `--examples 20`.
#
# The full run, over the newest tag of every mirrored package:
#     Validation/make-corpus.sh all && swift run -c release --package-path Validation scanner-diff Validation/.corpus/all
set -euo pipefail
cd "$(dirname "$0")/../Validation"

started=$SECONDS
echo "== build: scanner-diff (release)"
# Bounded, so a hung build fails CI instead of eating its budget. swift-syntax is most of it. Release: a debug
# build compares the slice in about 3 minutes, a release build in about 10 seconds.
timeout 2400 swift build -c release --product scanner-diff
built=$SECONDS
echo "build: $((built - started)) s"

echo "== corpus: the CI slice (Validation/make-corpus.sh slice)"
./make-corpus.sh slice
extracted=$SECONDS
echo "corpus: $((extracted - built)) s"

echo "== compare: ModuleScanner against swift-syntax"
timeout 900 swift run -c release --skip-build scanner-diff --strict --json .build/scanner-diff-slice.json "$@" .corpus/slice
echo "compare: $((SECONDS - extracted)) s"
echo "scanner validation: passed in $((SECONDS - started)) s"

#!/usr/bin/env bash
# The fuzzers (Docs/Reliability.md, "Fuzzing"), on the CI slice: builds the nested package Fuzz/ once with
# libFuzzer and the address sanitizer, then runs each fuzzer over a copy of its committed corpus
# (Fuzz/Corpus/<Fuzzer>/, left unchanged) for a fixed time. Fails on any finding: a crash or a broken oracle
# (a trap), an address error, a leak, a timeout (an input that takes more than 10 s) or running out of memory.
# Prints, per fuzzer: executions, coverage (`cov:` edges and `ft:` features from libFuzzer's final stats) and
# the corpus size at the end.
#
#     Scripts/test-fuzz.sh              # CI: 25 s per fuzzer, about 3 minutes after the build
#     Scripts/test-fuzz.sh 600          # 10 minutes per fuzzer
#     FUZZ_SECONDS=600 FUZZERS="RouterFuzzer ScannerFuzzer" Scripts/test-fuzz.sh
#
# What a run found stays in Fuzz/.build/fuzz-run/<Fuzzer>/: `log`, the grown corpus in `corpus/`, and any
# finding as `crash-*`, `leak-*`, `timeout-*` or `oom-*`, which the fuzzer replays when given it as an argument.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-${FUZZ_SECONDS:-25}}
fuzzers=${FUZZERS:-"RoutePatternFuzzer RouterFuzzer LaunchOptionsFuzzer SignalMapFuzzer ModuleSwitchesFuzzer
DiscoverySummaryFuzzer ScannerFuzzer"}
started=$SECONDS

echo "== build: Fuzz/ (release, -sanitize=fuzzer,address)"
# Bounded, so a hung build fails CI instead of eating its budget. The log is printed only on failure: SwiftPM
# also builds the root's plugin tool (lifecycle-manifest-tool) with these flags, which no fuzzer uses, and
# that link fails with libFuzzer's `main` beside the tool's; the build itself succeeds.
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
if ! timeout 2400 swift build -c release --package-path Fuzz -Xswiftc -sanitize=fuzzer,address >"$build_log" 2>&1; then
    cat "$build_log"
    echo "FAIL: the fuzzers do not build"
    exit 1
fi
tail -n 1 "$build_log"
built=$SECONDS
echo "build: $((built - started)) s"

run=Fuzz/.build/fuzz-run
bin=Fuzz/.build/release
# swift-foundation leaks the 4 KiB read buffer of an empty file (Fuzz/lsan.supp); nothing of the package's.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
failed=()
printf '%-24s %12s %8s %8s %8s  %s\n' fuzzer executions cov ft corpus result
for fuzzer in $fuzzers; do
    work=$run/$fuzzer
    rm -rf "$work"
    mkdir -p "$work/corpus"
    cp Fuzz/Corpus/"$fuzzer"/* "$work/corpus/"
    status=0
    # -timeout: one input may take 10 s; -rss_limit_mb: a 2-core CI machine runs other work beside it.
    timeout $((seconds + 120)) "$bin/$fuzzer" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="$work/" "$work/corpus" >"$work/log" 2>&1 || status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
    # `|| true`: a fuzzer that failed at once printed no progress line, and its result is still reported below.
    coverage=$(grep -E '^#[0-9]+' "$work/log" | grep -o 'cov: [0-9]* ft: [0-9]*' | tail -n 1 || true)
    cov=$(echo "$coverage" | awk '{print $2}')
    ft=$(echo "$coverage" | awk '{print $4}')
    corpus=$(find "$work/corpus" -type f | wc -l)
    findings=$(find "$work" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
        -o -name 'oom-*' \) | wc -l)
    result=passed
    if [ "$status" -ne 0 ] || [ "$findings" -ne 0 ]; then
        result="FAILED (exit $status, $findings finding(s) in $work)"
        failed+=("$fuzzer")
    fi
    printf '%-24s %12s %8s %8s %8s  %s\n' "$fuzzer" "${executions:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$result"
done

for fuzzer in "${failed[@]}"; do
    echo "== $fuzzer: the end of $run/$fuzzer/log"
    tail -n 60 "$run/$fuzzer/log"
done
echo "fuzzing: $((SECONDS - built)) s for $(echo $fuzzers | wc -w) fuzzers, $seconds s each"
if [ ${#failed[@]} -ne 0 ]; then
    echo "FAIL: ${failed[*]}. Replay a finding with: $bin/<Fuzzer> <finding>"
    exit 1
fi
echo "fuzzing: passed in $((SECONDS - started)) s"

#!/usr/bin/env bash
# Cold start: what a program with N discovered modules pays before its first event, in a fresh process.
#
#     Benchmarks/ColdStart/run.sh            # N = 1,000 and 10,000 (8 and 80 targets), 15 processes each
#     Benchmarks/ColdStart/run.sh --quick    # CI: N = 125 and 1,000, 7 processes each; fails on > 8x growth
#
# It writes one package under Benchmarks/.build-coldstart/ (generate.swift): targets of 125 non-generic
# module types, each depending on one in the previous target and on the one before it in its own (~1.9
# dependencies each), discovered by ModuleDiscoveryPlugin, and one executable per N that links the first
# N / 125 targets. One release build; then each executable is started once per sample, and each start
# times `ApplicationHost(manifest: .discovered)` in a new process, where nothing is warm but the file
# cache. Reported: min and median per N, and the growth of the minimum from the first N.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
dir=Benchmarks/.build-coldstart/package
per=125

if [ "${1:-}" = "--quick" ]; then
    targets=(1 8)
    samples=7
    limit=8 # an 8x larger manifest may cost at most 8x more: measured 2.5x now, 16.4x with runtime casts
else
    targets=(8 80)
    samples=15
    limit=12 # the goal for a 10x larger manifest (Docs/Performance.md)
fi

swift Benchmarks/ColdStart/generate.swift "$dir" "$root" "$per" "${targets[@]}"
echo "cold start: building $((${targets[-1]} * per)) modules in ${targets[-1]} targets, release"
swift build -c release --package-path "$dir" >"$dir.build.log" 2>&1 || { cat "$dir.build.log"; exit 1; }

printf '\n| N (modules) | cold build, min | median | growth of the min |\n|---:|---:|---:|---:|\n'
first=""
status=0
for count in "${targets[@]}"; do
    n=$((count * per))
    build=()
    for _ in $(seq "$samples"); do
        line=$("$dir/.build/release/cold-start-$n")
        build+=("$(sed -E 's/.*build_ns=([0-9]+).*/\1/' <<<"$line")")
    done
    sorted=$(printf '%s\n' "${build[@]}" | sort -n)
    min=$(head -1 <<<"$sorted")
    median=$(sed -n "$(((samples + 1) / 2))p" <<<"$sorted")
    [ -z "$first" ] && first=$min
    growth=$(awk -v a="$min" -v b="$first" 'BEGIN { printf "%.1f", a / b }')
    printf '| %s | %.2f ms | %.2f ms | %s× |\n' "$n" "$(awk -v x="$min" 'BEGIN { print x / 1e6 }')" \
        "$(awk -v x="$median" 'BEGIN { print x / 1e6 }')" "$growth"
    if awk -v g="$growth" -v l="$limit" 'BEGIN { exit !(g > l) }'; then status=1; fi
done
if [ "$status" != 0 ]; then
    echo "cold start grew more than ${limit}x from the smallest manifest: startup is no longer linear in modules"
    exit 1
fi

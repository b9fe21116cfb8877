#!/usr/bin/env bash
# Discovery at scale: what ModuleDiscoveryPlugin adds to a clean build and to incremental builds of a
# package of 10,000 modules in 50 targets (Docs/Discovery.md, "Build cost").
#
#     Benchmarks/DiscoveryScale/run.sh [modules-per-target] [targets]    # default 200 50: ~12 min on 2 cores
#
# It writes the package under Benchmarks/.build-scale/ with Benchmarks/ColdStart/generate.swift, one file
# per module: target k depends on target k - 1 (the deepest graph: target k's discovery sees k
# dependencies), and one executable links them all. Then, in the package's own debug build, as a user
# builds:
#
# 1. a clean build, timed;
# 2. incremental builds: the first after the clean one, one with nothing changed, after touching one file
#    (first, middle and last target), and after editing one (a line added above its module).
#
# Each discovery command the builds run records its own time (LIFECYCLE_DISCOVERY_TIMES, read by
# lifecycle-manifest-tool): the figures are what the builds paid, cold caches and a busy machine included.
# Nothing here is committed output; the figures go in Docs/Discovery.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
per=${1:-200}
targets=${2:-50}
dir=$root/Benchmarks/.build-scale/package
log=$root/Benchmarks/.build-scale/logs
mkdir -p "$log"
export LIFECYCLE_DISCOVERY_TIMES=$log/times.txt

swift Benchmarks/ColdStart/generate.swift --file-per-module "$dir" "$root" "$per" "$targets"
rm -rf "$dir/.build"
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# One build; sets `wall` and `cpu` (s, the whole build's), `runs` (discovery commands run), `spent` and
# `spentCPU` (their wall and CPU time summed, ms), and leaves each run's times, sorted by wall time, in
# $log/<name>.times.
build() {
    local name=$1 begin
    : >"$LIFECYCLE_DISCOVERY_TIMES"
    begin=$(date +%s.%N)
    /usr/bin/time -f '%U %S' -o "$log/$name.cpu" swift build --package-path "$dir" >"$log/$name.log" 2>&1 ||
        { tail -40 "$log/$name.log"; exit 1; }
    wall=$(seconds "$begin" "$(date +%s.%N)")
    cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$log/$name.cpu")
    sort -k2 -n "$LIFECYCLE_DISCOVERY_TIMES" >"$log/$name.times"
    runs=$(wc -l <"$log/$name.times")
    spent=$(awk '{ sum += $2 } END { print sum + 0 }' "$log/$name.times")
    spentCPU=$(awk '{ sum += $3 } END { print sum + 0 }' "$log/$name.times")
}
# The targets whose discovery ran, from a times file: the first three.
ran() { sed -E 's/\.manifest-spec\.json.*//' "$1" | head -3 | paste -sd, -; }

echo "discovery at scale: $((per * targets)) modules in $targets targets, one file each; clean debug build"
build clean
times=$log/clean.times
printf '\n| clean build: wall / CPU | discovery commands | their wall / CPU time, summed | share of the build, wall / CPU '
printf '| per command (wall): min / median / max |\n|---:|---:|---:|---:|---|\n'
printf '| %s / %s s | %s | %s / %s s | %s%% / %s%% | %s / %s / %s ms (slowest: %s) |\n' "$wall" "$cpu" "$runs" \
    "$(awk -v t="$spent" 'BEGIN { printf "%.1f", t / 1000 }')" \
    "$(awk -v t="$spentCPU" 'BEGIN { printf "%.1f", t / 1000 }')" \
    "$(awk -v t="$spent" -v c="$wall" 'BEGIN { printf "%.1f", t / 10 / c }')" \
    "$(awk -v t="$spentCPU" -v c="$cpu" 'BEGIN { printf "%.1f", t / 10 / c }')" \
    "$(head -1 "$times" | cut -d' ' -f2)" "$(sed -n "$(((runs + 1) / 2))p" "$times" | cut -d' ' -f2)" \
    "$(tail -1 "$times" | cut -d' ' -f2)" "$(tail -1 "$times" | sed -E 's/\.manifest-spec\.json.*//')"

incremental() {
    build "$2"
    local list
    list=$(ran "$log/$2.times")
    [ "$runs" -gt 3 ] && list="$list, …"
    printf '| %s | %s s | %s (%s) | %s / %s ms |\n' "$1" "$wall" "$runs" "${list:-none}" "$spent" "$spentCPU"
}

last=$((targets - 1))
middle=$((targets / 2))
printf '\n| incremental build | wall | discovery commands run | their wall / CPU time, summed |\n|---|---:|---:|---:|\n'
# The first build after a clean one reruns every discovery command that could not read a dependency's
# summary in the clean build (SwiftPM runs the plugins in no set order); then nothing.
incremental "first rebuild after the clean build" rebuild
incremental "nothing changed" nothing
touch "$dir/Sources/Feature$last/Module${last}_7.swift"
incremental "touch a file of Feature$last (last)" touch-last
touch "$dir/Sources/Feature$middle/Module${middle}_7.swift"
incremental "touch a file of Feature$middle (middle)" touch-middle
touch "$dir/Sources/Feature0/Module0_7.swift"
incremental "touch a file of Feature0 (first)" touch-first
file=$dir/Sources/Feature$middle/Module${middle}_7.swift
{ echo "// an edit above the declaration"; cat "$file"; } >"$file.new" && mv "$file.new" "$file"
incremental "edit a file of Feature$middle (a line added above its module)" edit-middle
echo "logs: $log"

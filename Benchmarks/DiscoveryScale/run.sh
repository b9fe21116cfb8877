#!/usr/bin/env bash
# Discovery at scale: what ModuleDiscoveryPlugin adds to a clean build and to incremental builds of a
# package of 10,000 modules in 50 targets (Docs/Discovery.md, "Build cost").
#
#     Benchmarks/DiscoveryScale/run.sh [modules-per-target] [targets]    # default 200 50: ~10 min on 2 cores
#
# It writes the package under Benchmarks/.build-scale/ with Benchmarks/ColdStart/generate.swift, one file
# per module: target k depends on target k - 1 (the deepest graph: target k's scan sees k dependencies),
# and one executable links them all. Then, in the package's own debug build, as a user builds:
#
# 1. a clean build, timed, and its discovery commands;
# 2. each target's discovery command run again by hand, timed: the scan's share of the clean build;
# 3. incremental builds after touching one file (first, middle and last target), after editing one (a line
#    added above its declarations), and with nothing changed: which discovery commands reran, and what
#    they cost.
#
# Nothing here is committed output; the figures go in Docs/Discovery.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
per=${1:-200}
targets=${2:-50}
dir=$root/Benchmarks/.build-scale/package
log=$root/Benchmarks/.build-scale/logs
mkdir -p "$log"

swift Benchmarks/ColdStart/generate.swift --file-per-module "$dir" "$root" "$per" "$targets"
rm -rf "$dir/.build"
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

echo "discovery at scale: $((per * targets)) modules in $targets targets, one file each; clean debug build"
start=$(date +%s.%N)
swift build --package-path "$dir" >"$log/clean.log" 2>&1 || { tail -40 "$log/clean.log"; exit 1; }
clean=$(seconds "$start" "$(date +%s.%N)")
tool=$(find "$dir/.build" -path '*/debug/lifecycle-manifest-tool-tool' -type f | head -1)
outputs=$dir/.build/plugins/outputs/package

# The wall time of one target's discovery command, as the build ran it (best of 3), in ms.
rerun() {
    local target=$1 spec best=""
    spec=$(ls "$outputs/$target"/destination/ModuleDiscoveryPlugin/*.manifest-spec.json)
    for _ in 1 2 3; do
        local begin end ms
        begin=$(date +%s%N)
        "$tool" --spec "$spec" --output "$log/rerun.swift" >/dev/null 2>&1
        end=$(date +%s%N)
        ms=$(((end - begin) / 1000000))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    echo "$best"
}
# The discovery commands a build's log shows, one target per line.
discovered() { sed -nE 's/.*Discovering lifecycle modules in (.*)$/\1/p' "$1"; }

total=0
per_target=()
for target in $(discovered "$log/clean.log"); do
    ms=$(rerun "$target")
    total=$((total + ms))
    per_target+=("$ms $target")
done
printf '%s\n' "${per_target[@]}" | sort -n >"$log/per-target.txt"
count=${#per_target[@]}
printf '\n| clean build | discovery commands | their time, summed | share of the build | per command: min / median / max |\n'
printf '|---:|---:|---:|---:|---|\n'
printf '| %s s | %s | %s s | %s%% | %s / %s / %s ms (%s) |\n' "$clean" "$count" \
    "$(awk -v t="$total" 'BEGIN { printf "%.1f", t / 1000 }')" \
    "$(awk -v t="$total" -v c="$clean" 'BEGIN { printf "%.1f", t / 10 / c }')" \
    "$(head -1 "$log/per-target.txt" | cut -d' ' -f1)" \
    "$(sed -n "$(((count + 1) / 2))p" "$log/per-target.txt" | cut -d' ' -f1)" \
    "$(tail -1 "$log/per-target.txt" | cut -d' ' -f1)" "slowest: $(tail -1 "$log/per-target.txt" | cut -d' ' -f2)"

# One incremental build after `change`; prints a row.
incremental() {
    local name=$1 begin reran sum=0 list
    begin=$(date +%s.%N)
    swift build --package-path "$dir" >"$log/$name.log" 2>&1 || { tail -40 "$log/$name.log"; exit 1; }
    local wall
    wall=$(seconds "$begin" "$(date +%s.%N)")
    reran=$(discovered "$log/$name.log" | wc -l)
    for target in $(discovered "$log/$name.log"); do sum=$((sum + $(rerun "$target"))); done
    list=$(discovered "$log/$name.log" | head -3 | paste -sd, -)
    [ "$reran" -gt 3 ] && list="$list, …"
    printf '| %s | %s s | %s (%s) | %s ms |\n' "$name" "$wall" "$reran" "${list:-none}" "$sum"
}

last=$((targets - 1))
middle=$((targets / 2))
printf '\n| incremental build | wall | discovery commands rerun | their time, summed |\n|---|---:|---:|---:|\n'
# The first build after a clean one reruns every discovery command that could not read a dependency's
# summary in the clean build (SwiftPM runs the plugins in no set order); then nothing.
incremental "first rebuild after the clean build"
incremental "nothing changed"
touch "$dir/Sources/Feature$last/Module${last}_7.swift"
incremental "touch a file of Feature$last (last)"
touch "$dir/Sources/Feature$middle/Module${middle}_7.swift"
incremental "touch a file of Feature$middle (middle)"
touch "$dir/Sources/Feature0/Module0_7.swift"
incremental "touch a file of Feature0 (first)"
file=$dir/Sources/Feature$middle/Module${middle}_7.swift
{ echo "// an edit above the declaration"; cat "$file"; } >"$file.new" && mv "$file.new" "$file"
incremental "edit a file of Feature$middle (a line added above its module)"
echo "logs: $log"

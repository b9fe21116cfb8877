#!/usr/bin/env bash
# Runs the root package's whole test suite RUNS times (default 20) while HOGS busy loops (default 2, one per
# core here) keep the cores busy, and prints one line per run: its exit status, its duration, and the test
# run's summary line. Every run must pass: a test that reads the wall clock, races a pipe or a thread, or
# outlasts a real time limit when the machine is slow fails here first. Not run by CI (it takes 20-60
# minutes); Docs/Reliability.md ("On a loaded machine") has the last result.
#
#   Scripts/test-under-load.sh             # build the tests once, then 20 runs beside 2 busy loops
#   RUNS=5 HOGS=4 Scripts/test-under-load.sh
#
# The tests and the busy loops run at the same priority (nice 10), so the tests get no more of a core than
# the loops do. The logs of each run are kept in $LOGS (default a fresh directory under /tmp) for the
# failures.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-20}
hogs=${HOGS:-2}
logs=${LOGS:-$(mktemp -d /tmp/test-under-load.XXXXXX)}
mkdir -p "$logs"

swift build --build-tests || exit 1

pids=()
stop_hogs() { [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null; }
trap stop_hogs EXIT
for _ in $(seq 1 "$hogs"); do
    nice -n 10 bash -c 'while :; do :; done' &
    pids+=($!)
done

failed=0
for run in $(seq 1 "$runs"); do
    started=$SECONDS
    nice -n 10 swift test --skip-build >"$logs/run-$run.log" 2>&1
    status=$?
    [ "$status" -eq 0 ] || failed=$((failed + 1))
    summary=$(grep -E 'Test run with' "$logs/run-$run.log" | tail -1)
    echo "run $run: exit $status, $((SECONDS - started)) s: $summary"
done
echo "$((runs - failed)) of $runs runs passed beside $hogs busy loops; logs in $logs"
[ "$failed" -eq 0 ]

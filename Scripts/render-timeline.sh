#!/usr/bin/env bash
# Regenerates Docs/launch-timeline.svg: the demo's launch as a Gantt chart, drawn by the project itself
# (DeliveryJournal.launchTimelineSVG(), no dependency). The times are this machine's, at this run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift run lifecycle-demo timeline Docs/launch-timeline.svg > /dev/null
echo "Docs/launch-timeline.svg written"

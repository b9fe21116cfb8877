#!/usr/bin/env bash
# Writes the Swift that LifecycleCore and LifecycleProxy derive from the event table
# (Sources/LifecycleEventTable/EventTable.swift): run it after changing the table, and commit what it wrote.
# EventTableTests fails while a generated file is stale. Each file is written only when it changes, then linted
# with the package's `swift format` settings. Compiles the table's target on its own, so it takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-events
mkdir -p "$scratch"
cat > "$scratch/main.swift" <<'EOF'
import Foundation

for source in EventSources.files(for: EventTable.builtins) {
    let url = URL(fileURLWithPath: source.path)
    if (try? String(contentsOf: url, encoding: .utf8)) == source.text {
        print("unchanged \(source.path)")
        continue
    }
    try source.text.write(to: url, atomically: true, encoding: .utf8)
    print("wrote     \(source.path)")
}
EOF
swiftc -package-name ModuleLifecycle -o "$scratch/generate-events" Sources/LifecycleEventTable/*.swift \
    "$scratch/main.swift"
"$scratch/generate-events" | tee "$scratch/written"
swift format lint --strict $(awk '{ print $2 }' "$scratch/written")

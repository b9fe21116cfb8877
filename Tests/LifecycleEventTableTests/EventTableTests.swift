import Foundation
import LifecycleCore
import LifecycleEventTable
import Testing

@testable import ModuleScanner

/// Every place that handles every built-in event against the one table they derive from: a place that
/// disagrees fails here, with what to do.
@Suite("Event table")
struct EventTableTests {
    static let events = EventTable.builtins

    @Test("The generated sources checked in are what the table generates")
    func generatedSourcesAreCurrent() throws {
        let sources = EventSources.files(for: Self.events)
        #expect(sources.count == 4)
        for source in sources {
            let checkedIn = try PackageFiles.text(source.path)
            let isCurrent = checkedIn == source.text
            #expect(
                isCurrent,
                """
                \(source.path) is stale (\(PackageFiles.firstDifference(source.text, checkedIn))). It is generated \
                from Sources/LifecycleEventTable/EventTable.swift: run Scripts/generate-events.sh and commit the result.
                """
            )
        }
    }

    @Test("The table names each event, protocol and hook once")
    func namesAreUnique() {
        let names = Self.events.map(\.name)
        let protocols = Self.events.flatMap { [$0.capability] + ($0.syncCapability.map { [$0] } ?? []) }
        #expect(Set(names).count == names.count)
        #expect(Set(protocols).count == protocols.count)
        #expect(
            Self.events.allSatisfy { $0.name.first?.isLowercase == true && $0.capability.first?.isUppercase == true }
        )
    }

    @Test("LifecycleEvent's built-in events are the table's, with its names, directions and result rules")
    func runtimeEventsMatch() {
        let builtins = LifecycleEvent.builtinEvents
        #expect(builtins.map(\.name) == Self.events.map(\.name))
        for (event, row) in zip(builtins, Self.events) {
            #expect(event.direction == (row.direction == .reverse ? .reverse : .forward), "\(row.name)")
            switch row.result {
            case .none: #expect(event.resultRule == .none, "\(row.name)")
            case .anyTrue(let fallback): #expect(event.resultRule == .anyTrue(whenUnanswered: fallback), "\(row.name)")
            }
        }
    }

    @Test("Every protocol of LifecycleCore shaped like a capability protocol is a row of the table")
    func noCapabilityProtocolOutsideTheTable() throws {
        var declared: [String] = []
        for path in try PackageFiles.swiftFiles(under: "Sources/LifecycleCore") {
            declared += hookProtocols(in: try PackageFiles.text(path))
        }
        // The deprecated synchronous forms are declared as `_Sync…`, behind their `Sync…` aliases.
        let table = Self.events.flatMap { [$0.capability] + ($0.syncProtocol.map { [$0] } ?? []) }
        #expect(declared.count > 20, "the parser finds the capability protocols")
        #expect(
            Set(declared) == Set(table),
            """
            declared but not in the table: \(Set(declared).subtracting(table).sorted()); in the table but not \
            declared: \(Set(table).subtracting(declared).sorted()). Add the event as a row of \
            Sources/LifecycleEventTable/EventTable.swift and run Scripts/generate-events.sh.
            """
        )
    }

    @Test("The scanner reads the table's protocols and writes the table's ModuleHooks method for each")
    func scannerMatches() {
        #expect(CapabilityScan.events.dropLast().map(\.async) == Self.events.map(\.capability))
        #expect(CapabilityScan.events.dropLast().map(\.sync) == Self.events.map(\.syncCapability))
        #expect(CapabilityScan.events.dropLast().map(\.method) == Self.events.map(\.name))
        #expect(CapabilityScan.events.last?.async == "CustomEventHandling")

        // A module adopting every event, each in its synchronous form where there is one, and one adopting
        // every asynchronous form: the generated capability table hands each to the table's method.
        let sync = Self.events.map { $0.syncCapability ?? $0.capability }
        let async = Self.events.map(\.capability)
        let source = """
            struct EveryHookSync: LifecycleModule, \(sync.joined(separator: ", ")) {}
            struct EveryHookAsync: LifecycleModule, \(async.joined(separator: ", ")) {}
            """
        let calls = hookCalls(in: manifest(for: source))
        let expectedSync = Self.events.map { "hooks.\($0.name)(\($0.hasSyncForm ? "sync: " : "")module)" }
        let expectedAsync = Self.events.map { "hooks.\($0.name)(module)" }
        #expect(calls == expectedSync + expectedAsync)
    }

    @Test("Each deprecated Sync… name is an alias that says what to write instead, kept only for the old events")
    func deprecatedSyncForms() throws {
        let hooks = try PackageFiles.text("Sources/LifecycleCore/Modules/Hooks.swift")
        let moduleHooks = try PackageFiles.text("Sources/LifecycleCore/Modules/ModuleHooks+Events.swift")
        let legacy = Self.events.filter(\.hasDeprecatedSyncProtocol)
        #expect(legacy.count == 11, "the events that had a Sync… twin before issue 31, item 4")
        #expect(Self.events.filter { !$0.hasSyncForm }.map(\.name) == ["warmUp"])
        for event in legacy {
            let alias = try #require(event.syncCapability)
            #expect(
                hooks.contains(
                    """
                    @available(*, deprecated, message: "adopt \(event.capability) and write \(event.hookSelector) without async")
                    public typealias \(alias) = _\(alias)
                    """
                ),
                "\(alias) is a deprecated alias"
            )
            #expect(moduleHooks.contains("public mutating func \(event.name)(sync hook: any \(alias)) {"))
            #expect(
                moduleHooks.contains(
                    "message: \"use \(event.name)(_:synchronously:), with a closure that calls the module's hook\""
                )
            )
        }
        // Every event that may be synchronous has the method a generated manifest calls.
        for event in Self.events where event.hasSyncForm {
            #expect(moduleHooks.contains("        _ participant: some \(event.capability),\n"), "\(event.name)")
        }
    }

    @Test("Nothing hand-written under Sources/ lists every event: only the table and what it generates do")
    func noHandWrittenListOfEveryEvent() throws {
        let generated = Set(EventSources.files(for: Self.events).map(\.path))
        var lists: [String] = []
        for target in ["LifecycleCore", "LifecycleProxy", "ModuleScanner", "LifecycleTesting", "LifecycleHosting"] {
            for path in try PackageFiles.swiftFiles(under: "Sources/\(target)") where !generated.contains(path) {
                let text = try PackageFiles.text(path)
                let protocols = Self.events.filter { text.contains(" \($0.capability)") }
                let cases = Self.events.filter { text.contains(".builtin(.\($0.name))") }
                if protocols.count == Self.events.count || cases.count == Self.events.count { lists.append(path) }
            }
        }
        #expect(lists.isEmpty, "\(lists) list every built-in event by hand: derive the list from the table instead")
    }

    @Test("Docs/Events.md and the LifecycleCore catalog describe exactly the table's events")
    func documentationMatches() throws {
        // Docs/Events.md, "The events": one row per event, with its protocol, direction, result and default.
        let text = try PackageFiles.text("Docs/Events.md")
        let section = try #require(text.components(separatedBy: "\n## The events\n").dropFirst().first)
        let rows = (section.components(separatedBy: "\n## ").first ?? section).split(separator: "\n")
            .filter { $0.hasPrefix("| `") }
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { $0.count == 7 }
        var documented: [String: [String]] = [:]
        for row in rows { documented[row[0]] = row }
        #expect(Set(documented.keys) == Set(Self.events.map { "`\($0.name)`" }), "Docs/Events.md's events")
        for event in Self.events {
            guard let row = documented["`\(event.name)`"] else { continue }
            #expect(row[1] == "`\(event.capability)`", "\(event.name)'s protocol in Docs/Events.md")
            #expect(row[3].contains("reverse") == (event.direction == .reverse), "\(event.name)'s direction")
            switch event.result {
            case .none:
                #expect(row[4] == "none" && row[5] == "—", "\(event.name)'s result in Docs/Events.md")
            case .anyTrue(let fallback):
                #expect(row[4].hasPrefix("Bool") && row[5] == "`\(fallback)`", "\(event.name)'s result")
            }
        }
        // The catalog's landing page lists every protocol.
        let catalog = try PackageFiles.text("Sources/LifecycleCore/LifecycleCore.docc/LifecycleCore.md")
        for event in Self.events {
            for name in [event.capability] + (event.syncCapability.map { [$0] } ?? []) {
                #expect(catalog.contains("- ``\(name)``"), "LifecycleCore.md's topics list \(name)")
            }
        }
    }
}

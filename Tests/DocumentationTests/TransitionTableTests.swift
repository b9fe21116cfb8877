import Foundation
import LifecycleCore
import Testing

/// Docs/Events.md's transition table is the host's state machine, row for row: every row's request,
/// allowed states, events and end state are what `HostStateMachine` answers, and every pair the machine
/// allows has its row.
@Suite("Docs/Events.md's transition table against HostStateMachine")
struct TransitionTableTests {
    struct Row: CustomStringConvertible {
        var request: String
        var allowedIn: [ApplicationState]
        var events: [String]
        var endsIn: String
        var description: String { "| \(request) | \(allowedIn) | \(events) | \(endsIn) |" }
    }

    /// The requests the table lists, as the host receives them.
    static let requests: [String: HostRequest] = [
        "launch()": .launch, "resignActive()": .resignActive, "becomeActive()": .becomeActive,
        "enterBackground()": .enterBackground, "enterForeground()": .enterForeground, "terminate()": .terminate,
        "receiveMemoryWarning()": .memoryWarning, "open(_:)": .open(URL(string: "app://table")!),
        "send(_:)": .custom(LifecycleEvent(custom: TableEvent.self)),
    ]

    struct TableEvent: CustomEvent {}

    /// The rows of the table under "## The transitions".
    static func rows() throws -> [Row] {
        let text = try String(contentsOf: SnippetTests.root.appendingPathComponent("Docs/Events.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## The transitions").dropFirst().first)
        let body = section.components(separatedBy: "\n## ").first ?? section
        func unquote(_ cell: Substring) -> String {
            cell.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
        var rows: [Row] = []
        for line in body.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4 else { continue }
            let states = try cells[1].split(separator: ",").map { cell in
                try #require(ApplicationState(rawValue: unquote(cell)), "unknown state in \(line)")
            }
            rows.append(
                Row(
                    request: unquote(Substring(cells[0])),
                    allowedIn: states,
                    events: cells[2].split(separator: ",").map(unquote),
                    endsIn: unquote(Substring(cells[3]))
                )
            )
        }
        return rows
    }

    @Test("Each row is what the state machine does")
    func rowsMatchTheMachine() throws {
        let rows = try Self.rows()
        #expect(rows.count == 10)
        for row in rows {
            let request = try #require(Self.requests[row.request], "unknown request in \(row)")
            for state in row.allowedIn {
                let transition = try #require(
                    HostStateMachine.transition(for: request, from: state),
                    "\(row.request) is listed as allowed in \(state)"
                )
                let names = transition.steps.map { step in
                    step.event == LifecycleEvent(custom: TableEvent.self) ? "the custom event" : step.event.name
                }
                #expect(names == row.events, "\(row)")
                #expect(row.endsIn == (transition.final == state ? "unchanged" : transition.final.rawValue), "\(row)")
            }
        }
    }

    @Test("Every request the machine allows in a state has its row")
    func everyAllowedPairIsListed() throws {
        let rows = try Self.rows()
        for (name, request) in Self.requests {
            let listed = Set(rows.filter { $0.request == name }.flatMap(\.allowedIn))
            let allowed = Set(ApplicationState.allCases.filter { HostStateMachine.allows(request, in: $0) })
            #expect(listed == allowed, "\(name)")
        }
    }
}

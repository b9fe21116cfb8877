/// What ``HostRunner`` does when the process receives a signal.
///
/// In a ``SignalMap`` text each action is written by its raw value: `terminate`, `interrupt`,
/// `background`, `foreground`, `reload`, `memory-warning`, `ignore`.
public enum SignalAction: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Terminates gracefully: `terminate()`, bounded by the host's `terminateDeadline`. The same signal
    /// again while termination runs is reported and ignored.
    case terminate
    /// The first time, terminates gracefully, like ``terminate``. Again while termination runs, it cuts
    /// termination short with `ApplicationHost.interruptTermination()`: the `willTerminate` hook already
    /// running finishes, no further one starts, and the runner exits with 128 + the signal's number, as a
    /// shell reports a program stopped by that signal.
    case interrupt
    /// `enterBackground()`.
    case enterBackground = "background"
    /// `enterForeground()`.
    case enterForeground = "foreground"
    /// Sends the custom event ``ReloadRequested`` to the modules that handle it.
    case reload
    /// `receiveMemoryWarning()`.
    case memoryWarning = "memory-warning"
    /// Handled and dropped: the signal no longer has its default effect (for example, `SIGHUP` no longer
    /// ends the process), and nothing is delivered.
    case ignore

    /// The action's name in a ``SignalMap`` text: `background`.
    public var description: String { rawValue }
}

/// Which ``SignalAction`` each signal triggers: the runner's signal handling, as configuration.
///
/// Only the signals listed are handled; the others keep their default effect. Build one in code, or parse
/// it from text — a command-line option or an environment variable — so operators can change it without
/// a rebuild:
///
/// ```swift
/// let signals = try SignalMap(parsing: "TERM=terminate INT=interrupt HUP=reload TSTP=background CONT=foreground")
/// ```
public struct SignalMap: Sendable, Hashable, CustomStringConvertible {
    /// The action of each handled signal.
    public var actions: [UnixSignal: SignalAction]

    /// A map of `actions`.
    public init(_ actions: [UnixSignal: SignalAction]) {
        self.actions = actions
    }

    /// `TERM=terminate INT=interrupt HUP=reload USR1=background USR2=foreground`: the default.
    public static let standard = SignalMap([
        .sigterm: .terminate, .sigint: .interrupt, .sighup: .reload, .sigusr1: .enterBackground,
        .sigusr2: .enterForeground,
    ])

    /// Like ``standard``, but the terminal's job control moves the host: Ctrl-Z (`SIGTSTP`) sends it to the
    /// background, and `fg` (`SIGCONT`) brings it back. The process itself is no longer stopped by Ctrl-Z.
    public static let jobControl = SignalMap([
        .sigterm: .terminate, .sigint: .interrupt, .sighup: .reload, .sigtstp: .enterBackground,
        .sigcont: .enterForeground,
    ])

    /// The action of `signal`, or `nil` if it is not handled.
    public subscript(signal: UnixSignal) -> SignalAction? {
        get { actions[signal] }
        set { actions[signal] = newValue }
    }

    /// Parses `SIGNAL=action` entries separated by spaces, commas or line breaks, for example
    /// `"TERM=terminate, INT=interrupt, HUP=reload"`. Signals are named as in ``UnixSignal/init(name:)``;
    /// actions as in ``SignalAction``.
    ///
    /// - Throws: ``SignalMapError`` naming the entry, what is wrong with it, and what is accepted.
    public init(parsing text: String) throws(SignalMapError) {
        // "\r\n" is one Character: a map written with Windows line endings separates its entries as with "\n".
        let separators: Set<Character> = [",", " ", "\t", "\n", "\r\n", "\r"]
        let entries = text.split(whereSeparator: separators.contains)
        guard !entries.isEmpty else { throw SignalMapError(entry: text, problem: .empty) }
        var actions: [UnixSignal: SignalAction] = [:]
        for entry in entries.map(String.init) {
            let parts = entry.split(separator: "=", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { throw SignalMapError(entry: entry, problem: .notAnAssignment) }
            guard let signal = UnixSignal(name: parts[0]) else {
                throw SignalMapError(entry: entry, problem: .unknownSignal(parts[0]))
            }
            guard let action = SignalAction(rawValue: parts[1].lowercased()) else {
                throw SignalMapError(entry: entry, problem: .unknownAction(parts[1]))
            }
            guard actions.updateValue(action, forKey: signal) == nil else {
                throw SignalMapError(entry: entry, problem: .duplicateSignal(signal))
            }
        }
        self.actions = actions
    }

    /// The map as text that ``init(parsing:)`` reads back, in the order of ``UnixSignal/all``:
    /// `HUP=reload INT=interrupt …`.
    public var description: String {
        UnixSignal.all.compactMap { signal in actions[signal].map { "\(signal.name)=\($0)" } }.joined(separator: " ")
    }
}

/// A ``SignalMap`` text that cannot be parsed.
public struct SignalMapError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with an entry.
    public enum Problem: Sendable, Hashable {
        /// The text has no entries.
        case empty
        /// The entry is not `SIGNAL=action`.
        case notAnAssignment
        /// The signal is not one a runner can handle.
        case unknownSignal(String)
        /// The action is not a ``SignalAction``.
        case unknownAction(String)
        /// The signal appears twice.
        case duplicateSignal(UnixSignal)
    }

    /// The entry that failed, as written.
    public let entry: String
    /// What is wrong with it.
    public let problem: Problem

    public var description: String {
        let signals = UnixSignal.all.map(\.name).joined(separator: ", ")
        let actions = SignalAction.allCases.map(\.rawValue).joined(separator: ", ")
        let what: String
        switch problem {
        case .empty: what = "it has no entries"
        case .notAnAssignment: what = "an entry must be SIGNAL=action"
        case .unknownSignal(let name): what = "\"\(name)\" is not a signal a runner can handle (\(signals))"
        case .unknownAction(let name): what = "\"\(name)\" is not an action (\(actions))"
        case .duplicateSignal(let signal): what = "\(signal.name) is mapped twice; keep one entry"
        }
        return "Invalid signal map entry \"\(entry)\": \(what). Example: \"\(SignalMap.standard)\"."
    }
}

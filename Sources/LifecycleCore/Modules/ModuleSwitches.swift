#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which modules an operator turned on or off, from the launch options, the environment and a file, with
/// where each decision came from.
///
/// A module is on unless a switch turns it off. Sources, the first that names a module wins:
/// 1. the launch options' arguments: `--disable-module NAME` and `--enable-module NAME`, repeatable;
/// 2. the environment: `LIFECYCLE_DISABLE_MODULES` and `LIFECYCLE_ENABLE_MODULES`, comma-separated;
/// 3. the modules file: the path of `--modules-file`, else of `LIFECYCLE_MODULES_FILE`; one switch per line.
///
/// ```text
/// # modules.conf: NAME = on | off, # starts a comment
/// ReportExporterModule = off
/// DemoModules.CacheModule = on
/// ```
///
/// `NAME` is a module's type name, qualified (`DemoModules.CacheModule`) or not, when that is unambiguous.
/// A switch can only turn off what the build enabled: it cannot enable a module whose own
/// ``EnvironmentGatedModule/enablement(for:)`` disables it.
///
/// The host reads the switches when it is built and again on every
/// ``ApplicationHost/reloadModules(_:file:line:)``: the file is read anew each time, so editing it and
/// sending `SIGHUP` (`HostRunner` reloads on it) turns modules on and off in a running process.
public struct ModuleSwitches: Sendable, Hashable, CustomStringConvertible {
    /// One module's switch.
    public struct Switch: Sendable, Hashable, CustomStringConvertible {
        /// Whether the module is on.
        public var isOn: Bool
        /// Where the decision came from: `--disable-module`, `LIFECYCLE_DISABLE_MODULES`, `modules.conf:3`.
        public var source: String

        /// A switch from `source`.
        public init(isOn: Bool, source: String) {
            self.isOn = isOn
            self.source = source
        }

        public var description: String { "\(isOn ? "on" : "off") (\(source))" }
    }

    /// The switches by the name they were given, qualified or not.
    public private(set) var switches: [String: Switch]

    /// No switch: every module the build enabled is on.
    public static let none = ModuleSwitches(switches: [:])

    /// Switches by module name.
    public init(switches: [String: Switch]) {
        self.switches = switches
    }

    /// The switch for a module, by its module-qualified type name: a switch naming it qualified wins over
    /// one naming only its type name.
    public func `switch`(forModule qualifiedName: String) -> Switch? {
        if let exact = switches[qualifiedName] { return exact }
        guard let dot = qualifiedName.lastIndex(of: ".") else { return nil }
        return switches[String(qualifiedName[qualifiedName.index(after: dot)...])]
    }

    /// Why a module is off, as `disabledModules` says it ("switched off by modules.conf:2"), or `nil` when no
    /// switch turns it off.
    public func offReason(forModule qualifiedName: String) -> String? {
        guard let setting = self.switch(forModule: qualifiedName), !setting.isOn else { return nil }
        return "switched off by \(setting.source)"
    }

    /// The names that no module of `qualifiedNames` answers to: typos in a file, a module that was renamed.
    public func unknownNames(among qualifiedNames: some Sequence<String>) -> [String] {
        var known: Set<String> = []
        for name in qualifiedNames {
            known.insert(name)
            if let dot = name.lastIndex(of: ".") { known.insert(String(name[name.index(after: dot)...])) }
        }
        return switches.keys.filter { !known.contains($0) }.sorted()
    }

    public var description: String {
        switches.isEmpty
            ? "no switches"
            : switches.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// Reads the switches of `options`: its arguments, its environment, and the modules file it names (read
    /// now, from disk).
    ///
    /// - Throws: ``ModuleSwitchesError`` when the file cannot be read, a line is not `NAME = on|off`, or a
    ///   name is not a type name. Whether each name is a module of the host is checked by the host.
    public static func load(from options: LaunchOptions) throws(ModuleSwitchesError) -> ModuleSwitches {
        var result: [String: Switch] = [:]
        if let path = options.argument("--modules-file") ?? options.environment["LIFECYCLE_MODULES_FILE"] {
            result = try parse(file: path).switches
        }
        for (variable, isOn) in [("LIFECYCLE_ENABLE_MODULES", true), ("LIFECYCLE_DISABLE_MODULES", false)] {
            guard let list = options.environment[variable] else { continue }
            for name in list.split(separator: ",").map(\.trimmed)
            where !name.isEmpty {
                try checkName(name, source: variable)
                result[name] = Switch(isOn: isOn, source: variable)
            }
        }
        // Arguments last, so they win; in order, so the last of two opposite flags wins.
        var index = options.arguments.startIndex
        while index < options.arguments.endIndex {
            let argument = options.arguments[index]
            index += 1
            for (flag, isOn) in [("--enable-module", true), ("--disable-module", false)] {
                let name: String
                if argument == flag {
                    guard index < options.arguments.endIndex else {
                        throw ModuleSwitchesError(
                            source: flag,
                            problem: "`\(flag)` ends the arguments",
                            fix: "write `\(flag) NAME`"
                        )
                    }
                    name = options.arguments[index]
                    index += 1
                } else if argument.hasPrefix(flag + "=") {
                    name = String(argument.dropFirst(flag.count + 1))
                } else {
                    continue
                }
                try checkName(name, source: flag)
                result[name] = Switch(isOn: isOn, source: flag)
            }
        }
        return ModuleSwitches(switches: result)
    }

    /// Reads a modules file: `NAME = on|off` per line (also `true`/`false`, `yes`/`no`, `enabled`/
    /// `disabled`); blank lines and `#` comments are skipped. A name given twice keeps its last line.
    public static func parse(file path: String) throws(ModuleSwitchesError) -> ModuleSwitches {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ModuleSwitchesError(
                source: path,
                problem: "the modules file cannot be read (\(error))",
                fix:
                    "create it, fix its permissions, or point --modules-file / LIFECYCLE_MODULES_FILE at the right path"
            )
        }
        return try parse(text, source: path)
    }

    /// Reads the text of a modules file; `source` names it in errors and switches.
    public static func parse(_ text: String, source: String) throws(ModuleSwitchesError) -> ModuleSwitches {
        var result: [String: Switch] = [:]
        // "\r\n" is one Character: a file with Windows line endings splits on it as on "\n".
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (offset, rawLine) in lines.enumerated() {
            let place = "\(source):\(offset + 1)"
            let line = rawLine.prefix { $0 != "#" }.trimmed
            guard !line.isEmpty else { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map(\.trimmed)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ModuleSwitchesError(
                    source: place,
                    problem: "`\(line)` is not a switch",
                    fix: "write `ModuleName = on` or `ModuleName = off`"
                )
            }
            try checkName(parts[0], source: place)
            guard let isOn = Self.values[parts[1].lowercased()] else {
                throw ModuleSwitchesError(
                    source: place,
                    problem: "`\(parts[1])` is neither on nor off for `\(parts[0])`",
                    fix: "write on or off (true/false, yes/no, enabled/disabled)"
                )
            }
            result[parts[0]] = Switch(isOn: isOn, source: place)
        }
        return ModuleSwitches(switches: result)
    }

    private static let values: [String: Bool] = [
        "on": true, "true": true, "yes": true, "enabled": true, "1": true,
        "off": false, "false": false, "no": false, "disabled": false, "0": false,
    ]

    private static func checkName(_ name: String, source: String) throws(ModuleSwitchesError) {
        let valid = !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        guard valid, name.first != ".", name.last != "." else {
            throw ModuleSwitchesError(
                source: source,
                problem: "`\(name)` is not a module name",
                fix: "name the module's type, as `CacheModule` or `DemoModules.CacheModule`"
            )
        }
    }
}

/// A modules file, argument or variable that cannot be read as module switches (``ModuleSwitches``). A host
/// being built fails with it; a reload that meets it changes nothing.
public struct ModuleSwitchesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where: the file and line (`modules.conf:3`), the argument or the variable.
    public let source: String
    /// What is wrong.
    public let problem: String
    /// How to fix it.
    public let fix: String

    /// An error at `source`.
    public init(source: String, problem: String, fix: String) {
        self.source = source
        self.problem = problem
        self.fix = fix
    }

    public var description: String { "\(source): \(problem): \(fix)" }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns.
    fileprivate var trimmed: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

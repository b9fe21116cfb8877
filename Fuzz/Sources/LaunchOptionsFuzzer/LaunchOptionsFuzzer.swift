import FuzzerEntry
import LifecycleCore

/// Launch options (`LaunchOptions(arguments:environment:)`), its typed reads (`argument(_:)`, the typed bag)
/// and the module switches read from them (`ModuleSwitches.load(from:)`).
///
/// The input is arguments, one per line, then a NUL byte, then the environment, one `NAME=value` per line.
///
/// Oracle: `argument(name)` is `nil` or a value the arguments hold after `name` or `name=`, and a later
/// `name value` or `name=value` wins; a value stored by key type reads back; `load(from:)` either returns or
/// throws `ModuleSwitchesError`, the same answer twice, and every switch it returns came from the arguments or
/// the environment.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let lines = { (part: Slice<UnsafeRawBufferPointer>?) -> [String] in
        guard let part else { return [] }
        return String(decoding: part, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }
    // Never a modules file: `load(from:)` would read it from disk.
    let arguments = lines(parts.first).filter { !$0.hasPrefix("--modules-file") }
    var environment: [String: String] = [:]
    for line in lines(parts.count > 1 ? parts[1] : nil) {
        let pair = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if pair.count == 2, pair[0] != "LIFECYCLE_MODULES_FILE" { environment[pair[0]] = pair[1] }
    }
    var options = LaunchOptions(arguments: arguments, environment: environment)
    precondition(options.arguments == arguments && options.environment == environment)

    var names = ["--port", "--enable-module", "--disable-module", "-v"]
    if let first = arguments.first, first != separator { names.append(first) }
    for name in names {
        let found = options.argument(name)
        precondition(options.argument(name) == found, "\(arguments): \(name) read twice")
        if let found {
            let afterName = zip(arguments, arguments.dropFirst()).contains { $0 == name && $1 == found }
            let afterEquals = arguments.contains { $0.hasPrefix(name + "=") && $0.dropFirst(name.count + 1) == found }
            precondition(afterName || afterEquals, "\(arguments): \(name) read as \(found.debugDescription)")
        }
        let later = LaunchOptions(arguments: arguments + [separator, name, "later"])
        precondition(later.argument(name) == "later", "\(arguments): a later \(name) value does not win")
        let laterEquals = LaunchOptions(arguments: arguments + [separator, name + "=again"])
        precondition(laterEquals.argument(name) == "again", "\(arguments): a later \(name)= does not win")
    }

    precondition(!options.contains(InputSize.self) && options[InputSize.self] == InputSize.defaultValue)
    options[InputSize.self] = count
    precondition(options.contains(InputSize.self) && options[InputSize.self] == count)

    let loaded = Result(catching: { () throws(ModuleSwitchesError) in try ModuleSwitches.load(from: options) })
    let reloaded = Result(catching: { () throws(ModuleSwitchesError) in try ModuleSwitches.load(from: options) })
    precondition(loaded == reloaded, "\(arguments), \(environment): loaded twice, two answers")
    if case .success(let switches) = loaded {
        let sources = ["--enable-module", "--disable-module", "LIFECYCLE_ENABLE_MODULES", "LIFECYCLE_DISABLE_MODULES"]
        for (name, value) in switches.switches {
            precondition(sources.contains(value.source), "\(name): \(value) from nowhere")
        }
    }
    return 0
}

/// An argument no name read here equals, so what follows it is read afresh.
private let separator = "x-separator"

/// A typed launch option: the input's size in bytes.
private enum InputSize: LaunchOptionKey {
    static let defaultValue = -1
}

@_cdecl("LaunchOptionsFuzzer_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzerRunDriver(argc, argv)
}

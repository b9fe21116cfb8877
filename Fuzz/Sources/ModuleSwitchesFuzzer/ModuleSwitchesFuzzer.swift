import FuzzerEntry
import LifecycleCore

/// Module switch files (`ModuleSwitches.parse(_:source:)`), as an operator edits them before a reload.
///
/// Oracle: a text either parses or throws `ModuleSwitchesError` naming the file and line (typed throws: never a
/// trap), the same answer twice; a text that parses, written back as `NAME = on|off` lines, parses to the same
/// switches; and each switch names the line it came from.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let parse = { (text: String) in
        Result(catching: { () throws(ModuleSwitchesError) in try ModuleSwitches.parse(text, source: "modules.conf") })
    }
    let parsed = parse(text)
    precondition(parse(text) == parsed, "\(text.debugDescription): parsed twice, two answers")
    switch parsed {
    case .success(let switches):
        // Lines as the parser counts them: "\r\n" is one Character, a line break as "\n" is.
        let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .count
        for (name, value) in switches.switches {
            let line = value.source.dropFirst("modules.conf:".count)
            precondition(value.source.hasPrefix("modules.conf:"), "\(name): \(value)")
            precondition(Int(line).map { (1...lineCount).contains($0) } == true, "\(name): \(value)")
            precondition(switches.switch(forModule: name)?.isOn == value.isOn, "\(name) is not found by its name")
        }
        let written = switches.switches.keys.sorted().map { "\($0) = \(switches.switches[$0]!.isOn ? "on" : "off")" }
        guard case .success(let again) = parse(written.joined(separator: "\n")) else {
            preconditionFailure("\(text.debugDescription) parsed, but not written back: \(written)")
        }
        precondition(again.switches.mapValues(\.isOn) == switches.switches.mapValues(\.isOn), "\(written)")
    case .failure(let error):
        precondition(error.source.hasPrefix("modules.conf:"), "\(text.debugDescription): \(error)")
    }
    return 0
}

@_cdecl("ModuleSwitchesFuzzer_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzerRunDriver(argc, argv)
}

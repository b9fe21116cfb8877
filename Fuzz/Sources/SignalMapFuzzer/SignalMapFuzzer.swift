import FuzzerEntry
import LifecycleHosting

/// Signal maps (`SignalMap(parsing:)`), as an operator writes them in a command-line option or an environment
/// variable. Oracle: a text either parses or throws `SignalMapError` (typed throws: never a trap); a map that
/// parses prints (`description`) as text that parses back to the same map, and parsing is deterministic.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let first: Result<SignalMap, SignalMapError> = Result(catching: { () throws(SignalMapError) in
        try SignalMap(parsing: text)
    })
    let second: Result<SignalMap, SignalMapError> = Result(catching: { () throws(SignalMapError) in
        try SignalMap(parsing: text)
    })
    precondition(first == second, "parsing \(text.debugDescription) twice gave two answers")
    switch first {
    case .success(let map):
        precondition(!map.actions.isEmpty, "\(text.debugDescription) parsed to an empty map")
        let printed = map.description
        guard let again = try? SignalMap(parsing: printed) else {
            preconditionFailure(
                "\(text.debugDescription) parsed, but its description \(printed.debugDescription) does not"
            )
        }
        precondition(again == map, "\(text.debugDescription) → \(printed.debugDescription) → \(again)")
    case .failure(let error):
        precondition(!error.description.isEmpty)
    }
    return 0
}

@_cdecl("SignalMapFuzzer_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzerRunDriver(argc, argv)
}

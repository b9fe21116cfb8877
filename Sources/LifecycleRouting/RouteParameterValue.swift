#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A type a route parameter can be read as: `parameters.require("id", as: Int.self)`.
///
/// The integers, `Double`, `Bool`, `String`, `Substring`, `UUID` and every `RawRepresentable` type whose
/// raw value is one of them conform. A type that does not conform cannot be asked for: the compiler
/// refuses it. A value that does not parse is ``RouteError/Code/invalidParameter`` naming the route, the
/// parameter, the text and the type.
public protocol RouteParameterValue: Sendable {
    /// The value `text` stands for, or `nil` if it stands for none.
    init?(routeParameter text: Substring)
}

extension String: RouteParameterValue {
    public init?(routeParameter text: Substring) { self.init(text) }
}

extension Substring: RouteParameterValue {
    public init?(routeParameter text: Substring) { self = text }
}

extension Int: RouteParameterValue {
    public init?(routeParameter text: Substring) { self.init(text) }
}

extension Int64: RouteParameterValue {
    public init?(routeParameter text: Substring) { self.init(text) }
}

extension Int32: RouteParameterValue {
    public init?(routeParameter text: Substring) { self.init(text) }
}

extension UInt: RouteParameterValue {
    public init?(routeParameter text: Substring) { self.init(text) }
}

extension UInt64: RouteParameterValue {
    public init?(routeParameter text: Substring) { self.init(text) }
}

extension Double: RouteParameterValue {
    public init?(routeParameter text: Substring) {
        guard let value = Double(text), value.isFinite else { return nil }
        self = value
    }
}

extension Bool: RouteParameterValue {
    /// `true`, `false`, `yes`, `no`, `1` and `0`, without case.
    public init?(routeParameter text: Substring) {
        switch text.lowercased() {
        case "true", "yes", "1": self = true
        case "false", "no", "0": self = false
        default: return nil
        }
    }
}

extension UUID: RouteParameterValue {
    public init?(routeParameter text: Substring) { self.init(uuidString: String(text)) }
}

extension RouteParameterValue where Self: RawRepresentable, RawValue: RouteParameterValue {
    /// The case whose raw value `text` parses as.
    public init?(routeParameter text: Substring) {
        guard let raw = RawValue(routeParameter: text) else { return nil }
        self.init(rawValue: raw)
    }
}

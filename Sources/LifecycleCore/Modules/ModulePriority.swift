/// Where a module stands in the delivery order: higher priorities receive forward events first.
///
/// Use a named level, or a raw integer for anything in between:
///
/// ```swift
/// static let priority: ModulePriority = .high          // 10_000
/// static let priority: ModulePriority = .normal + 100  // 5_100
/// static let priority: ModulePriority = 7_500
/// ```
///
/// Valid priorities lie in ``validRange``; the proxy rejects anything outside it when it is built.
/// Modules with equal priorities keep their manifest order.
public struct ModulePriority: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public init(integerLiteral value: Int) { self.rawValue = value }

    /// The lowest valid priority: the last module to start and the first to stop.
    public static let minimum: ModulePriority = 0
    /// For modules that build on everything else, such as metrics exporters or URL routers.
    public static let low: ModulePriority = 1_000
    /// The default priority.
    public static let normal: ModulePriority = 5_000
    /// For modules others rely on, such as configuration or logging.
    public static let high: ModulePriority = 10_000
    /// The highest valid priority: the first module to start and the last to stop.
    public static let maximum: ModulePriority = 100_000

    /// The priorities the proxy accepts: ``minimum`` through ``maximum``.
    public static let validRange: ClosedRange<Int> = minimum.rawValue...maximum.rawValue

    /// Whether this priority lies in ``validRange``.
    public var isValid: Bool { Self.validRange.contains(rawValue) }

    /// A priority `offset` above (or, when negative, below) `priority`.
    public static func + (priority: ModulePriority, offset: Int) -> ModulePriority {
        let (sum, overflow) = priority.rawValue.addingReportingOverflow(offset)
        return ModulePriority(overflow ? (offset > 0 ? Int.max : Int.min) : sum)
    }

    /// A priority `offset` below `priority`.
    public static func - (priority: ModulePriority, offset: Int) -> ModulePriority {
        let (difference, overflow) = priority.rawValue.subtractingReportingOverflow(offset)
        return ModulePriority(overflow ? (offset > 0 ? Int.min : Int.max) : difference)
    }

    public static func < (lhs: ModulePriority, rhs: ModulePriority) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .minimum: return "minimum (0)"
        case .low: return "low (1000)"
        case .normal: return "normal (5000)"
        case .high: return "high (10000)"
        case .maximum: return "maximum (100000)"
        default: return String(rawValue)
        }
    }
}

/// A natural number encoded as a type.
///
/// One generic module type over a `TypeNumber` yields as many distinct module types as a benchmark needs:
/// `Numbered<Zero>` is module 0, `Numbered<TwicePlusOne<Zero>>` module 1, `Numbered<Twice<TwicePlusOne<Zero>>>`
/// module 2. Digits are binary, least significant outermost, so each number has exactly one type, and the
/// type of `n` is nested about log2(n) + 1 deep. Compiling it costs nothing per number; the price is paid
/// at run time, in metadata instantiation and in `String(reflecting:)`, whose cost grows with the depth.
public protocol TypeNumber: Sendable {
    /// The number this type encodes.
    static var value: Int { get }
}

/// The number 0.
public enum Zero: TypeNumber {
    public static var value: Int { 0 }
}

/// The number `2 × Half.value`.
public enum Twice<Half: TypeNumber>: TypeNumber {
    public static var value: Int { Half.value * 2 }
}

/// The number `2 × Half.value + 1`.
public enum TwicePlusOne<Half: TypeNumber>: TypeNumber {
    public static var value: Int { Half.value * 2 + 1 }
}

/// The type that encodes `n` (n ≥ 0).
public func typeNumber(_ n: Int) -> any TypeNumber.Type {
    precondition(n >= 0, "type numbers are natural numbers")
    guard n > 0 else { return Zero.self }
    return appendingDigit(to: typeNumber(n / 2), odd: n % 2 == 1)
}

/// `Half` followed by one more binary digit.
private func appendingDigit<Half: TypeNumber>(to _: Half.Type, odd: Bool) -> any TypeNumber.Type {
    odd ? TwicePlusOne<Half>.self : Twice<Half>.self
}

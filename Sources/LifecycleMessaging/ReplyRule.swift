/// How the replies of several receivers combine into what a broadcast returns. Every receiver in the
/// audience is called, in order; no rule stops early.
///
/// | rule | replies | returns |
/// |---|---|---|
/// | ``collect`` | any | every reply, in delivery order |
/// | ``anyTrue`` | `Bool` | `true` if any receiver answered `true` (OR, as the lifecycle proxy combines) |
/// | ``firstNonNil()`` | `Optional` | the first non-`nil` reply in delivery order |
/// | ``count`` | any | how many receivers answered |
public struct ReplyRule<Reply: Sendable, Combined: Sendable>: Sendable {
    /// The result when nobody answered.
    @usableFromInline let initial: Combined
    /// Folds one more reply in.
    @usableFromInline let combine: @Sendable (inout Combined, Reply) -> Void

    /// A rule of your own: start from `initial`, fold each reply in with `combine`.
    public init(initial: Combined, combine: @escaping @Sendable (inout Combined, Reply) -> Void) {
        self.initial = initial
        self.combine = combine
    }
}

extension ReplyRule where Combined == [Reply] {
    /// Every reply, in delivery order.
    public static var collect: Self { Self(initial: []) { $0.append($1) } }
}

extension ReplyRule where Reply == Bool, Combined == Bool {
    /// `true` if any receiver answered `true`; `false` when nobody answered. Every receiver is still called.
    public static var anyTrue: Self { Self(initial: false) { $0 = $0 || $1 } }
}

extension ReplyRule {
    /// The first non-`nil` reply in delivery order; the receivers after it are still called.
    public static func firstNonNil<Wrapped>() -> Self where Reply == Wrapped?, Combined == Wrapped? {
        Self(initial: nil) { combined, reply in
            if combined == nil { combined = reply }
        }
    }
}

extension ReplyRule where Combined == Int {
    /// How many receivers answered (threw nothing).
    public static var count: Self { Self(initial: 0) { count, _ in count += 1 } }
}

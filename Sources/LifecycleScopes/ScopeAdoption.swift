import Synchronization

/// What a scope adopted (``Scope/adopt(_:)``, ``Scope/on(_:_:failurePolicy:file:line:perform:)``): pass it to
/// ``Scope/remove(_:)`` to stop its deliveries. Two tokens are equal when they name the same adoption.
public struct ScopeAdoption: Hashable, Sendable {
    @usableFromInline let box: any AdoptionBox

    @usableFromInline init(box: any AdoptionBox) { self.box = box }

    /// Whether the adoption was removed, or was a once-action that has run.
    public var isRemoved: Bool { box.isRemoved }

    public static func == (lhs: ScopeAdoption, rhs: ScopeAdoption) -> Bool { lhs.box === rhs.box }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(box)) }
}

/// One adoption of a scope: behaviors adopted together, or a closure. It holds `count` consecutive
/// positions of the scope's delivery order, and delivers to them.
@usableFromInline
protocol AdoptionBox: AnyObject, Sendable {
    /// The scope that adopted it.
    var owner: ObjectIdentifier { get }
    /// How many positions it holds: the number of behaviors, or 1.
    var count: Int { get }
    var isRemoved: Bool { get }
    /// Stops its deliveries: nothing that starts after this receives anything.
    func markRemoved()
    /// Delivers `event` to its positions `base ..< base + count`, forward or, for a teardown event, in
    /// reverse, as `run` admits them. On the caller's executor (`nonisolated(nonsending)`): the scope's step
    /// is already there, and a hop to the generic executor would cost every delivery an executor switch.
    nonisolated(nonsending) func deliver(_ event: ScopeEvent, to scope: Scope, base: Int, run: inout DeliveryRun) async
    /// The name of the action at its position `base + element`.
    func name(of element: Int) -> String
}

/// The adoptions of a scope, in the order they were added. The first is stored inline, so a scope with
/// one adoption allocates no array.
struct Adoptions: Sendable {
    private var first: (any AdoptionBox)?
    private var more: [any AdoptionBox] = []

    var isEmpty: Bool { first == nil }

    /// How many positions they hold together.
    var positions: Int {
        guard let first else { return 0 }
        var total = first.count
        for index in more.indices { total += more[index].count }
        return total
    }

    var boxCount: Int { first == nil ? 0 : 1 + more.count }

    subscript(index: Int) -> any AdoptionBox { index == 0 ? first! : more[index - 1] }

    mutating func append(_ box: any AdoptionBox) {
        if first == nil { first = box } else { more.append(box) }
    }

    mutating func append(contentsOf boxes: [any AdoptionBox]) {
        for box in boxes { append(box) }
    }

    /// Drops the removed ones. Allocates only when one was removed.
    mutating func compact() {
        guard let current = first, current.isRemoved || more.contains(where: \.isRemoved) else { return }
        let kept = ([current] + more).filter { !$0.isRemoved }
        first = kept.first
        more = Array(kept.dropFirst())
    }

    mutating func remove(_ box: any AdoptionBox) {
        guard let current = first else { return }
        if current === box {
            first = more.isEmpty ? nil : more.removeFirst()
        } else {
            more.removeAll { $0 === box }
        }
    }

    /// The box holding `position`, counted from `base`, and the element within it.
    func locate(_ position: Int, base: Int) -> (box: any AdoptionBox, element: Int)? {
        var start = base
        for index in 0..<boxCount {
            let box = self[index]
            if position < start + box.count { return (box, position - start) }
            start += box.count
        }
        return nil
    }
}

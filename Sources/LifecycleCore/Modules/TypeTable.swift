/// A map from types to small integers (a position, a participant id): for building a proxy, and for
/// finding a message's route and a receiver's position on every send.
///
/// An open-addressing table over the types' metadata addresses: a lookup is a multiply, a shift and a
/// compare or two, where `Dictionary<ObjectIdentifier, Int>` hashes each key with SipHash. Building a proxy
/// for 10,000 modules makes about 40,000 of these lookups: one per module and one per dependency, twice.
/// Reading is `@inlinable`, so a send specialized in the sender's module reads it without a call.
@usableFromInline
package struct TypeTable: Sendable {
    @usableFromInline var keys: [UInt]
    @usableFromInline var values: [Int]
    @usableFromInline var count = 0

    /// A table with room for `capacity` types before it grows.
    package init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: 0, count: size)
    }

    @inlinable
    static func key(_ type: ObjectIdentifier) -> UInt { UInt(bitPattern: type) }

    /// The slot of `key`: where it is, or the empty slot where it would go.
    @inlinable
    func slot(of key: UInt) -> Int {
        let mask = keys.count - 1
        // Metadata addresses are aligned: Fibonacci hashing spreads the bits that vary over the index.
        var index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
        while keys[index] != 0 && keys[index] != key { index = (index + 1) & mask }
        return index
    }

    /// The value recorded for the type `id` identifies, if any.
    @inlinable
    package subscript(id id: ObjectIdentifier) -> Int? {
        let index = slot(of: Self.key(id))
        return keys[index] == 0 ? nil : values[index]
    }

    /// The value recorded for `type`, if any.
    @inlinable
    package subscript(type: any LifecycleModule.Type) -> Int? { self[id: ObjectIdentifier(type)] }

    /// Records `value` for the type `id` identifies unless it has one already, and returns the value it
    /// then has.
    @discardableResult
    package mutating func insert(_ id: ObjectIdentifier, _ value: Int) -> Int {
        let key = Self.key(id)
        var index = slot(of: key)
        if keys[index] == key { return values[index] }
        if (count + 1) * 2 > keys.count {
            grow()
            index = slot(of: key)
        }
        keys[index] = key
        values[index] = value
        count += 1
        return value
    }

    /// Records `value` for `type` unless it has one already, and returns the value it then has.
    @discardableResult
    package mutating func insert(_ type: any LifecycleModule.Type, _ value: Int) -> Int {
        insert(ObjectIdentifier(type), value)
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: 0, count: oldKeys.count * 2)
        for index in oldKeys.indices where oldKeys[index] != 0 {
            let slot = slot(of: oldKeys[index])
            keys[slot] = oldKeys[index]
            values[slot] = oldValues[index]
        }
    }
}

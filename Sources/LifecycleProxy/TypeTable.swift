package import LifecycleCore

/// A map from module types to small integers (a position, a participant id), for building a proxy.
///
/// An open-addressing table over the types' metadata addresses: a lookup is a multiply, a shift and a
/// compare or two, where `Dictionary<ObjectIdentifier, Int>` hashes each key with SipHash. Building a proxy
/// for 10,000 modules makes about 40,000 of these lookups: one per module and one per dependency, twice.
package struct TypeTable {
    private var keys: [UInt]
    private var values: [Int]
    private var count = 0

    /// A table with room for `capacity` types before it grows.
    package init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: 0, count: size)
    }

    private static func key(_ type: any LifecycleModule.Type) -> UInt { UInt(bitPattern: ObjectIdentifier(type)) }

    /// The slot of `key`: where it is, or the empty slot where it would go.
    private func slot(of key: UInt) -> Int {
        let mask = keys.count - 1
        // Metadata addresses are aligned: Fibonacci hashing spreads the bits that vary over the index.
        var index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
        while keys[index] != 0 && keys[index] != key { index = (index + 1) & mask }
        return index
    }

    /// The value recorded for `type`, if any.
    package subscript(type: any LifecycleModule.Type) -> Int? {
        let index = slot(of: Self.key(type))
        return keys[index] == 0 ? nil : values[index]
    }

    /// Records `value` for `type` unless it has one already, and returns the value it then has.
    @discardableResult
    package mutating func insert(_ type: any LifecycleModule.Type, _ value: Int) -> Int {
        let key = Self.key(type)
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

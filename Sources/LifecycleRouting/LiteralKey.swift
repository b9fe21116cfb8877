/// A pattern's literal segment as a key of the trie: equal to another only when their Unicode scalars are
/// the same, byte for byte in UTF-8. `String`'s own equality is canonical equivalence, under which a
/// decomposed `é` (`e` + U+0301) equals the precomposed one; a route compares literals as written
/// (`Docs/Routing.md`, "Paths from outside").
struct LiteralKey: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: LiteralKey, rhs: LiteralKey) -> Bool {
        let left = lhs.text.utf8
        let right = rhs.text.utf8
        guard left.count == right.count else { return false }
        let same = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in
                left.elementsEqual(right)
            }
        }
        return (same ?? nil) ?? left.elementsEqual(right)
    }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }
}

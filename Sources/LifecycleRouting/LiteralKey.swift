#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A literal compared by its Unicode scalars, byte for byte in UTF-8. `String`'s own equality is canonical
/// equivalence, under which a decomposed `é` (`e` + U+0301) equals the precomposed one; a route compares
/// literals as written (`Docs/Routing.md`, "Paths from outside"). The trie keys its literals by `String`,
/// which is fastest, and uses this to check a match whose input or literal is not ASCII, and to keep apart
/// literals that are canonically equivalent but not the same scalars.
struct LiteralKey: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: LiteralKey, rhs: LiteralKey) -> Bool {
        let left = lhs.text.utf8
        let right = rhs.text.utf8
        let count = left.count
        guard count == right.count else { return false }
        guard count > 0 else { return true }
        let same = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in
                memcmp(left.baseAddress!, right.baseAddress!, count) == 0
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

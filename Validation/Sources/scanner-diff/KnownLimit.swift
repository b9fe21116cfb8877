/// A documented limit of the scanner (Docs/Discovery.md, "Known limits"): a kind of disagreement a text
/// scanner cannot resolve, or one discovery does not depend on, recognised by its cause, never by file and
/// line. A disagreement no limit explains fails `scanner-diff --strict`.
struct KnownLimit: Sendable {
    /// A short, stable name, printed with each disagreement it explains.
    var id: String
    var categories: Set<Disagreement.Category>
    /// What the scanner reads differently, and why that is acceptable.
    var summary: String
    /// A declaration that shows it.
    var example: String
    var trait: Trait

    func explains(_ disagreement: Disagreement) -> Bool {
        categories.contains(disagreement.category) && disagreement.traits.contains(trait)
    }

    /// The checked-in list; keep it in step with Docs/Discovery.md.
    static let all: [KnownLimit] = [
        KnownLimit(
            id: "invalid-source",
            categories: Set(Disagreement.Category.allCases),
            summary: "swift-syntax finds errors in the file (not valid Swift, or nested past its limit of 256): "
                + "no reference to compare with",
            example: "struct A { func f( }",
            trait: .invalidSource
        ),
        KnownLimit(
            id: "multiline-condition",
            categories: [.conditions],
            summary: "an `#if` condition is read up to the end of its line",
            example: "#if (os(macOS) ||\n    os(iOS))\nstruct A {}\n#endif",
            trait: .multilineCondition
        ),
    ]
}

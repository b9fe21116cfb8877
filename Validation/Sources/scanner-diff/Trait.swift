import SwiftSyntax

/// A shape of source, read from swift-syntax's tree, that a known limit of the scanner is about. The reader
/// records the traits of each declaration so ``KnownLimit`` can recognise a disagreement by its cause rather
/// than by its file and line.
enum Trait: String, Sendable, Hashable, Codable {
    /// swift-syntax reports errors in the file: it is not valid Swift, or nests deeper than the parser's limit.
    case invalidSource
    /// An `#if` around the declaration has a condition that continues on the next line.
    case multilineCondition

    static func traits(of node: Syntax, converter: SourceLocationConverter) -> Set<Trait> {
        var traits: Set<Trait> = []
        var current = node.parent
        while let parent = current {
            if let condition = parent.as(IfConfigClauseSyntax.self)?.condition {
                let first = converter.location(for: condition.positionAfterSkippingLeadingTrivia).line
                let last = converter.location(for: condition.endPositionBeforeTrailingTrivia).line
                if last > first { traits.insert(.multilineCondition) }
            }
            current = parent.parent
        }
        return traits
    }
}

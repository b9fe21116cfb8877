import RoutePatternSyntax

/// Why the router refuses an input path before it matches it: a segment that, once decoded, could name
/// another place than it reads as. The rules, and why each, are in `Docs/Routing.md`, "Paths from outside";
/// the router throws it as ``RouteError/Code/invalidPath``.
struct PathRefusal: Error, Sendable {
    typealias Reason = RoutePatternSyntax.SegmentRefusal

    /// The segment as the input wrote it, before decoding.
    let segment: String
    let reason: Reason
}

/// One intent of the chain that led to the intent being opened: a switch's original, or an intent whose
/// handler opened another. Descriptions are built only when something reads them (an error, or
/// ``RouteContext/chain``), so an opening pays one small allocation for its link, not a string.
final class RouteChainLink: Sendable {
    let intent: RouteIntent
    /// How the chain went on from it: "switched by …", "restart 2, switched by …", or `nil` when its handler
    /// opened the next intent.
    let note: String?
    let parent: RouteChainLink?
    /// How many links there are, this one included.
    let depth: Int

    init(_ intent: RouteIntent, note: String?, parent: RouteChainLink?) {
        self.intent = intent
        self.note = note
        self.parent = parent
        self.depth = (parent?.depth ?? 0) + 1
    }

    /// The chain, outermost first, each intent with its note.
    var descriptions: [String] {
        var links: [String] = []
        var link: RouteChainLink? = self
        while let current = link {
            links.append(current.intent.description + (current.note.map { " (\($0))" } ?? ""))
            link = current.parent
        }
        return links.reversed()
    }
}

/// The chain of the intent whose handler is running in this task, so an intent a handler opens knows the
/// chain that led to it, and a loop through handlers is cut at ``Router/maximumDepth``.
enum RouteChain {
    @TaskLocal static var current: RouteChainLink?
}

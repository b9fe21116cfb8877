extension ManifestGenerator {
    /// A dependency target: its Swift module name and its source paths; or, when it is recorded rather than
    /// scanned, the names it contributes and whether it declares modules; or, when its own build wrote a
    /// summary, that summary.
    public struct Dependency: Sendable, Hashable {
        public var module: String
        public var paths: [String]
        public var implies: [String]
        public var hasModules: Bool?
        /// For a dependency read from its summary rather than its sources: the summary. Its `paths` are then
        /// the files the summary speaks of, whose facts it inserted into the parsed sources.
        public var summary: DiscoverySummary?

        public init(
            module: String,
            paths: [String],
            implies: [String] = [],
            hasModules: Bool? = nil,
            summary: DiscoverySummary? = nil
        ) {
            self.module = module
            self.paths = paths
            self.implies = implies
            self.hasModules = hasModules
            self.summary = summary
        }
    }
}

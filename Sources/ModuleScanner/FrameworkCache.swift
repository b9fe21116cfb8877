import Foundation

/// The declarations of ModuleLifecycle's own libraries, kept between one target's discovery runs.
///
/// Every run needs them as context (the capability protocols and what refines them), and lexing them is
/// most of a small target's run: LifecycleCore alone is about 390 KB. They change only when the package
/// does, so a run writes them to a file in its work directory, and the next run reads them back when every
/// file they came from has the same size and modification time. Anything else, a missing or unreadable
/// cache included, and the sources are lexed again.
struct FrameworkCache: Codable {
    /// One line per file the declarations came from: its path, size and modification time.
    var stamps: [String]
    var summaries: [DiscoverySummary.Encoding]

    /// The stamps of `paths`, or `nil` when one cannot be read.
    static func stamps(of paths: [String]) -> [String]? {
        var stamps: [String] = []
        for path in paths.sorted() {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let size = attributes[.size] as? Int,
                let modified = attributes[.modificationDate] as? Date
            else { return nil }
            stamps.append("\(path)\t\(size)\t\(modified.timeIntervalSince1970)")
        }
        return stamps
    }

    /// The summaries (declarations only) of the cache at `url`, by module, if it was written for `stamps`.
    static func read(_ url: URL, stamps: [String]) -> [String: DiscoverySummary]? {
        guard let data = try? Data(contentsOf: url),
            let cache = try? JSONDecoder().decode(FrameworkCache.self, from: data),
            cache.stamps == stamps
        else { return nil }
        var summaries: [String: DiscoverySummary] = [:]
        for encoding in cache.summaries {
            guard encoding.version == DiscoverySummary.currentVersion, let summary = encoding.summary else {
                return nil
            }
            summaries[summary.module] = summary
        }
        return summaries
    }

    /// Writes `summaries` for `stamps` to `url`; a cache that cannot be written is only a slower next run.
    static func write(_ summaries: [DiscoverySummary], stamps: [String], to url: URL) {
        let cache = FrameworkCache(stamps: stamps, summaries: summaries.map(DiscoverySummary.Encoding.init))
        guard let data = try? JSONEncoder().encode(cache) else { return }
        try? data.write(to: url, options: .atomic)
    }
}

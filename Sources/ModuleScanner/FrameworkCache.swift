import Foundation

/// The declarations of ModuleLifecycle's own libraries, kept between discovery runs.
///
/// Every run needs them as context (the capability protocols and what refines them), and lexing them is
/// most of a small target's run: LifecycleCore alone is about 390 KB. They change only when the package
/// does, so a run writes them, library by library, to a file in its own work directory. A later run reads
/// a library's declarations back from that file, or from the file of a target it depends on (readable, and
/// usually written already, even in a clean build), when every file they came from has the same size and
/// modification time. Otherwise, a missing or unreadable cache included, it lexes that library again.
struct FrameworkCache: Codable {
    /// One library's declarations, and one line per file they came from: its path, size and modification
    /// time.
    struct Entry: Codable {
        var stamps: [String]
        var summary: DiscoverySummary.Encoding
    }

    var libraries: [String: Entry]

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

    /// The declarations of the libraries of `wanted` (each with the stamps of its files now) that one of the
    /// caches at `urls` holds for the same stamps, the first cache that has a library winning.
    static func read(_ urls: [URL], wanted: [String: [String]]) -> [String: DiscoverySummary] {
        var found: [String: DiscoverySummary] = [:]
        for url in urls where found.count < wanted.count {
            guard let data = try? Data(contentsOf: url),
                let cache = try? JSONDecoder().decode(FrameworkCache.self, from: data)
            else { continue }
            for (library, stamps) in wanted where found[library] == nil {
                guard let entry = cache.libraries[library], entry.stamps == stamps,
                    entry.summary.version == DiscoverySummary.currentVersion, let summary = entry.summary.summary,
                    summary.module == library
                else { continue }
                found[library] = summary
            }
        }
        return found
    }

    /// Writes `summaries`, each for the stamps `wanted` gives its library, to `url`; a cache that cannot be
    /// written is only a slower next run.
    static func write(_ summaries: [DiscoverySummary], wanted: [String: [String]], to url: URL) {
        var libraries: [String: Entry] = [:]
        for summary in summaries {
            guard let stamps = wanted[summary.module] else { continue }
            libraries[summary.module] = Entry(stamps: stamps, summary: DiscoverySummary.Encoding(summary))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(FrameworkCache(libraries: libraries)) else { return }
        try? data.write(to: url, options: .atomic)
    }
}

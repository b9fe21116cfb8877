/// The totals of a run: what was compared, how often the readings agree on each fact, and the first
/// examples of each kind of disagreement.
struct Report: Sendable, Codable {
    struct Agreement: Sendable, Codable {
        var agreeing = 0
        var compared = 0
        var rate: Double { compared == 0 ? 1 : Double(agreeing) / Double(compared) }
    }

    struct Category: Sendable, Codable {
        var category: Disagreement.Category
        var count = 0
        /// How many of them a known limit explains.
        var explained = 0
        var examples: [Disagreement] = []
    }

    var files = 0
    /// Files in which swift-syntax found errors; their disagreements count under `invalid-source`.
    var filesWithErrors = 0
    /// Declarations found by both readers, whose facts were compared.
    var foundByBoth = 0
    var onlyScanner = 0
    var onlySyntax = 0
    var perFact: [String: Agreement] = [:]
    /// Declarations on which the readers agree on everything, over all declarations either found.
    var overall = Agreement()
    /// The same, counting a disagreement a known limit explains as agreement.
    var overallExceptKnownLimits = Agreement()
    var categories: [Category] = []
    var seconds = 0.0

    var unexplained: Int { categories.reduce(0) { $0 + $1.count - $1.explained } }

    init(_ comparisons: [FileComparison], examples: Int) {
        files = comparisons.count
        filesWithErrors = comparisons.filter(\.hasErrors).count
        var byCategory: [Disagreement.Category: Category] = [:]
        for comparison in comparisons {
            foundByBoth += comparison.pairs.count
            onlyScanner += comparison.onlyScanner
            onlySyntax += comparison.onlySyntax
            for (scanner, syntax) in comparison.pairs {
                for fact in Fact.allCases {
                    perFact[fact.rawValue, default: Agreement()].compared += 1
                    if fact.agrees(scanner, syntax) { perFact[fact.rawValue, default: Agreement()].agreeing += 1 }
                }
            }
            // One declaration may disagree on several facts: count it once.
            var disagreeing: [String: Bool] = [:]  // "line kind name" → all explained
            for disagreement in comparison.disagreements {
                var entry = byCategory[disagreement.category] ?? Category(category: disagreement.category)
                entry.count += 1
                if disagreement.knownLimit != nil { entry.explained += 1 }
                if entry.examples.count < examples, disagreement.knownLimit == nil {
                    entry.examples.append(disagreement)
                }
                byCategory[disagreement.category] = entry
                let key = "\(disagreement.line) \(disagreement.declaration)"
                disagreeing[key] = (disagreeing[key] ?? true) && disagreement.knownLimit != nil
            }
            let all = comparison.pairs.count + comparison.onlyScanner + comparison.onlySyntax
            overall.compared += all
            overall.agreeing += all - disagreeing.count
            overallExceptKnownLimits.compared += all
            overallExceptKnownLimits.agreeing += all - disagreeing.values.filter { !$0 }.count
        }
        // Examples of explained disagreements only where no unexplained one is left to show.
        for comparison in comparisons {
            for disagreement in comparison.disagreements where disagreement.knownLimit != nil {
                guard var entry = byCategory[disagreement.category], entry.examples.count < examples else { continue }
                entry.examples.append(disagreement)
                byCategory[disagreement.category] = entry
            }
        }
        categories = byCategory.values.sorted { $0.category < $1.category }
    }

    /// The report for a person.
    var text: String {
        var lines: [String] = []
        lines.append("files: \(files) (\(filesWithErrors) with errors by swift-syntax)")
        lines.append(
            "declarations: \(foundByBoth + onlyScanner + onlySyntax) (found by both \(foundByBoth), "
                + "only scanner \(onlyScanner), only swift-syntax \(onlySyntax))"
        )
        lines.append("agreement per fact, over the \(foundByBoth) declarations found by both:")
        for fact in Fact.allCases {
            let agreement = perFact[fact.rawValue] ?? Agreement()
            lines.append(
                "  \(fact.rawValue): \(percent(agreement)) (\(agreement.compared - agreement.agreeing) differ)"
            )
        }
        lines.append("overall, declarations agreeing on everything: \(percent(overall))")
        lines.append("overall, known limits apart: \(percent(overallExceptKnownLimits))")
        for category in categories {
            lines.append("")
            lines.append(
                "== \(category.category.rawValue): \(category.count) (\(category.explained) explained by known limits)"
            )
            for example in category.examples {
                let limit = example.knownLimit.map { " [known limit: \($0)]" } ?? ""
                lines.append("  \(example.file):\(example.line): \(example.declaration)\(limit)")
                lines.append("    scanner:      \(example.scanner ?? "(not found)")")
                lines.append("    swift-syntax: \(example.syntax ?? "(not found)")")
            }
        }
        lines.append("")
        lines.append("unexplained disagreements: \(unexplained); time: \(Int(seconds.rounded())) s")
        return lines.joined(separator: "\n")
    }

    private func percent(_ agreement: Agreement) -> String {
        let value = (agreement.rate * 100_000).rounded(.down) / 1000
        return "\(value)% (\(agreement.agreeing)/\(agreement.compared))"
    }
}

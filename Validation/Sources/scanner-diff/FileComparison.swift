@_spi(Validation) import ModuleScanner

/// Both readings of one file, matched declaration by declaration.
struct FileComparison: Sendable {
    var file: String
    /// Declarations both found, as (scanner, swift-syntax).
    var pairs: [(scanner: DeclarationFacts, syntax: DeclarationFacts)] = []
    var disagreements: [Disagreement] = []
    var onlyScanner = 0
    var onlySyntax = 0
    /// Whether swift-syntax found errors in the file.
    var hasErrors = false

    /// Reads `text` with both and compares: declarations match on line, kind and qualified name (in source
    /// order when several share them), then each ``Fact`` is compared.
    init(file: String, text: String) {
        self.file = file
        let scanned = ScannedDeclaration.scan(text, file: file).map(DeclarationFacts.init)
        let (syntax, traits, hasErrors) = SyntaxReader.read(text, file: file)
        self.hasErrors = hasErrors
        var unmatched: [DeclarationFacts.Key: [DeclarationFacts]] = [:]
        for declaration in syntax { unmatched[declaration.key, default: []].append(declaration) }
        for declaration in scanned {
            if var candidates = unmatched[declaration.key], !candidates.isEmpty {
                let reference = candidates.removeFirst()
                unmatched[declaration.key] = candidates
                pairs.append((declaration, reference))
                for fact in Fact.allCases where !fact.agrees(declaration, reference) {
                    disagreements.append(
                        Disagreement(
                            category: Disagreement.Category(fact),
                            file: file,
                            line: declaration.line,
                            declaration: "\(declaration.kind) \(declaration.qualifiedName)",
                            scanner: fact.value(of: declaration),
                            syntax: fact.value(of: reference),
                            traits: traits[declaration.key] ?? []
                        )
                    )
                }
            } else {
                onlyScanner += 1
                disagreements.append(
                    Disagreement(
                        category: .onlyScanner,
                        file: file,
                        line: declaration.line,
                        declaration: "\(declaration.kind) \(declaration.qualifiedName)",
                        scanner: declaration.description,
                        syntax: nil,
                        traits: hasErrors ? [.invalidSource] : []
                    )
                )
            }
        }
        for declaration in unmatched.values.joined().sorted(by: { $0.key < $1.key }) {
            onlySyntax += 1
            disagreements.append(
                Disagreement(
                    category: .onlySyntax,
                    file: file,
                    line: declaration.line,
                    declaration: "\(declaration.kind) \(declaration.qualifiedName)",
                    scanner: nil,
                    syntax: declaration.description,
                    traits: traits[declaration.key] ?? []
                )
            )
        }
        for index in disagreements.indices {
            disagreements[index].knownLimit = KnownLimit.all.first { $0.explains(disagreements[index]) }?.id
        }
    }
}

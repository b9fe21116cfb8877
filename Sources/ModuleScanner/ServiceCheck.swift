/// The build-time half of the service checks: what an executable's or a test's plugin can tell from
/// every module it links before anything runs. The host makes the same checks when it is built, and
/// those are errors; these are warnings that point at the declaration, because a test may replace a
/// missing provider with a fake and an override may choose between two providers, which no scan sees.
enum ServiceCheck {
    static func diagnostics(
        _ mentions: [ServiceMention],
        target: String,
        checkMissing: Bool
    ) -> [ScanDiagnostic] {
        func key(_ service: String) -> Substring { service.split(separator: ".").last ?? Substring(service) }
        var providers: [Substring: [ServiceMention]] = [:]
        for mention in mentions where mention.role == .provides {
            if providers[key(mention.service)]?.contains(where: { $0.type == mention.type }) != true {
                providers[key(mention.service), default: []].append(mention)
            }
        }
        var diagnostics: [ScanDiagnostic] = []
        if checkMissing {
            for mention in mentions where mention.role == .requires && providers[key(mention.service)] == nil {
                diagnostics.append(
                    ScanDiagnostic(
                        file: mention.file,
                        line: mention.line,
                        message: "`\(mention.type)` requires service `\(mention.service)`, which no module "
                            + "linked into `\(target)` provides: its host will refuse to start "
                            + "(missingServiceProvider) unless the manifest replaces the service "
                            + "(`withServices { $0.replace(\(mention.metatype)) { … } }`). "
                            + "Add a module that provides it, or link the target that has one."
                    )
                )
            }
        }
        for (_, provided) in providers where provided.count > 1 {
            let names = provided.map { "`\($0.type)`" }.joined(separator: " and ")
            for mention in provided {
                diagnostics.append(
                    ScanDiagnostic(
                        file: mention.file,
                        line: mention.line,
                        message: "service `\(mention.service)` is provided by \(names), linked into `\(target)`: "
                            + "its host will refuse to start (duplicateServiceProvider) unless the manifest "
                            + "chooses one (`withServices { $0.choose(\(mention.type).self, "
                            + "for: \(mention.metatype)) }`). Remove one provision."
                    )
                )
            }
        }
        return diagnostics
    }
}

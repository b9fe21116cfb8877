/// The build-time half of the dependency checks: what a target's plugin can tell from the `dependencies`
/// of the modules it can see, before any test runs. The proxy makes the same checks when it is built.
///
/// - A cycle among modules the scan resolves is an error: the proxy would refuse every manifest holding
///   them (`ManifestError.Code.dependencyCycle`), so the build stops, naming each step of the cycle.
/// - A dependency on a type declared in the scanned sources that discovery does not list as a module
///   (not a conformer, or one it cannot name) is a warning: the host will refuse to start
///   (`missingDependency`) unless the program registers that type some other way.
/// - Two modules with the same type name in different Swift modules, both linked into an executable or a
///   test, are a warning: a module switch that names them unqualified switches them all.
///
/// Names resolve as written: `Pool` to a visible module named `Pool`, preferring one in the depending
/// type's own Swift module; `Storage.Pool` to the module `Pool` of the Swift module `Storage`, or to a
/// nested type `Storage.Pool`. A dependency the scan cannot resolve is left to the compiler and the proxy.
enum DependencyCheck {
    /// A module the target can see, with the Swift module it belongs to.
    struct Visible {
        var swiftModule: String
        var module: DiscoveredModule

        var key: String { swiftModule + "." + module.name }
    }

    /// The checks over the files of `paths` (`owners` tells each file's Swift module) and the modules a
    /// target can see.
    static func diagnostics(
        _ sources: ParsedSources,
        paths: [String],
        visible: [Visible],
        owners: [String: String],
        target: String,
        checkDuplicates: Bool
    ) -> [ScanDiagnostic] {
        // Types the check may name as not discovered: those declared where this target scanned, by their
        // name and by their module-qualified name.
        var nominal: [String: Declaration] = [:]
        for declaration in sources.declarations(in: paths) where declaration.kind.isNominal {
            var names = [declaration.qualifiedName]
            if let owner = owners[declaration.file] { names.append(owner + "." + declaration.qualifiedName) }
            for name in names where nominal[name] == nil { nominal[name] = declaration }
        }
        return diagnostics(
            sources.dependencyMentions(in: paths),
            visible: visible,
            swiftModule: { owners[$0] },
            declared: { nominal[$0] },
            target: target,
            checkDuplicates: checkDuplicates
        )
    }

    static func diagnostics(
        _ mentions: [DependencyMention],
        visible: [Visible],
        swiftModule: (String) -> String?,
        declared: (String) -> Declaration?,
        target: String,
        checkDuplicates: Bool
    ) -> [ScanDiagnostic] {
        var byName: [String: [Visible]] = [:]
        for module in visible { byName[module.module.name, default: []].append(module) }

        /// The visible module `name` (as written in the Swift module `home`) stands for.
        func resolve(_ name: String, from home: String?) -> Visible? {
            let candidates = byName[name] ?? []
            if candidates.count == 1 { return candidates[0] }
            if let own = candidates.first(where: { $0.swiftModule == home }) { return own }
            // `Storage.Pool`: the Swift module `Storage`'s `Pool`.
            if let dot = name.firstIndex(of: ".") {
                let prefix = String(name[..<dot])
                let rest = String(name[name.index(after: dot)...])
                return byName[rest]?.first { $0.swiftModule == prefix }
            }
            return nil
        }

        var diagnostics: [ScanDiagnostic] = []
        var edges: [String: [(to: String, mention: DependencyMention)]] = [:]
        var nodes: [String: Visible] = [:]
        for mention in mentions {
            let home = swiftModule(mention.file)
            guard let from = resolve(mention.type, from: home) else { continue }
            guard let to = resolve(mention.dependency, from: home) else {
                // Ambiguous among visible modules is for the compiler; unknown and declared here is ours.
                let last = mention.dependency.split(separator: ".").last.map(String.init) ?? mention.dependency
                if byName[mention.dependency] == nil, byName[last] == nil,
                    let declaration = declared(mention.dependency)
                {
                    diagnostics.append(notDiscovered(mention, declaration, target: target))
                }
                continue
            }
            nodes[from.key] = from
            nodes[to.key] = to
            edges[from.key, default: []].append((to.key, mention))
        }
        diagnostics += cycles(edges, nodes: nodes)
        if checkDuplicates { diagnostics += duplicates(byName, target: target) }
        return diagnostics
    }

    /// One error per cycle, at the declaration of its first dependency, listing every step.
    private static func cycles(
        _ edges: [String: [(to: String, mention: DependencyMention)]],
        nodes: [String: Visible]
    ) -> [ScanDiagnostic] {
        // Kahn's algorithm: what cannot be ordered is on a cycle or behind one.
        var incoming: [String: Int] = [:]
        for key in nodes.keys { incoming[key] = 0 }
        for (_, targets) in edges { for edge in targets { incoming[edge.to, default: 0] += 1 } }
        var ready = incoming.filter { $0.value == 0 }.map(\.key)
        var ordered = Set<String>()
        while let key = ready.popLast() {
            ordered.insert(key)
            for edge in edges[key] ?? [] {
                incoming[edge.to]! -= 1
                if incoming[edge.to] == 0 { ready.append(edge.to) }
            }
        }
        // What is left is on a cycle or downstream of one; peel off the downstream part the same way, from
        // the other end, so every node left has a successor that is left too: a walk can only end in a cycle.
        var onCycles = Set(nodes.keys).subtracting(ordered)
        var peeled = true
        while peeled {
            peeled = false
            for key in onCycles where !(edges[key] ?? []).contains(where: { onCycles.contains($0.to) }) {
                onCycles.remove(key)
                peeled = true
            }
        }
        // Each cycle once: walk from the smallest node left along edges that stay, until a node repeats.
        var reported = Set<String>()
        var diagnostics: [ScanDiagnostic] = []
        for start in onCycles.sorted() where !reported.contains(start) {
            var path: [(key: String, mention: DependencyMention?)] = [(start, nil)]
            var seen = [start: 0]
            var current = start
            while let next = (edges[current] ?? []).sorted(by: { $0.to < $1.to }).first(where: {
                onCycles.contains($0.to)
            }) {
                if let index = seen[next.to] {
                    let loop = Array(path[(index + 1)...]).map(\.mention!) + [next.mention]
                    let keys = path[index...].map(\.key)
                    if keys.allSatisfy({ !reported.contains($0) }) {
                        diagnostics.append(cycleError(loop, names: keys.map { nodes[$0]!.module.name }))
                    }
                    reported.formUnion(keys)
                    break
                }
                seen[next.to] = path.count
                path.append((next.to, next.mention))
                current = next.to
            }
            reported.insert(start)
        }
        return diagnostics
    }

    private static func cycleError(_ loop: [DependencyMention], names: [String]) -> ScanDiagnostic {
        let first = loop.min { ($0.file, $0.line) < ($1.file, $1.line) }!
        let steps = loop.map { "`\($0.type)` depends on `\($0.dependency)` (\($0.file):\($0.line))" }
        return ScanDiagnostic(
            file: first.file,
            line: first.line,
            message: "dependency cycle: \((names + [names[0]]).joined(separator: " → ")). "
                + steps.joined(separator: "; ") + ". No order can start each module after its dependencies, "
                + "so every host of these modules would refuse to start (dependencyCycle). Remove one of these "
                + "dependencies, or move what both need into a module of its own.",
            severity: .error
        )
    }

    private static func notDiscovered(
        _ mention: DependencyMention,
        _ declaration: Declaration,
        target: String
    ) -> ScanDiagnostic {
        ScanDiagnostic(
            file: mention.file,
            line: mention.line,
            message: "`\(mention.type)` depends on `\(mention.dependency)`, declared at "
                + "\(declaration.file):\(declaration.line), which module discovery does not list as a module "
                + "of `\(target)` (it does not conform to LifecycleModule, or discovery cannot name it: see the "
                + "warnings at its declaration). Its host will refuse to start (missingDependency) unless the "
                + "program registers `\(mention.dependency)` some other way. Depend on a module, or make "
                + "`\(mention.dependency)` one that discovery can list."
        )
    }

    private static func duplicates(_ byName: [String: [Visible]], target: String) -> [ScanDiagnostic] {
        var diagnostics: [ScanDiagnostic] = []
        for (name, modules) in byName where Set(modules.map(\.swiftModule)).count > 1 {
            let qualified = modules.map { "`\($0.key)`" }.joined(separator: " and ")
            for module in modules {
                diagnostics.append(
                    ScanDiagnostic(
                        file: module.module.file,
                        line: module.module.line,
                        message: "\(qualified) are both named `\(name)` and both linked into `\(target)`: a "
                            + "module switch (`--disable-module \(name)`, a line of a modules file) that names "
                            + "`\(name)` unqualified turns all of them off or on. Name it qualified in switches, or "
                            + "rename one."
                    )
                )
            }
        }
        return diagnostics
    }
}

extension ApplicationHost {
    /// The modules and who waits for whom, as a Graphviz DOT graph: what `lifecycle-demo plan --format dot`
    /// prints, for `dot -Tsvg`.
    ///
    /// - Each module is a node labelled with its name and priority. Modules that are off are dashed and
    ///   say why.
    /// - Each dependency is an edge from the dependent to the module it waits for: solid when declared,
    ///   dashed when added by what is built on the host (a required service), labelled with why.
    /// - The launch stages are clusters: a module sits in the last stage it takes part in (`warmUp`, else
    ///   `initialize`, else `setup`), the one that makes it ready. Modules with no stage hook sit outside.
    ///
    /// The program's delegate is not drawn: it depends on nobody and nobody depends on it.
    public nonisolated func planGraph() -> String {
        let dispatcher = self.dispatcher
        let modules = dispatcher.participants.filter { $0.priority != nil }
        let stages = [LifecycleEvent.warmUp, .initialize, .setup].map {
            ($0.name, Set(dispatcher.plan(for: $0).map(\.id)))
        }
        var lines = [
            "digraph modules {",
            "  rankdir=BT;",
            "  node [shape=box, fontname=\"Helvetica\"];",
            "  edge [fontname=\"Helvetica\", fontsize=10];",
        ]
        func node(_ participant: Participant) -> String {
            let priority = participant.priority.map { "\n\($0.rawValue)" } ?? ""
            return "\(dotID(participant.name)) [label=\(dotString(shortName(participant.name) + priority))];"
        }
        var placed: Set<Int> = []
        for (stage, members) in stages.reversed() {
            // The last stage a module takes part in: later stages were looked at first.
            let inStage = modules.filter { module in
                members.contains(module.id) && !placed.contains(module.id)
                    && stages.prefix { $0.0 != stage }.allSatisfy { !$0.1.contains(module.id) }
            }
            guard !inStage.isEmpty else { continue }
            lines.append("  subgraph \(dotID("cluster_\(stage)")) {")
            lines.append("    label=\(dotString("launch stage: \(stage)"));")
            lines.append("    style=rounded;")
            for module in inStage {
                lines.append("    " + node(module))
                placed.insert(module.id)
            }
            lines.append("  }")
        }
        for module in modules where !placed.contains(module.id) { lines.append("  " + node(module)) }
        for (name, reason) in dispatcher.disabledModules {
            lines.append(
                "  \(dotID(name)) [label=\(dotString("\(shortName(name))\noff: \(reason)")), style=dashed, color=gray];"
            )
        }
        for module in modules {
            for dependency in dispatcher.explainedDependencies(of: module) {
                let style = dependency.reason == .declared ? "solid" : "dashed"
                lines.append(
                    "  \(dotID(module.name)) -> \(dotID(dependency.module.name)) "
                        + "[label=\(dotString(dependency.reason.description)), style=\(style)];"
                )
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }
}

/// A DOT identifier: always quoted, so module-qualified names with dots are one ID.
private func dotID(_ text: String) -> String { dotString(text) }

/// A DOT quoted string: backslashes and quotes escaped, line breaks as DOT's `\n`.
private func dotString(_ text: String) -> String {
    var escaped = ""
    var characters = text.makeIterator()
    while let character = characters.next() {
        switch character {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        default: escaped.append(character)
        }
    }
    return "\"\(escaped)\""
}

private func shortName(_ name: String) -> String {
    name.split(separator: ".").last.map(String.init) ?? name
}

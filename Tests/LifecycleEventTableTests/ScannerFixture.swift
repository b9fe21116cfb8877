@testable import ModuleScanner

/// What the discovery plugin generates for one file of target `M`, reading the capabilities of `events`.
func manifest(for source: String, events: [CapabilityScan.Event] = CapabilityScan.events) -> String {
    var generator = ManifestGenerator(
        module: "M",
        mode: .library,
        paths: ["/p/M/A.swift"],
        dependencies: [],
        locationComments: false
    )
    generator.events = events
    return generator.generate(ParsedSources([SourceFile(path: "/p/M/A.swift", text: source)])).text
}

/// The `hooks.…` calls of a generated manifest, in order, without their indentation.
func hookCalls(in manifest: String) -> [String] {
    manifest.split(separator: "\n").map { $0.drop { $0 == " " } }.filter { $0.hasPrefix("hooks.") }.map(String.init)
}

/// The protocols declared in `text` that have the shape of a capability protocol: one requirement, a function
/// whose last parameter is a `LifecycleContext`.
func hookProtocols(in text: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.drop { $0 == " " }
    }
    .filter { !$0.hasPrefix("//") }
    let modifiers = ["public ", "package ", "internal ", "fileprivate ", "private "]
    func declaration(_ line: Substring) -> Substring {
        var line = line
        while let modifier = modifiers.first(where: { line.hasPrefix($0) }) { line = line.dropFirst(modifier.count) }
        return line
    }
    var found: [String] = []
    var index = 0
    while index < lines.count {
        let line = declaration(lines[index])
        index += 1
        guard line.hasPrefix("protocol ") else { continue }
        let name = String(line.dropFirst("protocol ".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        // The body: the lines up to the brace that closes the declaration's.
        var depth = line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
        var body: [Substring] = []
        while depth > 0, index < lines.count {
            let member = lines[index]
            if depth == 1 { body.append(member) }
            depth += member.filter { $0 == "{" }.count - member.filter { $0 == "}" }.count
            index += 1
        }
        let starts = [
            "func ", "static func ", "mutating func ", "var ", "static var ", "init", "subscript", "associatedtype ",
        ]
        let requirements = body.map(declaration).filter { member in starts.contains { member.hasPrefix($0) } }
        // The requirement's parameters may span lines: the body holds nothing else but comments, dropped above.
        if requirements.count == 1, requirements[0].hasPrefix("func "), body.joined().contains("LifecycleContext)") {
            found.append(name)
        }
    }
    return found
}

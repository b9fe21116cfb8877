/// A Swift source file to scan.
public struct SourceFile: Sendable, Hashable {
    /// The path used in diagnostics and to order the manifest.
    public var path: String
    /// The file's contents.
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// A module type the scanner found and can name from generated code.
public struct DiscoveredModule: Sendable, Hashable, CustomStringConvertible {
    /// The type's name, qualified by its enclosing types (`Outer.Inner`).
    public var name: String
    /// The `#if` conditions that must all hold for the conformance to exist; empty when unconditional.
    public var conditions: [String]
    /// Where the type (or the extension that adds the conformance) is declared.
    public var file: String
    public var line: Int
    /// The capability protocols of LifecycleCore the type adopts, for the manifest's capability table; `nil`
    /// when the scanner cannot see all of its conformances, and the host asks the runtime instead.
    public var capabilities: [DiscoveredCapability]? = nil
    /// The hooks it implements with a synchronous function of its own, which the manifest registers to be
    /// called without an `await`, in the order of the event table.
    public var synchronousHooks: [SynchronousHook] = []

    public var description: String {
        conditions.isEmpty ? name : "\(name) [#if \(conditions.joined(separator: " && "))]"
    }
}

/// Something the build should tell about a declaration: a conformer the scanner found but cannot register
/// (a warning), a route pattern the router would refuse (an error), or a conformer the source keeps out of
/// discovery (a note).
public struct ScanDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Whether the build goes on.
    public enum Severity: String, Sendable, Hashable {
        /// Shown; the build goes on.
        case warning
        /// Shown, and the generator tool fails, so the build stops.
        case error
        /// Shown as information: a declaration discovery skipped because the source asked it to.
        case note
    }

    public var file: String
    public var line: Int
    public var message: String
    public var severity: Severity = .warning

    /// `file:line: warning: message` (or `error:`), the form compilers and SwiftPM show as a build warning
    /// or error.
    public var description: String { "\(file):\(line): \(severity.rawValue): \(message)" }
}

/// Source files parsed once, so one file can serve as a module's own source and as others' context.
public struct ParsedSources: Sendable {
    private var declarations: [String: [Declaration]] = [:]
    private var services: [String: [ServiceMention]] = [:]
    private var dependencies: [String: [DependencyMention]] = [:]
    private var patterns: [String: [RoutePatternDeclaration]] = [:]
    private var functions: [String: [FunctionDeclaration]] = [:]

    /// Parses `files`. Those of `declarationsOnly` are read for their declarations alone: they are context
    /// (ModuleLifecycle's own libraries), and nothing asks for the services and dependencies they mention.
    public init(_ files: [SourceFile], declarationsOnly: Set<String> = []) {
        for file in files where declarations[file.path] == nil {
            let tokens = Lexer.tokenize(file.text)
            let parsed = DeclarationParser.parseWithPatterns(tokens: tokens, file: file.path)
            (declarations[file.path], patterns[file.path]) = (parsed.declarations, parsed.patterns)
            guard !declarationsOnly.contains(file.path) else { continue }
            let ignored = DiscoveryDirective.ignoredLines(in: file.text)
            if !ignored.isEmpty {
                for index in declarations[file.path]!.indices
                where ignored.contains(declarations[file.path]![index].line) {
                    declarations[file.path]![index].isIgnored = true
                }
            }
            functions[file.path] = parsed.functions
            services[file.path] = ServiceMentionScan.scan(tokens, file: file.path)
            dependencies[file.path] = DependencyMentionScan.scan(tokens, file: file.path)
        }
    }

    /// Adds a dependency's summary as if the files it summarises had been scanned: each of its
    /// declarations and mentions under its own file, in the order the scan found them. Everything that
    /// asks by path, or compares a declaration's file with a dependency's paths, then sees no difference.
    mutating func insert(_ summary: DiscoverySummary) {
        for file in summary.files {
            declarations[file] = []
            services[file] = []
            dependencies[file] = []
            functions[file] = []
        }
        for declaration in summary.declarations { declarations[declaration.file, default: []].append(declaration) }
        for mention in summary.serviceMentions { services[mention.file, default: []].append(mention) }
        for mention in summary.dependencyMentions { dependencies[mention.file, default: []].append(mention) }
    }

    /// The modules the types of the files of `paths` list in `dependencies`, in path and line order.
    func dependencyMentions(in paths: [String]) -> [DependencyMention] {
        paths.sorted().flatMap { dependencies[$0] ?? [] }
    }

    /// The declarations of the files of `paths`, in path and line order.
    func declarations(in paths: [String]) -> [Declaration] {
        paths.sorted().flatMap { declarations[$0] ?? [] }
    }

    /// The functions declared in type bodies and extensions in the files of `paths`, in path and line order.
    /// A summary's files have none: only a target's own functions are read.
    func functions(in paths: [String]) -> [FunctionDeclaration] {
        paths.sorted().flatMap { functions[$0] ?? [] }
    }

    /// The route patterns written as literals in the files of `paths`, in path and line order.
    func routePatterns(in paths: [String]) -> [RoutePatternDeclaration] {
        paths.sorted().flatMap { patterns[$0] ?? [] }
    }

    /// The services the files of `paths` provide and require, in path and line order.
    func serviceMentions(in paths: [String]) -> [ServiceMention] {
        paths.sorted().flatMap { services[$0] ?? [] }
    }
}

/// Finds the types of one Swift module that conform to a protocol, directly or through refined
/// protocols, typealiases, superclasses and extensions — also across modules, given their sources as
/// context.
public enum ModuleScan {
    /// Scans the files at `modulePaths` for conformers of `protocolName`, using the files at
    /// `contextPaths` (the module's dependencies) to learn refined protocols, typealiases and base classes.
    ///
    /// - Returns: The nameable conformers in source order (file path, then line), and a warning for each
    ///   conformer that cannot be registered (generic, private or fileprivate, or local to a function).
    public static func scan(
        _ sources: ParsedSources,
        modulePaths: [String],
        contextPaths: [String],
        knownImplying: Set<String> = [],
        corePaths: [String] = [],
        protocolName: String = "LifecycleModule"
    ) -> (modules: [DiscoveredModule], diagnostics: [ScanDiagnostic]) {
        scan(
            sources,
            modulePaths: modulePaths,
            contextPaths: contextPaths,
            knownImplying: knownImplying,
            corePaths: corePaths,
            protocolName: protocolName,
            events: CapabilityScan.events
        )
    }

    /// ``scan(_:modulePaths:contextPaths:knownImplying:corePaths:protocolName:)``, reading the capabilities
    /// of `events`.
    static func scan(
        _ sources: ParsedSources,
        modulePaths: [String],
        contextPaths: [String],
        knownImplying: Set<String>,
        corePaths: [String],
        protocolName: String,
        events: [CapabilityScan.Event]
    ) -> (modules: [DiscoveredModule], diagnostics: [ScanDiagnostic]) {
        let (own, all) = declarations(sources, modulePaths: modulePaths, contextPaths: contextPaths)
        var found = conformers(own: own, all: all, knownImplying: knownImplying, protocolName: protocolName)

        // Register what can be named; explain what cannot; say what `// module-discovery: ignore` skipped.
        var modules: [DiscoveredModule] = []
        var diagnostics: [ScanDiagnostic] = skipped(found, protocolName: protocolName)
        found.removeAll { $0.0.isIgnored }
        var seen: Set<String> = []
        // Types nested in an extension of a generic type are generic: known generic types here and in the
        // dependencies, the standard library's, and any extension with arguments or a `where` clause.
        var genericTypes = Set(
            all.filter { $0.kind.isNominal && ($0.isGeneric || $0.isInGenericScope) }.map(\.qualifiedName)
        )
        genericTypes.formUnion(externalGenerics)
        genericTypes.formUnion(own.filter { $0.kind == .extension && $0.isGeneric }.map(\.name))
        let capabilityScan = CapabilityScan(
            own: own,
            all: all,
            functions: sources.functions(in: modulePaths),
            events: events
        ) { declaration in
            corePaths.contains { declaration.file.hasPrefix($0) }
        }
        // A type declared once; one declared in several `#if` branches may differ in each, so the host asks
        // the runtime about it.
        var ownNominals: [String: Declaration] = [:]
        var declaredTwice: Set<String> = []
        for declaration in own where declaration.kind.isNominal {
            if ownNominals.updateValue(declaration, forKey: declaration.qualifiedName) != nil {
                declaredTwice.insert(declaration.qualifiedName)
            }
        }
        for name in declaredTwice { ownNominals[name] = nil }
        for (declaration, conditions) in found.sorted(by: { ($0.0.file, $0.0.line) < ($1.0.file, $1.0.line) }) {
            let name = declaration.qualifiedName
            // The same type in `#if` and `#else` branches is two entries; at most one compiles.
            guard seen.insert(([name] + conditions).joined(separator: "\u{0}")).inserted else { continue }
            let reason: String?
            if declaration.isLocal {
                reason =
                    "is declared inside a function or closure, so generated code cannot name it; "
                    + "move it to file scope or into a type"
            } else if declaration.isPrivate {
                reason =
                    "is private or fileprivate, so the generated manifest (another file) cannot name it; "
                    + "make it internal or wider"
            } else if declaration.isGeneric || declaration.isInGenericScope || inGenericType(declaration, genericTypes)
            {
                reason =
                    "is generic, and a static manifest lists concrete types only; "
                    + "conform a non-generic type (for example a subclass or a wrapper) instead"
            } else {
                reason = nil
            }
            if let reason {
                diagnostics.append(
                    ScanDiagnostic(
                        file: declaration.file,
                        line: declaration.line,
                        message: "`\(name)` conforms to \(protocolName) but cannot be registered: it \(reason)"
                    )
                )
            } else {
                var module = DiscoveredModule(
                    name: name,
                    conditions: conditions,
                    file: declaration.file,
                    line: declaration.line
                )
                // A type of another module, made to conform here, is read at run time: its own declaration
                // is not in view.
                if let nominal = ownNominals[name] {
                    module.capabilities = capabilityScan.capabilities(
                        of: nominal,
                        named: name,
                        entryConditions: conditions
                    )
                    module.synchronousHooks = capabilityScan.synchronousHooks(
                        of: nominal,
                        capabilities: module.capabilities ?? [],
                        entryConditions: conditions
                    )
                }
                modules.append(module)
            }
        }
        return (modules, diagnostics)
    }

    /// A note for each conformer of `found` that `// module-discovery: ignore` keeps out, once per type.
    static func skipped(
        _ found: [(Declaration, conditions: [String])],
        protocolName: String
    ) -> [ScanDiagnostic] {
        var seen: Set<String> = []
        return found.filter { $0.0.isIgnored && seen.insert($0.0.qualifiedName).inserted }.map { declaration, _ in
            ScanDiagnostic(
                file: declaration.file,
                line: declaration.line,
                message: "`\(declaration.qualifiedName)` conforms to \(protocolName) but is skipped: "
                    + "`\(DiscoveryDirective.ignore)` is directly above it, so no generated manifest lists it and "
                    + "the build checks nothing about it. List it in a hand-written manifest where a test needs it.",
                severity: .note
            )
        }
    }

    /// The module's own declarations, and those it sees: its own and its dependencies', where a dependency's
    /// type is hidden by one of the same name declared here (`class Service` in this module is not the
    /// dependency's `Service`).
    static func declarations(
        _ sources: ParsedSources,
        modulePaths: [String],
        contextPaths: [String]
    ) -> (own: [Declaration], all: [Declaration]) {
        let own = sources.declarations(in: modulePaths)
        let ownNames = Set(own.filter { $0.kind != .extension }.map(\.name))
        let context = sources.declarations(in: contextPaths.filter { !modulePaths.contains($0) })
        return (own, own + context.filter { $0.kind == .extension || !ownNames.contains($0.name) })
    }

    /// Every type of `own` that conforms to `protocolName`, nameable or not, with the conditions of its
    /// conformance; a type an extension makes conform is reported at the extension. A conformer that
    /// `// module-discovery: ignore` keeps out (its declaration, or the extension that makes it conform) is
    /// in the list with `isIgnored` set: callers drop it.
    static func conformers(
        own: [Declaration],
        all: [Declaration],
        knownImplying: Set<String> = [],
        protocolName: String
    ) -> [(Declaration, conditions: [String])] {
        // 1. Protocols (and typealiases of them) that imply the root protocol, and conforming classes.
        //    `knownImplying` seeds both with names recorded from dependencies that are not scanned.
        var protocols: Set<String> = knownImplying.union([protocolName])
        var classes: Set<String> = knownImplying
        var changed = true
        while changed {
            changed = false
            for declaration in all {
                let implies = declaration.inherits.contains { protocols.contains($0) || classes.contains($0) }
                guard implies else { continue }
                switch declaration.kind {
                case .protocol:
                    changed = protocols.insert(declaration.name).inserted || changed
                case .typealias:
                    let isClassAlias = declaration.inherits.contains { classes.contains($0) }
                    if isClassAlias {
                        changed = classes.insert(declaration.name).inserted || changed
                    } else {
                        changed = protocols.insert(declaration.name).inserted || changed
                    }
                case .class:
                    changed = classes.insert(declaration.name).inserted || changed
                case .extension:
                    // An extension adding the protocol to a class makes its subclasses conformers too.
                    let extended = String(declaration.name.split(separator: ".").last ?? "")
                    if all.contains(where: { $0.kind == .class && $0.name == extended }) {
                        changed = classes.insert(extended).inserted || changed
                    }
                default:
                    break
                }
            }
        }

        // 2. The module's own conformers: nominal types that inherit a conforming protocol or class, and
        //    types an extension makes conform.
        var found: [(Declaration, conditions: [String])] = []
        for declaration in own where declaration.kind.isNominal {
            if declaration.inherits.contains(where: { protocols.contains($0) || classes.contains($0) }) {
                found.append((declaration, declaration.conditions))
            }
        }
        for extensionDeclaration in own where extensionDeclaration.kind == .extension {
            guard extensionDeclaration.inherits.contains(where: { protocols.contains($0) }) else { continue }
            if var target = resolve(extensionDeclaration, among: own) {
                // Reported and ordered where the conformance is declared: at the extension.
                target.file = extensionDeclaration.file
                target.line = extensionDeclaration.line
                target.isIgnored = target.isIgnored || extensionDeclaration.isIgnored
                found.append((target, unique(target.conditions + extensionDeclaration.conditions)))
            } else {
                // A type from another module, made to conform here: name it as written. Generic if the
                // extension has arguments or a `where` clause, or the type is generic where it is declared.
                var external = extensionDeclaration
                external.kind = .structure
                let lastName = String(extensionDeclaration.name.split(separator: ".").last ?? "")
                external.isGeneric =
                    extensionDeclaration.isGeneric || externalGenerics.contains(lastName)
                    || all.contains { $0.kind.isNominal && $0.name == lastName && $0.isGeneric }
                found.append((external, extensionDeclaration.conditions))
            }
        }
        return found
    }

    /// The names declared in the files at `paths` that imply conformance to `protocolName` when inherited:
    /// refined protocols, typealiases of them, and conforming classes. What a checked-in manifest records
    /// about a dependency it cannot expect to find at the same path later.
    public static func implyingNames(
        _ sources: ParsedSources,
        paths: [String],
        contextPaths: [String],
        protocolName: String = "LifecycleModule"
    ) -> [String] {
        let declarations = sources.declarations(in: paths)
        let all = declarations + sources.declarations(in: contextPaths.filter { !paths.contains($0) })
        var implying: Set<String> = [protocolName]
        var changed = true
        while changed {
            changed = false
            for declaration in all where declaration.kind != .extension && declaration.kind != .structure {
                guard declaration.kind == .protocol || declaration.kind == .typealias || declaration.kind == .class
                else {
                    continue
                }
                if declaration.inherits.contains(where: implying.contains) {
                    changed = implying.insert(declaration.name).inserted || changed
                }
            }
        }
        let own = Set(declarations.map(\.name))
        return implying.filter { $0 != protocolName && own.contains($0) }.sorted()
    }

    /// The module's nominal declaration an extension extends: its path as written, looked up first
    /// relative to nothing (extensions live at file scope).
    private static func resolve(_ extensionDeclaration: Declaration, among declarations: [Declaration]) -> Declaration?
    {
        declarations.first { $0.kind.isNominal && $0.qualifiedName == extensionDeclaration.name }
    }

    /// Standard-library generic types people extend; nesting a type in one makes it generic.
    private static let externalGenerics: Set<String> = [
        "Array", "Dictionary", "Set", "Optional", "Result", "ContiguousArray", "ArraySlice", "Range", "ClosedRange",
        "Slice", "UnsafePointer", "UnsafeMutablePointer", "KeyValuePairs", "Never",
    ]

    private static func inGenericType(_ declaration: Declaration, _ genericTypes: Set<String>) -> Bool {
        // Whether a generic type's name is a whole-component prefix of the scope. Compared once per generic
        // type, not once per prefix: joining every prefix cost depth² per declaration, so a file of types
        // nested a thousand deep took minutes (scanner-bench --depth).
        guard !genericTypes.isEmpty, !declaration.scope.isEmpty else { return false }
        let scope = declaration.scope.joined(separator: ".")
        return genericTypes.contains { scope == $0 || scope.hasPrefix($0 + ".") }
    }

    private static func unique(_ conditions: [String]) -> [String] {
        var seen: Set<String> = []
        return conditions.filter { seen.insert($0).inserted }
    }
}

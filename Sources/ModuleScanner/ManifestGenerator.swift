/// Renders the Swift source of a module manifest from scanned sources.
///
/// - In ``Mode/library`` mode the file declares `ModuleManifest.<Module>`, public, listing the module's own
///   types (which may stay internal: the file is compiled into the module).
/// - In ``Mode/aggregate`` mode (executables and tests) it declares `ModuleManifest.discovered`, combining
///   the manifest of every dependency that declares modules — sorted by module name — followed by the
///   target's own modules.
///
/// The same function serves the build plugin, the command plugin (checked-in manifests) and the staleness
/// check, so all three agree byte for byte.
public struct ManifestGenerator: Sendable {
    public enum Mode: String, Sendable {
        case library
        case aggregate
    }

    /// What a generation produced.
    public struct Output: Sendable {
        /// The Swift source of the manifest.
        public var text: String
        /// The target's own registered modules, in manifest order.
        public var modules: [DiscoveredModule]
        /// The target's own global route interceptors, in manifest order.
        public var interceptors: [DiscoveredInterceptor]
        /// The target's own global scope actions, in manifest order.
        public var scopeActions: [DiscoveredScopeAction]
        /// Conformers that cannot be registered, as build warnings (as build errors for scope actions); route
        /// patterns the router would refuse, as build errors.
        public var diagnostics: [ScanDiagnostic]
        /// The dependencies whose manifests the aggregate includes, in order.
        public var includedDependencies: [String]
        /// What the target's dependents read instead of its sources.
        public var summary: DiscoverySummary
    }

    /// ModuleLifecycle's own libraries. Their module types (`LifecycleServices.ServiceRegistryModule`) join
    /// a host through what adds them, never through discovery, so an aggregate neither lists nor checks them.
    public static let frameworkModules: Set<String> = [
        "LifecycleCore", "LifecycleProxy", "LifecycleServices", "LifecycleMessaging", "LifecycleRouting",
        "RoutePatternSyntax", "LifecycleScopes", "LifecycleHosting", "LifecycleTesting", "LifecycleWork",
    ]

    public var module: String
    public var mode: Mode
    public var paths: [String]
    public var dependencies: [Dependency]
    /// Text placed in the header, after the generated-file notice (for checked-in manifests: how to
    /// regenerate).
    public var headerNote: [String]
    /// Whether each entry carries a `// File.swift:line` comment. Off for checked-in manifests, which
    /// would otherwise go stale whenever a line is added above a module.
    public var locationComments: Bool
    /// The event capabilities the scan reads and the capability tables list: the built-in events', from the
    /// event table. A test sets more, to show that a new row is all the scanner needs.
    var events = CapabilityScan.events

    public init(
        module: String,
        mode: Mode,
        paths: [String],
        dependencies: [Dependency],
        headerNote: [String] = [],
        locationComments: Bool = true
    ) {
        self.module = module
        self.mode = mode
        self.paths = paths
        self.dependencies = dependencies
        self.headerNote = headerNote
        self.locationComments = locationComments
    }

    /// Scans `sources` (which must hold every path named here) and renders the manifest.
    public func generate(_ sources: ParsedSources) -> Output {
        let contextPaths = dependencies.flatMap(\.paths)
        let known = Set(dependencies.flatMap(\.implies))
        // LifecycleCore's, LifecycleServices', LifecycleMessaging's, LifecycleRouting's and LifecycleWork's own
        // sources declare the capability protocols; elsewhere such a name is a shadow.
        let corePaths = dependencies.filter {
            ["LifecycleCore", "LifecycleServices", "LifecycleMessaging", RoutingScan.module, "LifecycleWork"]
                .contains($0.module)
        }
        .flatMap(\.paths)
        // Interceptors and route patterns, only where LifecycleRouting is linked: elsewhere the names are
        // someone else's.
        let routing = dependencies.contains { $0.module == RoutingScan.module }
        let routingPaths = dependencies.filter { $0.module == RoutingScan.module }.flatMap(\.paths)
        func interceptors(
            in modulePaths: [String]
        ) -> (interceptors: [DiscoveredInterceptor], diagnostics: [ScanDiagnostic]) {
            guard routing else { return ([], []) }
            return RoutingScan.interceptors(
                sources,
                modulePaths: modulePaths,
                contextPaths: contextPaths,
                routingPaths: routingPaths
            )
        }
        let own = ModuleScan.scan(
            sources,
            modulePaths: paths,
            contextPaths: contextPaths,
            knownImplying: known,
            corePaths: corePaths,
            protocolName: "LifecycleModule",
            events: events
        )
        let ownInterceptors = interceptors(in: paths)
        let ownActions = ScopeScan.actions(sources, modulePaths: paths, dependencies: dependencies)
        var diagnostics = own.diagnostics + ownInterceptors.diagnostics + ownActions.diagnostics
        if routing {
            diagnostics += RoutePatternCheck.diagnostics(
                sources,
                modulePaths: paths,
                contextPaths: contextPaths,
                routingPaths: routingPaths
            )
        }
        var included: [String] = []
        // For the service check: every module this target's host can see, and whether any was not scanned.
        var visibleModules = Set(own.modules.map(\.name))
        var servicePaths = paths
        // For the dependency check: the same modules with their Swift modules, and where each file belongs.
        var visible = own.modules.map { DependencyCheck.Visible(swiftModule: module, module: $0) }
        var owners: [String: String] = [:]
        for path in paths { owners[path] = module }
        var everyDependencyScanned = true
        if mode == .aggregate {
            for dependency in dependencies.sorted(by: { $0.module < $1.module })
            where !Self.frameworkModules.contains(dependency.module) {
                if let hasModules = dependency.hasModules, dependency.summary == nil {
                    if hasModules {
                        included.append(dependency.module)
                        everyDependencyScanned = false
                    }
                    continue
                }
                let modules: [DiscoveredModule]
                let hasManifest: Bool
                if let summary = dependency.summary {
                    // Scanned when that target was built: its summary says what the scan found.
                    modules = summary.discoveredModules
                    hasManifest = summary.hasManifest
                } else {
                    // Its own warnings are reported when the dependency itself is built.
                    modules =
                        ModuleScan.scan(
                            sources,
                            modulePaths: dependency.paths,
                            contextPaths: contextPaths,
                            knownImplying: known
                        )
                        .modules
                    // A target of interceptors or scope actions only has a manifest to include too: its routing
                    // or its scopes.
                    let actions = ScopeScan.actions(sources, modulePaths: dependency.paths, dependencies: dependencies)
                    hasManifest =
                        !modules.isEmpty || !interceptors(in: dependency.paths).interceptors.isEmpty
                        || !actions.actions.isEmpty
                }
                if hasManifest { included.append(dependency.module) }
                visibleModules.formUnion(modules.map(\.name))
                servicePaths += dependency.paths
                visible += modules.map { DependencyCheck.Visible(swiftModule: dependency.module, module: $0) }
                // A summary's paths are the files it speaks of.
                for path in dependency.paths { owners[path] = dependency.module }
            }
            diagnostics += ServiceCheck.diagnostics(
                sources.serviceMentions(in: servicePaths).filter { visibleModules.contains($0.type) },
                target: module,
                checkMissing: everyDependencyScanned
            )
        }
        diagnostics += DependencyCheck.diagnostics(
            sources,
            paths: servicePaths,
            visible: visible,
            owners: owners,
            target: module,
            checkDuplicates: mode == .aggregate
        )
        diagnostics.sort { ($0.file, $0.line) < ($1.file, $1.line) }
        // The completeness check compares against every module this target can see, including
        // dependencies where the scanner found nothing: that is where a missed module would hide.
        let scope =
            mode == .aggregate
            ? [module] + dependencies.map(\.module).filter { !Self.frameworkModules.contains($0) }.sorted() : [module]
        return Output(
            text: render(
                own: own.modules,
                interceptors: ownInterceptors.interceptors,
                actions: ownActions.actions,
                included: included,
                scope: scope
            ),
            modules: own.modules,
            interceptors: ownInterceptors.interceptors,
            scopeActions: ownActions.actions,
            diagnostics: diagnostics,
            includedDependencies: included,
            summary: DiscoverySummary(
                module: module,
                hasManifest: !own.modules.isEmpty || !ownInterceptors.interceptors.isEmpty
                    || !ownActions.actions.isEmpty,
                modules: own.modules,
                declarations: sources.declarations(in: paths),
                serviceMentions: sources.serviceMentions(in: paths),
                dependencyMentions: sources.dependencyMentions(in: paths)
            )
        )
    }

    private func render(
        own: [DiscoveredModule],
        interceptors: [DiscoveredInterceptor],
        actions: [DiscoveredScopeAction],
        included: [String],
        scope: [String]
    ) -> String {
        var lines: [String] = []
        lines.append("// Generated by ModuleDiscoveryPlugin from the sources of `\(module)`. Do not edit.")
        lines += headerNote.map { "// \($0)" }
        lines.append("")
        let services = roleLists(own, roles: CapabilityScan.serviceRoles, function: serviceFunctionName)
        let messages = roleLists(own, roles: CapabilityScan.messageRoles, function: messageFunctionName)
        let work = roleLists(own, roles: CapabilityScan.workRoles, function: workFunctionName)
        let routing = routingLists(own, interceptors: interceptors)
        let scopes = scopeActionList(actions)
        let roleImports =
            (messages == nil ? [] : ["import LifecycleMessaging"])
            + (routing == nil ? [] : ["import LifecycleRouting"])
            + (scopes == nil ? [] : ["import LifecycleScopes"])
            + (services == nil ? [] : ["import LifecycleServices"])
            + (work == nil ? [] : ["import LifecycleWork"])
        let roleCalls =
            (services == nil ? "" : servicesCall) + (messages == nil ? "" : messagesCall)
            + (routing == nil ? "" : routingCall) + (scopes == nil ? "" : scopesCall) + (work == nil ? "" : workCall)
        let roleFunctions = (services ?? []) + (messages ?? []) + (routing ?? []) + (scopes ?? []) + (work ?? [])
        switch mode {
        case .library:
            lines.append("public import LifecycleCore")
            lines += roleImports
            lines.append("")
            lines.append("extension ModuleManifest {")
            lines.append("    /// The modules declared in `\(module)`, in source order (file path, then line).")
            lines.append("    public static let \(module) = ModuleManifest(")
            lines += manifestArguments(scope: scope, indent: "        ")
            lines.append("    )" + roleCalls)
            lines.append("}")
            lines += listFunction(own)
            lines += roleFunctions
        case .aggregate:
            lines.append("import LifecycleCore")
            lines += roleImports
            lines += included.map { "import \($0)" }
            lines.append("")
            lines.append("extension ModuleManifest {")
            lines.append(
                "    /// Every module `\(module)` links: the manifests of its dependencies, by module name, then its"
            )
            lines.append("    /// own modules.")
            lines.append("    static let discovered = ModuleManifest(")
            lines.append("        name: \(quoted(module)),")
            lines.append("        combining: [")
            for dependency in included {
                lines.append(
                    "            .\(dependency),  // missing? apply ModuleDiscoveryPlugin to target \(dependency)"
                )
            }
            lines.append("            ModuleManifest(")
            lines += manifestArguments(scope: scope, indent: "                ")
            lines.append("            )" + roleCalls + ",")
            lines.append("        ]")
            lines.append("    )")
            lines.append("}")
            lines += listFunction(own)
            lines += roleFunctions
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The functions that list the modules adopting each of `roles` (the service roles, or the message
    /// role), named by `function`, or `nil` when no module with a capability table adopts one. A module
    /// listed bare (its conformances read at run time) is left to the runtime here too.
    private func roleLists(
        _ modules: [DiscoveredModule],
        roles: [(name: String, list: String)],
        function: (String) -> String
    ) -> [String]? {
        var lines: [String] = []
        var any = false
        for (protocolName, list) in roles {
            let appends = roleAppends(modules, protocolName: protocolName, list: list)
            any = any || !appends.isEmpty
            lines += typeList(function(list), protocolName: protocolName, list: list, appends: appends)
        }
        return any ? lines : nil
    }

    /// The functions that list the route servers (modules adopting `RouteServing`, as for the other roles)
    /// and the global interceptors (types, not modules, each under its `#if` conditions), or `nil` when the
    /// target has neither.
    private func routingLists(_ modules: [DiscoveredModule], interceptors: [DiscoveredInterceptor]) -> [String]? {
        var lines: [String] = []
        var any = false
        for (protocolName, list) in CapabilityScan.routingRoles {
            let appends = roleAppends(modules, protocolName: protocolName, list: list)
            any = any || !appends.isEmpty
            lines += typeList(routingFunctionName(list), protocolName: protocolName, list: list, appends: appends)
        }
        let interceptorAppends = interceptors.flatMap { interceptor in
            conditional(
                "    interceptors.append(\(qualified(interceptor.name)).self)",
                conditions: interceptor.conditions
            )
        }
        guard any || !interceptorAppends.isEmpty else { return nil }
        return lines
            + typeList(
                routingFunctionName("interceptors"),
                protocolName: RoutingScan.interceptorProtocol,
                list: "interceptors",
                appends: interceptorAppends
            )
    }

    /// The `list.append(Module.self)` statements for the modules adopting `protocolName` whose capability
    /// table was generated, each under its `#if` conditions. A module listed bare (its conformances read
    /// at run time) is left to the runtime.
    private func roleAppends(_ modules: [DiscoveredModule], protocolName: String, list: String) -> [String] {
        var appends: [String] = []
        for module in modules {
            guard let capabilities = module.capabilities,
                typeLevelArguments(capabilities, name: module.name) != nil,
                capabilities.contains(where: { $0.name == protocolName })
            else { continue }
            appends += conditional("    \(list).append(\(qualified(module.name)).self)", conditions: module.conditions)
        }
        return appends
    }

    /// A file-scope function named `function` that returns the types `appends` add, as
    /// `[any <protocolName>.Type]`.
    func typeList(_ function: String, protocolName: String, list: String, appends: [String]) -> [String] {
        // An empty list is a literal: a `var` never appended to is a warning in the user's build.
        let body =
            appends.isEmpty
            ? ["    []"] : ["    var \(list): [any \(protocolName).Type] = []"] + appends + ["    return \(list)"]
        return ["", "private func \(function)() -> [any \(protocolName).Type] {"] + body + ["}"]
    }

    /// `line`, wrapped in `#if` … `#endif` when `conditions` is not empty.
    func conditional(_ line: String, conditions: [String]) -> [String] {
        conditions.isEmpty ? [line] : ["#if \(conditions.joined(separator: " && "))", line, "#endif"]
    }

    /// A qualified name with each component backticked where needed.
    func qualified(_ name: String) -> String {
        name.split(separator: ".").map { escapedIdentifier(String($0)) }.joined(separator: ".")
    }

    private func manifestArguments(scope: [String], indent: String) -> [String] {
        [
            "\(indent)name: \(quoted(module)),",
            "\(indent)sourceModules: [\(scope.map(quoted).joined(separator: ", "))],",
            "\(indent)declared: \(listFunctionName)()",
        ]
    }

    /// The list lives in a file-scope function, outside `extension ModuleManifest`, so a type named like
    /// its module (`enum Feature { … }` in target `Feature`) is not shadowed by `ModuleManifest.Feature`.
    ///
    /// Each module is listed with its capability table (`DeclaredModule`): the generated code hands the
    /// module, as its own type, to the `ModuleHooks` method of each capability the scanner read, so the
    /// compiler checks every claim. A module whose conformances the scanner cannot all see is listed bare,
    /// and the host asks the runtime.
    private func listFunction(_ modules: [DiscoveredModule]) -> [String] {
        var lines = ["", "private func \(listFunctionName)() -> [DeclaredModule] {"]
        guard !modules.isEmpty else { return lines + ["    []", "}"] }
        lines.append("    var modules: [DeclaredModule] = []")
        for module in modules {
            let name = module.name.split(separator: ".").map { escapedIdentifier(String($0)) }.joined(separator: ".")
            var notes: [String] = []
            if locationComments { notes.append("\(fileName(module.file)):\(module.line)") }
            if module.capabilities.flatMap({ typeLevelArguments($0, name: name) }) == nil {
                notes.append("conformances read at run time")
            }
            var entry = declaration(of: module, named: name, indent: "    ")
            if !notes.isEmpty { entry[entry.count - 1] += "  // " + notes.joined(separator: "; ") }
            if module.conditions.isEmpty {
                lines += entry
            } else {
                lines.append("#if \(module.conditions.joined(separator: " && "))")
                lines += entry
                lines.append("#endif")
            }
        }
        lines += ["    return modules", "}"]
        return lines
    }

    /// The `modules.append(DeclaredModule(…))` statement for one module.
    private func declaration(of module: DiscoveredModule, named name: String, indent: String) -> [String] {
        guard let capabilities = module.capabilities,
            let typeLevel = typeLevelArguments(capabilities, name: name)
        else {
            return ["\(indent)modules.append(DeclaredModule(\(name).self))"]
        }
        var calls: [String] = []
        for event in events {
            calls += hookCalls(for: event, capabilities, synchronous: module.synchronousHooks, indent: indent + "    ")
        }
        let head = "\(indent)modules.append(DeclaredModule(\(name).self\(typeLevel)) { "
        guard !calls.isEmpty else { return [head + "_, _ in })"] }
        return [head + "module, hooks in", "\(indent)    let module = module as! \(name)"]
            + calls + ["\(indent)})"]
    }

    /// `, dependent: Name.self` and the like, or `nil` when a type-level capability is adopted only under
    /// some `#if` condition (an argument cannot be conditional: the host asks the runtime instead).
    private func typeLevelArguments(_ capabilities: [DiscoveredCapability], name: String) -> String? {
        var arguments = ""
        for (protocolName, argument) in CapabilityScan.typeLevel {
            let adopted = capabilities.filter { $0.name == protocolName }
            if adopted.isEmpty { continue }
            guard adopted.contains(where: \.conditions.isEmpty) else { return nil }
            arguments += ", \(argument): \(name).self"
        }
        for (protocolName, _) in CapabilityScan.roles {
            let adopted = capabilities.filter { $0.name == protocolName }
            if !adopted.isEmpty, !adopted.contains(where: \.conditions.isEmpty) { return nil }
        }
        return arguments
    }

    /// Backticks a name that is a keyword or not a plain identifier (raw identifiers).
    private func escapedIdentifier(_ name: String) -> String {
        let keywords: Set<String> = [
            "default", "class", "struct", "enum", "protocol", "extension", "func", "var", "let", "in", "is", "as",
            "case", "switch", "if", "else", "for", "while", "return", "self", "Self", "Type", "init", "import",
            "operator", "static", "public", "private", "internal", "fileprivate", "where", "throws", "repeat",
        ]
        let plain =
            name.first.map { $0 == "_" || $0.isLetter } == true
            && name.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
        return plain && !keywords.contains(name) ? name : "`\(name)`"
    }

    private func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

import LifecycleEventTable

/// A capability protocol of LifecycleCore that a module type adopts, and the `#if` conditions of the
/// declarations that adopt it, beyond the module's own (empty: whenever the module exists).
public struct DiscoveredCapability: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var conditions: [String]

    public init(name: String, conditions: [String] = []) {
        self.name = name
        self.conditions = conditions
    }

    public var description: String {
        conditions.isEmpty ? name : "\(name) [#if \(conditions.joined(separator: " && "))]"
    }
}

/// Reads which of LifecycleCore's capability protocols a module type adopts: directly, through refined
/// protocols and typealiases, through its superclasses, and through extensions in its own module.
///
/// The answer is `nil` when the type inherits something the scanner cannot see into: a protocol or
/// class from a package it does not scan, or a protocol named like a capability protocol but declared
/// elsewhere. The manifest then lists the type for the host to ask the runtime, which is always right.
struct CapabilityScan {
    /// One event's capability protocols: the asynchronous one, its deprecated synchronous refinement (if
    /// the event keeps one), and the `ModuleHooks` method that takes them; and, when the hook may be a
    /// synchronous function, its shape, to find that function among the module's own.
    struct Event: Sendable, Hashable {
        let async: String
        let sync: String?
        let method: String
        /// The hook a module may implement synchronously, or `nil` (warm-up, custom events).
        var hook: Hook? = nil

        /// A hook's name, argument labels, parameter types and whether it returns a `Bool`.
        struct Hook: Sendable, Hashable {
            let name: String
            let labels: [String]
            let types: [String]
            let answers: Bool
        }
    }

    /// The event capabilities of `table`, in its order, named as it names them, then the custom-event
    /// capability (`ModuleHooks.customEvents(_:)`), which is not an event of the table.
    static func events(from table: [EventDefinition]) -> [Event] {
        table.map { row in
            Event(
                async: row.capability,
                sync: row.syncCapability,
                method: row.name,
                hook: row.hasSyncForm
                    ? Event.Hook(name: row.hook, labels: row.hookLabels, types: row.hookTypes, answers: row.answers)
                    : nil
            )
        } + [Event(async: "CustomEventHandling", sync: nil, method: "customEvents")]
    }

    /// The capabilities of the built-in events, read from ``EventTable``: the scanner and LifecycleCore's
    /// generated protocols and `ModuleHooks` methods come from the same rows.
    static let events = events(from: EventTable.builtins)

    /// The type-level capability protocols, and the `DeclaredModule` argument that names each.
    static let typeLevel: [(name: String, argument: String)] = [
        ("DependentModule", "dependent"), ("EnvironmentGatedModule", "gated"), ("TimeBudgetedModule", "budgeted"),
        ("FailurePolicyModule", "failurePolicy"),
    ]

    /// LifecycleServices' role protocols, and the generated list of the manifest's services that names
    /// each module adopting it (`withServices(providers:requirers:)`).
    static let serviceRoles: [(name: String, list: String)] = [
        ("ServiceProvidingModule", "providers"), ("ServiceRequiringModule", "requirers"),
    ]

    /// LifecycleMessaging's role protocol, and the generated list of the manifest's messages that names
    /// each module adopting it (`withMessages(receivers:)`).
    static let messageRoles: [(name: String, list: String)] = [("MessageReceiving", "receivers")]

    /// LifecycleRouting's role protocol, and the generated list of the manifest's routing that names each
    /// module adopting it (`withRouting(servers:interceptors:)`). Interceptors are not modules:
    /// ``RoutingScan`` finds them.
    static let routingRoles: [(name: String, list: String)] = [("RouteServing", "servers")]

    /// LifecycleWork's role protocol, and the generated list of the manifest's work that names each module
    /// adopting it (`withWork(workers:)`).
    static let workRoles: [(name: String, list: String)] = [("WorkingModule", "workers")]

    /// Every role protocol: adopted only under a condition, it leaves the module to the runtime.
    static let roles: [(name: String, list: String)] = serviceRoles + messageRoles + routingRoles + workRoles

    /// Every capability protocol's name: those of `events`, the type-level ones and the roles.
    static func names(of events: [Event]) -> Set<String> {
        Set(events.flatMap { [$0.async, $0.sync].compactMap { $0 } } + typeLevel.map(\.name) + roles.map(\.name))
    }

    /// Protocols and types from the standard library and Foundation that a module may inherit and that
    /// cannot imply a capability protocol; and LifecycleCore's own root protocols.
    static let opaqueButHarmless: Set<String> = [
        "LifecycleModule", "ApplicationDelegate", "Sendable", "SendableMetatype", "Hashable", "Equatable",
        "Comparable", "Identifiable", "Codable", "Encodable", "Decodable", "CustomStringConvertible",
        "CustomDebugStringConvertible", "LosslessStringConvertible", "CustomReflectable", "CaseIterable",
        "RawRepresentable", "Error", "AnyObject", "Actor", "AnyActor", "Copyable", "Escapable", "BitwiseCopyable",
        "NSObject", "NSObjectProtocol", "String", "Character", "Bool", "Int", "Int8", "Int16", "Int32", "Int64",
        "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
    ]

    /// Protocols, typealiases and classes by name; extensions by the last component of the extended name.
    let inheritable: [String: [Declaration]]
    private let extensions: [String: [Declaration]]
    /// The module's own extensions, by the extended name as written.
    private let ownExtensions: [String: [Declaration]]
    /// Whether scanned code outside LifecycleCore declares a type named like a capability protocol.
    private let shadowed: Bool
    /// Every capability protocol's name (``names(of:)``).
    private let names: Set<String>
    /// The events read.
    let events: [Event]
    /// The module's own functions, by the type they are declared in (``FunctionDeclaration/typeName``).
    let functions: [String: [FunctionDeclaration]]

    /// Indexes `all` (the module's declarations and its dependencies') once, for every module of a scan.
    /// `own` are the module's declarations; `isCore` tells the declarations of LifecycleCore,
    /// LifecycleServices, LifecycleMessaging, LifecycleRouting and LifecycleWork, which declare the
    /// capability protocols.
    /// `events` are the event capabilities to read: the built-in events' unless a test adds one. `functions`
    /// are the functions of the module's own files, where its synchronous hooks are found.
    init(
        own: [Declaration],
        all: [Declaration],
        functions: [FunctionDeclaration] = [],
        events: [Event] = Self.events,
        isCore: (Declaration) -> Bool
    ) {
        let names = Self.names(of: events)
        var inheritable: [String: [Declaration]] = [:]
        var extensions: [String: [Declaration]] = [:]
        var shadowed = false
        for declaration in all {
            switch declaration.kind {
            case .protocol, .typealias, .class:
                inheritable[declaration.name, default: []].append(declaration)
            case .extension:
                let last = declaration.name.split(separator: ".").last.map(String.init) ?? declaration.name
                extensions[last, default: []].append(declaration)
            default:
                break
            }
            if declaration.kind != .extension, names.contains(declaration.name), !isCore(declaration) {
                shadowed = true
            }
        }
        var ownExtensions: [String: [Declaration]] = [:]
        for declaration in own where declaration.kind == .extension {
            ownExtensions[declaration.name, default: []].append(declaration)
        }
        self.inheritable = inheritable
        self.extensions = extensions
        self.ownExtensions = ownExtensions
        self.shadowed = shadowed
        self.names = names
        self.events = events
        self.functions = Dictionary(grouping: functions, by: \.typeName)
    }

    /// The capability protocols `declaration` (a module type named `name`) adopts, or `nil` if it
    /// inherits something the scanner cannot see into. `entryConditions` are the conditions the manifest
    /// entry already carries; capabilities adopted under just those are unconditional.
    func capabilities(
        of declaration: Declaration,
        named name: String,
        entryConditions: [String]
    ) -> [DiscoveredCapability]? {
        // A capability protocol's name declared outside LifecycleCore means something else there.
        if shadowed { return nil }
        var pending: [(name: String, conditions: [String])] = declaration.inherits.map { ($0, []) }
        for extensionDeclaration in ownExtensions[name] ?? [] {
            let extra = extensionDeclaration.conditions.filter { !entryConditions.contains($0) }
            pending += extensionDeclaration.inherits.map { ($0, extra) }
        }
        var seen: Set<String> = []
        var found: [DiscoveredCapability] = []
        while let (inherited, conditions) = pending.popLast() {
            guard seen.insert(([inherited] + conditions).joined(separator: "\u{0}")).inserted else { continue }
            if names.contains(inherited) {
                found.append(DiscoveredCapability(name: inherited, conditions: conditions))
                continue
            }
            if Self.opaqueButHarmless.contains(inherited) { continue }
            guard let matches = inheritable[inherited] else { return nil }
            for match in matches {
                pending += match.inherits.map { ($0, conditions) }
                guard match.kind == .class else { continue }
                // A superclass's conformances, including those its extensions add.
                for extensionDeclaration in extensions[inherited] ?? [] {
                    let isOwn = ownExtensions[extensionDeclaration.name]?.contains(extensionDeclaration) ?? false
                    if !isOwn && !extensionDeclaration.conditions.isEmpty { return nil }
                    let extra = isOwn ? extensionDeclaration.conditions.filter { !entryConditions.contains($0) } : []
                    pending += extensionDeclaration.inherits.map { ($0, Self.unique(conditions + extra)) }
                }
            }
        }
        return Self.normalized(found)
    }

    /// One entry per capability: unconditional if any route adopts it unconditionally, else one per
    /// distinct set of conditions; sorted by name, then conditions.
    private static func normalized(_ found: [DiscoveredCapability]) -> [DiscoveredCapability] {
        var byName: [String: [[String]]] = [:]
        for capability in found { byName[capability.name, default: []].append(capability.conditions) }
        var result: [DiscoveredCapability] = []
        for (name, sets) in byName {
            if sets.contains(where: \.isEmpty) {
                result.append(DiscoveredCapability(name: name))
            } else {
                var distinct: [[String]] = []
                for set in sets where !distinct.contains(set) { distinct.append(set) }
                result += distinct.map { DiscoveredCapability(name: name, conditions: $0) }
            }
        }
        return result.sorted {
            ($0.name, $0.conditions.joined(separator: "&&")) < ($1.name, $1.conditions.joined(separator: "&&"))
        }
    }

    private static func unique(_ conditions: [String]) -> [String] {
        var seen: Set<String> = []
        return conditions.filter { seen.insert($0).inserted }
    }
}

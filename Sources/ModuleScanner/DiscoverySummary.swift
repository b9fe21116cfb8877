public import Foundation

/// What one library target's discovery tells the targets that depend on it, so that they read this instead
/// of scanning its sources again.
///
/// Each library target's build command writes two files next to its manifest, each only when its bytes
/// change (Docs/Discovery.md, "Build cost"):
///
/// - the summary, which executables and tests read: the target's declarations, its modules, and the
///   services and dependencies its types name, with their lines, for the checks of everything linked
///   together;
/// - its interface (``interface``), which libraries read: the declarations alone, without lines, because a
///   library needs a dependency's refined protocols, typealiases and base classes only as context for its
///   own conformances.
///
/// A dependent's command takes these files as inputs in place of the target's sources. Touching a file
/// then reruns its own target's discovery only; an edit that moves lines reruns the executables' and
/// tests' discovery too; only a change to what a library reads reruns the libraries that depend on it.
public struct DiscoverySummary: Sendable, Hashable {
    /// The format, written into every file. A file of another version is not used: the sources are
    /// scanned instead.
    static let currentVersion = 1

    /// A registered module: enough for the aggregate's dependency checks.
    struct Module: Sendable, Hashable {
        var name: String
        var conditions: [String]
        var file: String
        var line: Int
    }

    /// The Swift module summarised.
    public var module: String
    /// Whether the target declares modules, global route interceptors or scope actions: whether an
    /// aggregate includes its manifest.
    public var hasManifest: Bool
    var modules: [Module]
    var declarations: [Declaration]
    var serviceMentions: [ServiceMention]
    var dependencyMentions: [DependencyMention]

    init(
        module: String,
        hasManifest: Bool,
        modules: [DiscoveredModule],
        declarations: [Declaration],
        serviceMentions: [ServiceMention],
        dependencyMentions: [DependencyMention]
    ) {
        self.module = module
        self.hasManifest = hasManifest
        self.modules = modules.map { Module(name: $0.name, conditions: $0.conditions, file: $0.file, line: $0.line) }
        self.declarations = declarations
        self.serviceMentions = serviceMentions
        self.dependencyMentions = dependencyMentions
    }

    /// What a library that depends on the target reads: its declarations without their lines, so that an
    /// edit that only moves code leaves it unchanged. Modules and mentions are for the aggregate's checks.
    public var interface: DiscoverySummary {
        var interface = self
        interface.modules = []
        interface.serviceMentions = []
        interface.dependencyMentions = []
        for index in interface.declarations.indices { interface.declarations[index].line = 0 }
        return interface
    }

    /// The summarised target's modules, as its own scan found them (capabilities are not carried).
    var discoveredModules: [DiscoveredModule] {
        modules.map { DiscoveredModule(name: $0.name, conditions: $0.conditions, file: $0.file, line: $0.line) }
    }

    /// Every source file the summary speaks of: the files its declarations and mentions come from.
    var files: Set<String> {
        Set(declarations.map(\.file) + serviceMentions.map(\.file) + dependencyMentions.map(\.file))
    }

    /// The summary as compact JSON: the same facts give the same bytes.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Encoding(self))
    }

    /// The summary at `path`, or `nil` when there is none, it cannot be read, or it is of another version or
    /// another module: then the caller scans that target's sources.
    static func read(_ path: String, module: String) -> DiscoverySummary? {
        guard let data = FileManager.default.contents(atPath: path),
            let encoding = try? JSONDecoder().decode(Encoding.self, from: data),
            encoding.version == currentVersion, encoding.module == module
        else { return nil }
        return encoding.summary
    }
}

extension DiscoverySummary {
    /// The file format: records as arrays, file paths as indexes into one table. A dependent of every
    /// target reads them all on each run, so the format is sized for that (about 20 bytes per declaration
    /// besides its names).
    struct Encoding: Codable {
        var version: Int
        var module: String
        var hasManifest: Bool
        var files: [String]
        var modules: [ModuleRecord]
        var declarations: [DeclarationRecord]
        var services: [ServiceRecord]
        var dependencies: [DependencyRecord]

        init(_ summary: DiscoverySummary) {
            var table: [String: Int] = [:]
            var files: [String] = []
            func index(_ file: String) -> Int {
                if let index = table[file] { return index }
                table[file] = files.count
                files.append(file)
                return files.count - 1
            }
            version = DiscoverySummary.currentVersion
            module = summary.module
            hasManifest = summary.hasManifest
            modules = summary.modules.map { ModuleRecord($0, file: index($0.file)) }
            declarations = summary.declarations.map { DeclarationRecord($0, file: index($0.file)) }
            services = summary.serviceMentions.map { ServiceRecord($0, file: index($0.file)) }
            dependencies = summary.dependencyMentions.map { DependencyRecord($0, file: index($0.file)) }
            self.files = files
        }

        var summary: DiscoverySummary? {
            func file(_ index: Int) -> String? { files.indices.contains(index) ? files[index] : nil }
            var summary = DiscoverySummary(
                module: module,
                hasManifest: hasManifest,
                modules: [],
                declarations: [],
                serviceMentions: [],
                dependencyMentions: []
            )
            for record in modules {
                guard let path = file(record.file) else { return nil }
                summary.modules.append(
                    Module(name: record.name, conditions: record.conditions, file: path, line: record.line)
                )
            }
            for record in declarations {
                guard let path = file(record.file), let declaration = record.declaration(file: path) else { return nil }
                summary.declarations.append(declaration)
            }
            for record in services {
                guard let path = file(record.file), let role = ServiceMention.Role(rawValue: record.role) else {
                    return nil
                }
                summary.serviceMentions.append(
                    ServiceMention(
                        type: record.type,
                        service: record.service,
                        role: role,
                        file: path,
                        line: record.line
                    )
                )
            }
            for record in dependencies {
                guard let path = file(record.file) else { return nil }
                summary.dependencyMentions.append(
                    DependencyMention(type: record.type, dependency: record.dependency, file: path, line: record.line)
                )
            }
            return summary
        }
    }

    /// `[name, conditions, file, line]`
    struct ModuleRecord: Codable {
        var name: String
        var conditions: [String]
        var file: Int
        var line: Int

        init(_ module: Module, file: Int) {
            (name, conditions, self.file, line) = (module.name, module.conditions, file, module.line)
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            name = try container.decode(String.self)
            conditions = try container.decode([String].self)
            file = try container.decode(Int.self)
            line = try container.decode(Int.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(name)
            try container.encode(conditions)
            try container.encode(file)
            try container.encode(line)
        }
    }

    /// `[kind, name, scope, inherits, flags, conditions, file, line]`; flags: 1 generic, 2 in a generic
    /// scope, 4 private, 8 local.
    struct DeclarationRecord: Codable {
        var kind: String
        var name: String
        var scope: [String]
        var inherits: [String]
        var flags: Int
        var conditions: [String]
        var file: Int
        var line: Int

        init(_ declaration: Declaration, file: Int) {
            kind = declaration.kind.rawValue
            name = declaration.name
            scope = declaration.scope
            inherits = declaration.inherits
            flags =
                (declaration.isGeneric ? 1 : 0) | (declaration.isInGenericScope ? 2 : 0)
                | (declaration.isPrivate ? 4 : 0) | (declaration.isLocal ? 8 : 0)
            conditions = declaration.conditions
            self.file = file
            line = declaration.line
        }

        func declaration(file path: String) -> Declaration? {
            guard let kind = Declaration.Kind(rawValue: kind) else { return nil }
            return Declaration(
                kind: kind,
                name: name,
                scope: scope,
                inherits: inherits,
                isGeneric: flags & 1 != 0,
                isInGenericScope: flags & 2 != 0,
                isPrivate: flags & 4 != 0,
                isLocal: flags & 8 != 0,
                conditions: conditions,
                file: path,
                line: line
            )
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            kind = try container.decode(String.self)
            name = try container.decode(String.self)
            scope = try container.decode([String].self)
            inherits = try container.decode([String].self)
            flags = try container.decode(Int.self)
            conditions = try container.decode([String].self)
            file = try container.decode(Int.self)
            line = try container.decode(Int.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(kind)
            try container.encode(name)
            try container.encode(scope)
            try container.encode(inherits)
            try container.encode(flags)
            try container.encode(conditions)
            try container.encode(file)
            try container.encode(line)
        }
    }

    /// `[type, service, role, file, line]`
    struct ServiceRecord: Codable {
        var type: String
        var service: String
        var role: String
        var file: Int
        var line: Int

        init(_ mention: ServiceMention, file: Int) {
            (type, service, role, self.file, line) = (
                mention.type, mention.service, mention.role.rawValue, file, mention.line
            )
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            type = try container.decode(String.self)
            service = try container.decode(String.self)
            role = try container.decode(String.self)
            file = try container.decode(Int.self)
            line = try container.decode(Int.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(type)
            try container.encode(service)
            try container.encode(role)
            try container.encode(file)
            try container.encode(line)
        }
    }

    /// `[type, dependency, file, line]`
    struct DependencyRecord: Codable {
        var type: String
        var dependency: String
        var file: Int
        var line: Int

        init(_ mention: DependencyMention, file: Int) {
            (type, dependency, self.file, line) = (mention.type, mention.dependency, file, mention.line)
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            type = try container.decode(String.self)
            dependency = try container.decode(String.self)
            file = try container.decode(Int.self)
            line = try container.decode(Int.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(type)
            try container.encode(dependency)
            try container.encode(file)
            try container.encode(line)
        }
    }
}

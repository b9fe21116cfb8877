public import LifecycleCore
import LifecycleProxy

extension ModuleManifest {
    /// This manifest with work: every host built from it runs the work of its modules that adopt
    /// ``WorkingModule``, found by asking the runtime once per module. A generated manifest lists them
    /// instead (`withWork(workers:)`); calling this on it as well sets `stopOrder` and keeps the list.
    ///
    /// - Parameter stopOrder: How works that stop together are ordered (``WorkStopOrder``); `.reverse` by
    ///   default.
    public func withWork(stopOrder: WorkStopOrder = .reverse) -> ModuleManifest {
        adding(WorkPreparation(declared: nil, stopOrder: stopOrder))
    }

    /// This manifest with work, whose working modules are listed: what the discovery plugin generates, so a
    /// host asks the runtime nothing. Entries not in the list are asked, as `withWork(stopOrder:)` asks.
    public func withWork(workers: [any WorkingModule.Type]) -> ModuleManifest {
        adding(
            WorkPreparation(
                declared: Dictionary(workers.map { (ObjectIdentifier($0), $0) }) { first, _ in first },
                stopOrder: nil
            )
        )
    }
}

/// Gives each host a ``WorkSupervisor``, checks every working module's work before anything is created,
/// and tells the supervisor the modules whenever the host installs them.
struct WorkPreparation: ManifestPreparation {
    var key: String { "LifecycleWork" }
    /// The working modules a generated manifest listed, by type.
    let declared: [ObjectIdentifier: any WorkingModule.Type]?
    /// The stop order asked for, if one was.
    let stopOrder: WorkStopOrder?

    func merged(with other: any ManifestPreparation) -> any ManifestPreparation {
        guard let other = other as? WorkPreparation else { return self }
        let declared: [ObjectIdentifier: any WorkingModule.Type]? =
            switch (declared, other.declared) {
            case (let mine?, let theirs?): mine.merging(theirs) { first, _ in first }
            case (let mine, let theirs): mine ?? theirs
            }
        return WorkPreparation(declared: declared, stopOrder: stopOrder ?? other.stopOrder)
    }

    func workerType(of type: any LifecycleModule.Type) -> (any WorkingModule.Type)? {
        declared?[ObjectIdentifier(type)] ?? (type as? any WorkingModule.Type)
    }

    func work(of type: any LifecycleModule.Type) -> [WorkDeclaration]? {
        workerType(of: type)?.declaredWork
    }

    func prepare(_ manifest: ModuleManifest, launchOptions: inout LaunchOptions) throws -> ModuleManifest {
        try check(manifest.entries.map(\.type))
        launchOptions[HostWorkKey.self] = WorkSupervisor(stopOrder: stopOrder ?? .reverse)
        return manifest
    }

    func validate(adding type: any LifecycleModule.Type, context: LifecycleContext) throws {
        try check([type])
    }

    func install(_ modules: [InstalledModule], context: LifecycleContext) {
        (context.launchOptions[HostWorkKey.self] as? WorkSupervisor)?.install(modules, context: context, work: work)
    }

    func uninstall(context: LifecycleContext) {
        (context.launchOptions[HostWorkKey.self] as? WorkSupervisor)?.uninstall()
    }

    /// Refuses modules among `types` that declare two works with one name, or a policy that cannot work.
    private func check(_ types: [any LifecycleModule.Type]) throws(ManifestError) {
        var problems: [(module: String, problem: String)] = []
        for type in types {
            guard let work = work(of: type) else { continue }
            var names: Set<String> = []
            for declaration in work {
                if !names.insert(declaration.name).inserted {
                    problems.append(
                        (type.moduleName, "declares two works named `\(declaration.name)`: name each work once")
                    )
                }
                if declaration.name.isEmpty {
                    problems.append((type.moduleName, "declares a work with an empty name: name it"))
                }
                if let problem = declaration.policy.problem {
                    problems.append((type.moduleName, "work `\(declaration.name)`: \(problem)"))
                }
            }
        }
        guard problems.isEmpty else {
            throw ManifestError(
                code: .invalidWork,
                modules: problems.map(\.module),
                description: problems.map { "`\($0.module)` \($0.problem)" }.joined(separator: "; ")
                    + ". Nothing was created."
            )
        }
    }
}

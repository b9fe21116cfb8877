import Foundation
import LifecycleCore
import LifecycleProxy

/// An ordered log of deliveries, written by the fixture participants as "event Name".
final class Journal: Sendable {
    private let storage = Locked<[String]>([])

    func record(_ entry: String) { storage.withLock { $0.append(entry) } }

    var entries: [String] { storage.withLock { $0 } }

    /// The entries for one event, as participant names in delivery order.
    func receivers(of event: String) -> [String] {
        entries.compactMap { entry in
            let parts = entry.split(separator: " ", maxSplits: 1).map(String.init)
            return parts.count == 2 && parts[0] == event ? parts[1] : nil
        }
    }
}

/// The launch options the fixtures read: where to record, what to answer, what to throw.
struct Script: Sendable {
    var journal = Journal()
    /// Answers for Bool events, by "Name event"; unlisted answers are `false`.
    var answers: [String: Bool] = [:]
    /// "Name event" pairs whose hook throws ``FixtureFailure``.
    var failing: Set<String> = []

    func answer(_ name: String, _ event: String) -> Bool { answers["\(name) \(event)"] ?? false }

    func perform(_ name: String, _ event: String) throws {
        journal.record("\(event) \(name)")
        if failing.contains("\(name) \(event)") { throw FixtureFailure(participant: name, event: event) }
    }
}

enum ScriptKey: LaunchOptionKey {
    static let defaultValue = Script()
}

struct FixtureFailure: Error, Equatable, CustomStringConvertible {
    var participant: String
    var event: String
    var description: String { "\(participant) failed in \(event)" }
}

/// A participant that implements every built-in event and records each delivery in the script's journal.
protocol RecordsEverything: WillFinishLaunching, DidFinishLaunching, WillEnterForeground, DidBecomeActive,
    WillResignActive, DidEnterBackground, WillTerminate, DidReceiveMemoryWarning, OpenURL
{
    var script: Script { get }
    static var shortName: String { get }
}

extension RecordsEverything {
    static var shortName: String { String(describing: Self.self) }

    func willFinishLaunching(_ context: LifecycleContext) throws -> Bool {
        try script.perform(Self.shortName, "willFinishLaunching")
        return script.answer(Self.shortName, "willFinishLaunching")
    }
    func didFinishLaunching(_ context: LifecycleContext) throws -> Bool {
        try script.perform(Self.shortName, "didFinishLaunching")
        return script.answer(Self.shortName, "didFinishLaunching")
    }
    func willEnterForeground(_ context: LifecycleContext) throws {
        try script.perform(Self.shortName, "willEnterForeground")
    }
    func didBecomeActive(_ context: LifecycleContext) throws { try script.perform(Self.shortName, "didBecomeActive") }
    func willResignActive(_ context: LifecycleContext) throws { try script.perform(Self.shortName, "willResignActive") }
    func didEnterBackground(_ context: LifecycleContext) throws {
        try script.perform(Self.shortName, "didEnterBackground")
    }
    func willTerminate(_ context: LifecycleContext) throws { try script.perform(Self.shortName, "willTerminate") }
    func didReceiveMemoryWarning(_ context: LifecycleContext) throws {
        try script.perform(Self.shortName, "didReceiveMemoryWarning")
    }
    func open(_ url: URL, context: LifecycleContext) throws -> Bool {
        try script.perform(Self.shortName, "openURL")
        return script.answer(Self.shortName, "openURL")
    }
}

/// A module that implements every built-in event.
protocol RecordingModule: LifecycleModule, RecordsEverything {
    init(script: Script)
}

extension RecordingModule {
    init(context: LifecycleContext) { self.init(script: context.launchOptions[ScriptKey.self]) }
}

struct High: RecordingModule {
    static let priority: ModulePriority = .high
    let script: Script
}

struct NormalA: RecordingModule {
    static let priority: ModulePriority = .normal
    let script: Script
}

struct NormalB: RecordingModule {
    static let priority: ModulePriority = .normal
    let script: Script
}

struct Low: RecordingModule {
    static let priority: ModulePriority = .low
    let script: Script
}

struct Between: RecordingModule {
    static let priority: ModulePriority = 7_500
    let script: Script
}

/// A module that implements no event at all.
struct Silent: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

/// A module that implements only `openURL`.
struct URLOnly: LifecycleModule, OpenURL {
    static let priority: ModulePriority = .normal
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }

    func open(_ url: URL, context: LifecycleContext) throws -> Bool {
        try script.perform("URLOnly", "openURL")
        return script.answer("URLOnly", "openURL")
    }
}

/// The program's delegate, implementing every built-in event.
struct Delegate: ApplicationDelegate, RecordsEverything {
    static let shortName = "Delegate"
    let script: Script
}

/// The program's delegate, implementing only `didReceiveMemoryWarning`.
struct MemoryWarningDelegate: ApplicationDelegate, DidReceiveMemoryWarning {
    func didReceiveMemoryWarning(_ context: LifecycleContext) {}
}

/// Builds a host over `modules` with the given script.
func makeHost(
    _ modules: [any LifecycleModule.Type],
    delegate: Bool = false,
    script: Script = Script(),
    configuration: ApplicationHost.Configuration = .init()
) throws -> ApplicationHost {
    var options = LaunchOptions(arguments: ["test"])
    options[ScriptKey.self] = script
    return try ApplicationHost(
        manifest: ModuleManifest(name: "Tests", modules),
        delegate: delegate ? Delegate(script: script) : nil,
        launchOptions: options,
        configuration: configuration
    )
}

/// Builds a stand-alone proxy over `modules` with the given script.
func makeProxy(
    _ modules: [any LifecycleModule.Type],
    delegate: (any ApplicationDelegate)? = nil,
    script: Script = Script()
) throws -> DelegateProxy {
    var options = LaunchOptions()
    options[ScriptKey.self] = script
    return try DelegateProxy(
        manifest: ModuleManifest(name: "Tests", modules),
        delegate: delegate,
        launchOptions: options
    )
}

extension DelegateProxy {
    /// Delivers `event` through the proxy alone, without a host, over the package's dispatcher seam.
    func deliverDirectly(_ event: LifecycleEvent) async -> EventOutcome<Bool> {
        await deliver(event, scope: .all, observer: nil, from: 0, supervisor: nil)
    }

    /// Delivers open-URL for `url` through the proxy alone.
    func openDirectly(_ url: URL) async -> EventOutcome<Bool> {
        await open(url, observer: nil, from: 0, supervisor: nil)
    }

    /// Delivers the custom event `event` through the proxy alone.
    func deliverDirectly<E: CustomEvent>(_ event: E) async -> EventOutcome<E.Result> {
        await deliver(event, observer: nil, from: 0, supervisor: nil)
    }
}

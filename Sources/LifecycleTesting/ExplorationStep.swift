#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import LifecycleCore

/// One thing a random lifecycle asks of the host: a transition, a memory warning, a URL to open, or an
/// action of the test's own.
///
/// ``LifecycleExploration`` draws the steps from a seed. Most are allowed in the state the host is in;
/// about one in ten is drawn from every step, so invalid transitions (each a typed
/// `LifecycleError.Code.invalidTransition`) are explored too.
public enum ExplorationStep: Sendable, Hashable, CustomStringConvertible {
    /// `launch()`.
    case launch
    /// `resignActive()`.
    case resignActive
    /// `becomeActive()`.
    case becomeActive
    /// `enterBackground()`.
    case enterBackground
    /// `enterForeground()`.
    case enterForeground
    /// `receiveMemoryWarning()`.
    case memoryWarning
    /// `open(_:)` with this URL, one of ``LifecycleExploration/urls``.
    case openURL(URL)
    /// The test's own ``ExplorationAction`` of this name.
    case action(String)
    /// `remove(_:)` of the manifest's module of this name (``LifecycleExploration/changesMembership``).
    case remove(String)
    /// `register(_:)` of the manifest's module of this name, after it was removed.
    case register(String)
    /// `releaseQuarantine(_:)` of the manifest's module of this name, after faults put it in quarantine.
    case releaseQuarantine(String)
    /// `terminate()`. Every lifecycle ends with one, drawn or not.
    case terminate

    public var description: String {
        switch self {
        case .launch: "launch"
        case .resignActive: "resignActive"
        case .becomeActive: "becomeActive"
        case .enterBackground: "enterBackground"
        case .enterForeground: "enterForeground"
        case .memoryWarning: "memoryWarning"
        case .openURL(let url): "open \(url.absoluteString)"
        case .action(let name): "action \(name)"
        case .remove(let name): "remove \(name)"
        case .register(let name): "register \(name)"
        case .releaseQuarantine(let name): "releaseQuarantine \(name)"
        case .terminate: "terminate"
        }
    }

    /// The host request the step makes, for the state machine's table; `nil` for an action.
    var request: HostRequest.Kind? {
        switch self {
        case .launch: .launch
        case .resignActive: .resignActive
        case .becomeActive: .becomeActive
        case .enterBackground: .enterBackground
        case .enterForeground: .enterForeground
        case .memoryWarning: .memoryWarning
        case .openURL(let url): .openURL(url)
        case .action, .remove, .register, .releaseQuarantine: nil
        case .terminate: .terminate
        }
    }

    /// Takes the step on `host`, with the actions and modules of `exploration`.
    func take(on host: ApplicationHost, in exploration: LifecycleExploration) async throws {
        switch self {
        case .launch: _ = try await host.launch()
        case .resignActive: try await host.resignActive()
        case .becomeActive: try await host.becomeActive()
        case .enterBackground: try await host.enterBackground()
        case .enterForeground: try await host.enterForeground()
        case .memoryWarning: try await host.receiveMemoryWarning()
        case .openURL(let url): _ = try await host.open(url)
        case .action(let name):
            guard let action = exploration.actions.first(where: { $0.name == name }) else { return }
            try await action.perform(host)
        case .remove(let name):
            guard let module = exploration.module(named: name) else { return }
            try await host.remove(module)
        case .register(let name):
            guard let module = exploration.module(named: name) else { return }
            try await host.register(module)
        case .releaseQuarantine(let name):
            guard let module = exploration.module(named: name) else { return }
            try await host.releaseQuarantine(module)
        case .terminate: try await host.terminate()
        }
    }
}

/// Something the test does to its host during a random lifecycle, beside the host's own transitions:
/// send a custom event, call a module's service, register or remove a module.
///
/// ```swift
/// ExplorationAction("flush") { host in
///     _ = try await host.send(FlushCaches())
/// }
/// ```
///
/// An action is drawn only while the host is running (`active`, `inactive` or `background`). What it
/// throws is the step's error (``LifecycleSnapshot/error``), not a failure of the exploration: an
/// invariant decides whether it is one.
public struct ExplorationAction: Sendable {
    /// The action's name, as steps and reports show it. Unique among the exploration's actions.
    public let name: String
    let perform: @Sendable (ApplicationHost) async throws -> Void

    /// Creates an action named `name` that does `perform` to the host.
    public init(_ name: String, perform: @escaping @Sendable (ApplicationHost) async throws -> Void) {
        self.name = name
        self.perform = perform
    }
}

public import LifecycleCore
public import LifecycleProxy

/// Who a host was built with: its participants in order, the modules its environment disabled, and the
/// receivers of every event, as they stood when
/// ``launchManifest(_:delegate:launchOptions:profile:clock:configuration:)`` built the host.
public struct LaunchPlan: Sendable {
    /// A module of the manifest that the launch options disabled (see `EnvironmentGatedModule`).
    public struct DisabledModule: Sendable, Hashable {
        /// The module's module-qualified type name.
        public let name: String
        /// Why the module is disabled, as its `enablement(for:)` said.
        public let reason: String
    }

    /// Every participant: the program's delegate first if there is one, then modules in delivery order.
    public let participants: [Participant]
    /// The manifest's disabled modules, in manifest order. They were not created and receive nothing.
    public let disabledModules: [DisabledModule]
    private let receivers: [LifecycleEvent: [Participant]]

    init(_ host: ApplicationHost) {
        participants = host.participants
        disabledModules = host.disabledModules.map { DisabledModule(name: $0.name, reason: $0.reason) }
        let events = LifecycleEvent.builtinEvents + host.customEvents
        receivers = Dictionary(uniqueKeysWithValues: events.map { ($0, host.plan(for: $0)) })
    }

    /// The participants that receive `event`, in delivery order.
    public func receivers(of event: LifecycleEvent) -> [Participant] { receivers[event] ?? [] }

    /// Why `module` is disabled, or `nil` when the manifest's module takes part (or is not in the manifest).
    public func disabledReason(for module: any LifecycleModule.Type) -> String? {
        let name = module.moduleName
        return disabledModules.first { $0.name == name }?.reason
    }
}

/// A manifest launched by ``launchManifest(_:delegate:launchOptions:profile:clock:configuration:)``: the
/// host, its plan, what launch delivered, and how launch ended.
public struct ManifestLaunch: Sendable {
    /// The host, now past launch (`active`, or `terminated` after an aborted launch). Drive it further as
    /// usual; ``recorder`` keeps recording.
    public let host: ApplicationHost
    /// Records every delivery of ``host``, launch included.
    public let recorder: LifecycleRecorder
    /// The clock ``host`` measures time limits on. It moves only when the test advances it.
    public let clock: VirtualClock
    /// The participants and disabled modules, as built.
    public let plan: LaunchPlan
    /// The deliveries of launch, and of the requests its hooks posted, in order.
    public let deliveries: [DeliveryRecord]
    /// What `launch()` returned or threw.
    public let outcome: Result<LaunchResult, LifecycleError>

    /// The launch result, or `nil` when launch threw.
    public var result: LaunchResult? {
        guard case .success(let result) = outcome else { return nil }
        return result
    }

    /// What launch threw — typically `hookFailed`, or `launchAborted` under an aborting failure policy — or
    /// `nil` when it succeeded.
    public var error: LifecycleError? {
        guard case .failure(let error) = outcome else { return nil }
        return error
    }
}

/// Builds a host over `manifest` as a program would, launches it, and returns everything a test checks.
///
/// ```swift
/// let launch = try await launchManifest(.TestingExample, profile: "staging")
/// expectReceivers(of: .didFinishLaunching, in: launch.recorder, [DatabasePoolModule.self, CacheModule.self])
/// ```
///
/// A launch that fails does not throw: its error is in ``ManifestLaunch/error``, with what was delivered
/// before and during the rollback in ``ManifestLaunch/deliveries``. After `launch()` returns, the helper
/// waits until the host is idle, so requests posted by launch hooks are delivered and recorded too.
///
/// The host measures its time limits on `clock`, never on real time: budgets expire only when the test
/// advances the clock, so tests of time limits run instantly. To advance it while launch runs, create the
/// clock yourself and call this from a task.
///
/// - Parameters:
///   - manifest: The modules to launch, for example the plugin's `ModuleManifest.discovered`.
///   - delegate: The program's own delegate, if the test wants one.
///   - launchOptions: What modules read from their context. Empty by default, so a test never depends on the
///     arguments or environment of the test runner.
///   - profile: The launch profile, stored under `LaunchProfileKey`; `nil` keeps whatever `launchOptions`
///     says.
///   - clock: The clock the host measures time limits on. It replaces `configuration.clock`.
///   - configuration: The host's settings. Its `onDelivery`, if any, is still called, after the recorder.
/// - Throws: `ManifestError` when the host cannot be built: an invalid manifest, a missing dependency,
///   or a module initializer that throws.
public func launchManifest(
    _ manifest: ModuleManifest,
    delegate: (any ApplicationDelegate)? = nil,
    launchOptions: LaunchOptions = LaunchOptions(),
    profile: String? = nil,
    clock: VirtualClock = VirtualClock(),
    configuration: ApplicationHost.Configuration = ApplicationHost.Configuration()
) async throws(ManifestError) -> ManifestLaunch {
    let recorder = LifecycleRecorder()
    var configuration = configuration
    configuration.clock = clock
    if let observer = configuration.onDelivery {
        configuration.onDelivery = { record in
            recorder.record(record)
            observer(record)
        }
    } else {
        configuration.onDelivery = recorder.observer
    }
    var options = launchOptions
    if let profile { options[LaunchProfileKey.self] = profile }
    let host = try ApplicationHost(
        manifest: manifest,
        delegate: delegate,
        launchOptions: options,
        configuration: configuration
    )
    let plan = LaunchPlan(host)
    let outcome: Result<LaunchResult, LifecycleError>
    do {
        outcome = .success(try await host.launch())
    } catch {
        outcome = .failure(error)
    }
    // Throws only inside one of the host's own hooks, where launch() above would have failed the same way.
    try? await host.waitUntilIdle()
    return ManifestLaunch(
        host: host,
        recorder: recorder,
        clock: clock,
        plan: plan,
        deliveries: recorder.deliveries,
        outcome: outcome
    )
}

/// A participant's hook for one event, in the form it adopted: the asynchronous capability protocol, or
/// its synchronous refinement, which the proxy calls without an `await`.
package enum HookForm<Hook: Sendable, SyncHook: Sendable>: Sendable {
    case async(Hook)
    case sync(SyncHook)

    /// `"async"` or `"sync"`, for messages.
    package var name: String {
        switch self {
        case .async: return "async"
        case .sync: return "sync"
        }
    }
}

/// A participant's hooks, one per event it handles, typed by the event's capability protocol: what the
/// delegate proxy needs to fan events out.
///
/// A generated manifest fills it for each module without asking the runtime: its code hands the module,
/// typed as its concrete type, to the method of each capability the discovery plugin read from the
/// source, so the compiler checks every claim (see ``DeclaredModule``). For the program's delegate, and
/// for modules listed by hand, the proxy fills it with runtime casts instead.
///
/// ```swift
/// DeclaredModule(CacheModule.self) { module, hooks in
///     let module = module as! CacheModule
///     hooks.didBecomeActive(sync: module)
///     hooks.willTerminate(module)
/// }
/// ```
public struct ModuleHooks: Sendable {
    package private(set) var willFinishLaunchingHook: HookForm<any WillFinishLaunching, any SyncWillFinishLaunching>?
    package private(set) var setupHook: HookForm<any SetupStage, any SyncSetupStage>?
    package private(set) var initializeHook: HookForm<any InitializeStage, any SyncInitializeStage>?
    package private(set) var warmUpHook: HookForm<any WarmUpStage, Never>?
    package private(set) var didFinishLaunchingHook: HookForm<any DidFinishLaunching, any SyncDidFinishLaunching>?
    package private(set) var willEnterForegroundHook: HookForm<any WillEnterForeground, any SyncWillEnterForeground>?
    package private(set) var didBecomeActiveHook: HookForm<any DidBecomeActive, any SyncDidBecomeActive>?
    package private(set) var willResignActiveHook: HookForm<any WillResignActive, any SyncWillResignActive>?
    package private(set) var didEnterBackgroundHook: HookForm<any DidEnterBackground, any SyncDidEnterBackground>?
    package private(set) var willTerminateHook: HookForm<any WillTerminate, any SyncWillTerminate>?
    package private(set) var didReceiveMemoryWarningHook:
        HookForm<any DidReceiveMemoryWarning, any SyncDidReceiveMemoryWarning>?
    package private(set) var openURLHook: HookForm<any OpenURL, any SyncOpenURL>?
    package private(set) var customEventHandler: (any CustomEventHandling)?

    package init() {}

    /// The participant handles ``LifecycleEvent/willFinishLaunching`` through ``WillFinishLaunching``.
    public mutating func willFinishLaunching(_ hook: any WillFinishLaunching) { willFinishLaunchingHook = .async(hook) }
    /// The participant handles ``LifecycleEvent/willFinishLaunching`` through ``SyncWillFinishLaunching``, called without an `await`.
    public mutating func willFinishLaunching(sync hook: any SyncWillFinishLaunching) {
        willFinishLaunchingHook = .sync(hook)
    }

    /// The participant handles ``LifecycleEvent/setup`` through ``SetupStage``.
    public mutating func setup(_ hook: any SetupStage) { setupHook = .async(hook) }
    /// The participant handles ``LifecycleEvent/setup`` through ``SyncSetupStage``, called without an `await`.
    public mutating func setup(sync hook: any SyncSetupStage) { setupHook = .sync(hook) }

    /// The participant handles ``LifecycleEvent/initialize`` through ``InitializeStage``.
    public mutating func initialize(_ hook: any InitializeStage) { initializeHook = .async(hook) }
    /// The participant handles ``LifecycleEvent/initialize`` through ``SyncInitializeStage``, called without an `await`.
    public mutating func initialize(sync hook: any SyncInitializeStage) { initializeHook = .sync(hook) }

    /// The participant handles ``LifecycleEvent/warmUp`` through ``WarmUpStage``.
    public mutating func warmUp(_ hook: any WarmUpStage) { warmUpHook = .async(hook) }

    /// The participant handles ``LifecycleEvent/didFinishLaunching`` through ``DidFinishLaunching``.
    public mutating func didFinishLaunching(_ hook: any DidFinishLaunching) { didFinishLaunchingHook = .async(hook) }
    /// The participant handles ``LifecycleEvent/didFinishLaunching`` through ``SyncDidFinishLaunching``, called without an `await`.
    public mutating func didFinishLaunching(sync hook: any SyncDidFinishLaunching) {
        didFinishLaunchingHook = .sync(hook)
    }

    /// The participant handles ``LifecycleEvent/willEnterForeground`` through ``WillEnterForeground``.
    public mutating func willEnterForeground(_ hook: any WillEnterForeground) { willEnterForegroundHook = .async(hook) }
    /// The participant handles ``LifecycleEvent/willEnterForeground`` through ``SyncWillEnterForeground``, called without an `await`.
    public mutating func willEnterForeground(sync hook: any SyncWillEnterForeground) {
        willEnterForegroundHook = .sync(hook)
    }

    /// The participant handles ``LifecycleEvent/didBecomeActive`` through ``DidBecomeActive``.
    public mutating func didBecomeActive(_ hook: any DidBecomeActive) { didBecomeActiveHook = .async(hook) }
    /// The participant handles ``LifecycleEvent/didBecomeActive`` through ``SyncDidBecomeActive``, called without an `await`.
    public mutating func didBecomeActive(sync hook: any SyncDidBecomeActive) { didBecomeActiveHook = .sync(hook) }

    /// The participant handles ``LifecycleEvent/willResignActive`` through ``WillResignActive``.
    public mutating func willResignActive(_ hook: any WillResignActive) { willResignActiveHook = .async(hook) }
    /// The participant handles ``LifecycleEvent/willResignActive`` through ``SyncWillResignActive``, called without an `await`.
    public mutating func willResignActive(sync hook: any SyncWillResignActive) { willResignActiveHook = .sync(hook) }

    /// The participant handles ``LifecycleEvent/didEnterBackground`` through ``DidEnterBackground``.
    public mutating func didEnterBackground(_ hook: any DidEnterBackground) { didEnterBackgroundHook = .async(hook) }
    /// The participant handles ``LifecycleEvent/didEnterBackground`` through ``SyncDidEnterBackground``, called without an `await`.
    public mutating func didEnterBackground(sync hook: any SyncDidEnterBackground) {
        didEnterBackgroundHook = .sync(hook)
    }

    /// The participant handles ``LifecycleEvent/willTerminate`` through ``WillTerminate``.
    public mutating func willTerminate(_ hook: any WillTerminate) { willTerminateHook = .async(hook) }
    /// The participant handles ``LifecycleEvent/willTerminate`` through ``SyncWillTerminate``, called without an `await`.
    public mutating func willTerminate(sync hook: any SyncWillTerminate) { willTerminateHook = .sync(hook) }

    /// The participant handles ``LifecycleEvent/didReceiveMemoryWarning`` through ``DidReceiveMemoryWarning``.
    public mutating func didReceiveMemoryWarning(_ hook: any DidReceiveMemoryWarning) {
        didReceiveMemoryWarningHook = .async(hook)
    }
    /// The participant handles ``LifecycleEvent/didReceiveMemoryWarning`` through ``SyncDidReceiveMemoryWarning``, called without an `await`.
    public mutating func didReceiveMemoryWarning(sync hook: any SyncDidReceiveMemoryWarning) {
        didReceiveMemoryWarningHook = .sync(hook)
    }

    /// The participant handles ``LifecycleEvent/openURL`` through ``OpenURL``.
    public mutating func openURL(_ hook: any OpenURL) { openURLHook = .async(hook) }
    /// The participant handles ``LifecycleEvent/openURL`` through ``SyncOpenURL``, called without an `await`.
    public mutating func openURL(sync hook: any SyncOpenURL) { openURLHook = .sync(hook) }

    /// The participant handles custom events (``CustomEventHandling``).
    public mutating func customEvents(_ handler: any CustomEventHandling) { customEventHandler = handler }

    /// The hooks of `participant`, found by asking the runtime whether it conforms to each capability
    /// protocol: the path for the program's delegate and for modules without a declaration. Each cast
    /// that fails scans the conformance records of the process, once per type and protocol. The
    /// asynchronous protocol is asked first: the synchronous one refines it, so a participant that does
    /// not handle an event costs one check, not two.
    package init(casting participant: any Sendable) {
        if let hook = participant as? any WillFinishLaunching {
            if let sync = participant as? any SyncWillFinishLaunching {
                willFinishLaunchingHook = .sync(sync)
            } else {
                willFinishLaunchingHook = .async(hook)
            }
        }
        if let hook = participant as? any SetupStage {
            if let sync = participant as? any SyncSetupStage {
                setupHook = .sync(sync)
            } else {
                setupHook = .async(hook)
            }
        }
        if let hook = participant as? any InitializeStage {
            if let sync = participant as? any SyncInitializeStage {
                initializeHook = .sync(sync)
            } else {
                initializeHook = .async(hook)
            }
        }
        if let hook = participant as? any WarmUpStage { warmUpHook = .async(hook) }
        if let hook = participant as? any DidFinishLaunching {
            if let sync = participant as? any SyncDidFinishLaunching {
                didFinishLaunchingHook = .sync(sync)
            } else {
                didFinishLaunchingHook = .async(hook)
            }
        }
        if let hook = participant as? any WillEnterForeground {
            if let sync = participant as? any SyncWillEnterForeground {
                willEnterForegroundHook = .sync(sync)
            } else {
                willEnterForegroundHook = .async(hook)
            }
        }
        if let hook = participant as? any DidBecomeActive {
            if let sync = participant as? any SyncDidBecomeActive {
                didBecomeActiveHook = .sync(sync)
            } else {
                didBecomeActiveHook = .async(hook)
            }
        }
        if let hook = participant as? any WillResignActive {
            if let sync = participant as? any SyncWillResignActive {
                willResignActiveHook = .sync(sync)
            } else {
                willResignActiveHook = .async(hook)
            }
        }
        if let hook = participant as? any DidEnterBackground {
            if let sync = participant as? any SyncDidEnterBackground {
                didEnterBackgroundHook = .sync(sync)
            } else {
                didEnterBackgroundHook = .async(hook)
            }
        }
        if let hook = participant as? any WillTerminate {
            if let sync = participant as? any SyncWillTerminate {
                willTerminateHook = .sync(sync)
            } else {
                willTerminateHook = .async(hook)
            }
        }
        if let hook = participant as? any DidReceiveMemoryWarning {
            if let sync = participant as? any SyncDidReceiveMemoryWarning {
                didReceiveMemoryWarningHook = .sync(sync)
            } else {
                didReceiveMemoryWarningHook = .async(hook)
            }
        }
        if let hook = participant as? any OpenURL {
            if let sync = participant as? any SyncOpenURL {
                openURLHook = .sync(sync)
            } else {
                openURLHook = .async(hook)
            }
        }
        customEventHandler = participant as? any CustomEventHandling
    }

    /// What the participant handles, and in which form, one line per event: `"didBecomeActive (sync)"`. Two
    /// hook sets of one participant agree when their shapes are equal.
    package var shape: [String] {
        var lines: [String] = []
        if let form = willFinishLaunchingHook { lines.append("willFinishLaunching (\(form.name))") }
        if let form = setupHook { lines.append("setup (\(form.name))") }
        if let form = initializeHook { lines.append("initialize (\(form.name))") }
        if let form = warmUpHook { lines.append("warmUp (\(form.name))") }
        if let form = didFinishLaunchingHook { lines.append("didFinishLaunching (\(form.name))") }
        if let form = willEnterForegroundHook { lines.append("willEnterForeground (\(form.name))") }
        if let form = didBecomeActiveHook { lines.append("didBecomeActive (\(form.name))") }
        if let form = willResignActiveHook { lines.append("willResignActive (\(form.name))") }
        if let form = didEnterBackgroundHook { lines.append("didEnterBackground (\(form.name))") }
        if let form = willTerminateHook { lines.append("willTerminate (\(form.name))") }
        if let form = didReceiveMemoryWarningHook { lines.append("didReceiveMemoryWarning (\(form.name))") }
        if let form = openURLHook { lines.append("openURL (\(form.name))") }
        if customEventHandler != nil { lines.append("custom events") }
        return lines
    }
}

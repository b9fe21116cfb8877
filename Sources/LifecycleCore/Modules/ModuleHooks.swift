/// The participants' hooks, gathered per event: what the delegate proxy fans events out with.
///
/// The proxy sets the position to each participant in turn and adds its hooks. A generated manifest adds
/// a module's hooks without asking the runtime: its code hands the module, as its concrete type, to the
/// method of each capability the discovery plugin read from the source, so the compiler checks every
/// claim (see ``DeclaredModule``). For the program's delegate, and for modules listed by hand, the proxy
/// adds them with runtime casts instead.
///
/// ```swift
/// DeclaredModule(CacheModule.self) { module, hooks in
///     let module = module as! CacheModule
///     hooks.didBecomeActive(sync: module)
///     hooks.willTerminate(module)
/// }
/// ```
public struct ModuleHooks: Sendable {
    /// The position of the participant whose hooks are being added.
    package var position = 0

    package private(set) var willFinishLaunchingHooks = HookList<any WillFinishLaunching, any SyncWillFinishLaunching>()
    package private(set) var setupHooks = HookList<any SetupStage, any SyncSetupStage>()
    package private(set) var initializeHooks = HookList<any InitializeStage, any SyncInitializeStage>()
    package private(set) var warmUpHooks = HookList<any WarmUpStage, Never>()
    package private(set) var didFinishLaunchingHooks = HookList<any DidFinishLaunching, any SyncDidFinishLaunching>()
    package private(set) var willEnterForegroundHooks = HookList<any WillEnterForeground, any SyncWillEnterForeground>()
    package private(set) var didBecomeActiveHooks = HookList<any DidBecomeActive, any SyncDidBecomeActive>()
    package private(set) var willResignActiveHooks = HookList<any WillResignActive, any SyncWillResignActive>()
    package private(set) var didEnterBackgroundHooks = HookList<any DidEnterBackground, any SyncDidEnterBackground>()
    package private(set) var willTerminateHooks = HookList<any WillTerminate, any SyncWillTerminate>()
    package private(set) var didReceiveMemoryWarningHooks = HookList<
        any DidReceiveMemoryWarning, any SyncDidReceiveMemoryWarning
    >()
    package private(set) var openURLHooks = HookList<any OpenURL, any SyncOpenURL>()
    package private(set) var customEventHandlers: [(position: Int, handler: any CustomEventHandling)] = []

    package init() {}

    /// The participant handles ``LifecycleEvent/willFinishLaunching`` through ``WillFinishLaunching``.
    public mutating func willFinishLaunching(_ hook: any WillFinishLaunching) {
        willFinishLaunchingHooks.append(hook, at: position)
    }
    /// The participant handles ``LifecycleEvent/willFinishLaunching`` through ``SyncWillFinishLaunching``, called without an `await`.
    public mutating func willFinishLaunching(sync hook: any SyncWillFinishLaunching) {
        willFinishLaunchingHooks.append(sync: hook, at: position)
    }

    /// The participant handles ``LifecycleEvent/setup`` through ``SetupStage``.
    public mutating func setup(_ hook: any SetupStage) { setupHooks.append(hook, at: position) }
    /// The participant handles ``LifecycleEvent/setup`` through ``SyncSetupStage``, called without an `await`.
    public mutating func setup(sync hook: any SyncSetupStage) { setupHooks.append(sync: hook, at: position) }

    /// The participant handles ``LifecycleEvent/initialize`` through ``InitializeStage``.
    public mutating func initialize(_ hook: any InitializeStage) { initializeHooks.append(hook, at: position) }
    /// The participant handles ``LifecycleEvent/initialize`` through ``SyncInitializeStage``, called without an `await`.
    public mutating func initialize(sync hook: any SyncInitializeStage) {
        initializeHooks.append(sync: hook, at: position)
    }

    /// The participant handles ``LifecycleEvent/warmUp`` through ``WarmUpStage``.
    public mutating func warmUp(_ hook: any WarmUpStage) { warmUpHooks.append(hook, at: position) }

    /// The participant handles ``LifecycleEvent/didFinishLaunching`` through ``DidFinishLaunching``.
    public mutating func didFinishLaunching(_ hook: any DidFinishLaunching) {
        didFinishLaunchingHooks.append(hook, at: position)
    }
    /// The participant handles ``LifecycleEvent/didFinishLaunching`` through ``SyncDidFinishLaunching``, called without an `await`.
    public mutating func didFinishLaunching(sync hook: any SyncDidFinishLaunching) {
        didFinishLaunchingHooks.append(sync: hook, at: position)
    }

    /// The participant handles ``LifecycleEvent/willEnterForeground`` through ``WillEnterForeground``.
    public mutating func willEnterForeground(_ hook: any WillEnterForeground) {
        willEnterForegroundHooks.append(hook, at: position)
    }
    /// The participant handles ``LifecycleEvent/willEnterForeground`` through ``SyncWillEnterForeground``, called without an `await`.
    public mutating func willEnterForeground(sync hook: any SyncWillEnterForeground) {
        willEnterForegroundHooks.append(sync: hook, at: position)
    }

    /// The participant handles ``LifecycleEvent/didBecomeActive`` through ``DidBecomeActive``.
    public mutating func didBecomeActive(_ hook: any DidBecomeActive) {
        didBecomeActiveHooks.append(hook, at: position)
    }
    /// The participant handles ``LifecycleEvent/didBecomeActive`` through ``SyncDidBecomeActive``, called without an `await`.
    public mutating func didBecomeActive(sync hook: any SyncDidBecomeActive) {
        didBecomeActiveHooks.append(sync: hook, at: position)
    }

    /// The participant handles ``LifecycleEvent/willResignActive`` through ``WillResignActive``.
    public mutating func willResignActive(_ hook: any WillResignActive) {
        willResignActiveHooks.append(hook, at: position)
    }
    /// The participant handles ``LifecycleEvent/willResignActive`` through ``SyncWillResignActive``, called without an `await`.
    public mutating func willResignActive(sync hook: any SyncWillResignActive) {
        willResignActiveHooks.append(sync: hook, at: position)
    }

    /// The participant handles ``LifecycleEvent/didEnterBackground`` through ``DidEnterBackground``.
    public mutating func didEnterBackground(_ hook: any DidEnterBackground) {
        didEnterBackgroundHooks.append(hook, at: position)
    }
    /// The participant handles ``LifecycleEvent/didEnterBackground`` through ``SyncDidEnterBackground``, called without an `await`.
    public mutating func didEnterBackground(sync hook: any SyncDidEnterBackground) {
        didEnterBackgroundHooks.append(sync: hook, at: position)
    }

    /// The participant handles ``LifecycleEvent/willTerminate`` through ``WillTerminate``.
    public mutating func willTerminate(_ hook: any WillTerminate) { willTerminateHooks.append(hook, at: position) }
    /// The participant handles ``LifecycleEvent/willTerminate`` through ``SyncWillTerminate``, called without an `await`.
    public mutating func willTerminate(sync hook: any SyncWillTerminate) {
        willTerminateHooks.append(sync: hook, at: position)
    }

    /// The participant handles ``LifecycleEvent/didReceiveMemoryWarning`` through ``DidReceiveMemoryWarning``.
    public mutating func didReceiveMemoryWarning(_ hook: any DidReceiveMemoryWarning) {
        didReceiveMemoryWarningHooks.append(hook, at: position)
    }
    /// The participant handles ``LifecycleEvent/didReceiveMemoryWarning`` through ``SyncDidReceiveMemoryWarning``, called without an `await`.
    public mutating func didReceiveMemoryWarning(sync hook: any SyncDidReceiveMemoryWarning) {
        didReceiveMemoryWarningHooks.append(sync: hook, at: position)
    }

    /// The participant handles ``LifecycleEvent/openURL`` through ``OpenURL``.
    public mutating func openURL(_ hook: any OpenURL) { openURLHooks.append(hook, at: position) }
    /// The participant handles ``LifecycleEvent/openURL`` through ``SyncOpenURL``, called without an `await`.
    public mutating func openURL(sync hook: any SyncOpenURL) { openURLHooks.append(sync: hook, at: position) }

    /// The participant handles custom events (``CustomEventHandling``).
    public mutating func customEvents(_ handler: any CustomEventHandling) {
        guard customEventHandlers.last?.position != position else { return }
        customEventHandlers.append((position, handler))
    }

    /// Adds the hooks of `participant` by asking the runtime whether it conforms to each capability
    /// protocol: the path for the program's delegate and for modules without a declaration. Each cast that
    /// fails scans the conformance records of the process, once per type and protocol. The asynchronous
    /// protocol is asked first: the synchronous one refines it, so a participant that does not handle an
    /// event costs one check, not two.
    package mutating func add(casting participant: any Sendable) {
        if let hook = participant as? any WillFinishLaunching {
            if let sync = participant as? any SyncWillFinishLaunching {
                willFinishLaunching(sync: sync)
            } else {
                willFinishLaunching(hook)
            }
        }
        if let hook = participant as? any SetupStage {
            if let sync = participant as? any SyncSetupStage { setup(sync: sync) } else { setup(hook) }
        }
        if let hook = participant as? any InitializeStage {
            if let sync = participant as? any SyncInitializeStage { initialize(sync: sync) } else { initialize(hook) }
        }
        if let hook = participant as? any WarmUpStage { warmUp(hook) }
        if let hook = participant as? any DidFinishLaunching {
            if let sync = participant as? any SyncDidFinishLaunching {
                didFinishLaunching(sync: sync)
            } else {
                didFinishLaunching(hook)
            }
        }
        if let hook = participant as? any WillEnterForeground {
            if let sync = participant as? any SyncWillEnterForeground {
                willEnterForeground(sync: sync)
            } else {
                willEnterForeground(hook)
            }
        }
        if let hook = participant as? any DidBecomeActive {
            if let sync = participant as? any SyncDidBecomeActive {
                didBecomeActive(sync: sync)
            } else {
                didBecomeActive(hook)
            }
        }
        if let hook = participant as? any WillResignActive {
            if let sync = participant as? any SyncWillResignActive {
                willResignActive(sync: sync)
            } else {
                willResignActive(hook)
            }
        }
        if let hook = participant as? any DidEnterBackground {
            if let sync = participant as? any SyncDidEnterBackground {
                didEnterBackground(sync: sync)
            } else {
                didEnterBackground(hook)
            }
        }
        if let hook = participant as? any WillTerminate {
            if let sync = participant as? any SyncWillTerminate {
                willTerminate(sync: sync)
            } else {
                willTerminate(hook)
            }
        }
        if let hook = participant as? any DidReceiveMemoryWarning {
            if let sync = participant as? any SyncDidReceiveMemoryWarning {
                didReceiveMemoryWarning(sync: sync)
            } else {
                didReceiveMemoryWarning(hook)
            }
        }
        if let hook = participant as? any OpenURL {
            if let sync = participant as? any SyncOpenURL { openURL(sync: sync) } else { openURL(hook) }
        }
        if let handler = participant as? any CustomEventHandling { customEvents(handler) }
    }

    /// What the participant at `position` handles, and in which form, one line per event:
    /// `"didBecomeActive (sync)"`. Two declarations of one participant agree when their shapes are equal.
    package func shape(at position: Int) -> [String] {
        var lines: [String] = []
        if let line = willFinishLaunchingHooks.shape("willFinishLaunching", at: position) { lines.append(line) }
        if let line = setupHooks.shape("setup", at: position) { lines.append(line) }
        if let line = initializeHooks.shape("initialize", at: position) { lines.append(line) }
        if let line = warmUpHooks.shape("warmUp", at: position) { lines.append(line) }
        if let line = didFinishLaunchingHooks.shape("didFinishLaunching", at: position) { lines.append(line) }
        if let line = willEnterForegroundHooks.shape("willEnterForeground", at: position) { lines.append(line) }
        if let line = didBecomeActiveHooks.shape("didBecomeActive", at: position) { lines.append(line) }
        if let line = willResignActiveHooks.shape("willResignActive", at: position) { lines.append(line) }
        if let line = didEnterBackgroundHooks.shape("didEnterBackground", at: position) { lines.append(line) }
        if let line = willTerminateHooks.shape("willTerminate", at: position) { lines.append(line) }
        if let line = didReceiveMemoryWarningHooks.shape("didReceiveMemoryWarning", at: position) { lines.append(line) }
        if let line = openURLHooks.shape("openURL", at: position) { lines.append(line) }
        if customEventHandlers.contains(where: { $0.position == position }) { lines.append("custom events") }
        return lines
    }
}

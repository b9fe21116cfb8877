#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

// One small capability protocol per event. A participant (a module or the program's delegate) adopts
// exactly the protocols of the events it handles; the delegate proxy learns which participants handle an
// event from these conformances, once, when it is built, without calling any hook.
//
// Every hook is `async throws`. A plain synchronous function satisfies an `async` requirement, so a module
// whose hook does not await writes an ordinary function. A hook that throws does not stop delivery to the
// other participants; see `ApplicationHost` for how failures are reported.

/// Handles ``LifecycleEvent/willFinishLaunching``, the first launch event.
public protocol WillFinishLaunching: Sendable {
    /// Called when launch begins, before ``DidFinishLaunching/didFinishLaunching(_:)``.
    ///
    /// - Returns: Your vote for the launch result. All votes are OR-combined.
    func willFinishLaunching(_ context: LifecycleContext) async throws -> Bool
}

/// Handles ``LifecycleEvent/setup``, the first launch stage.
public protocol SetupStage: Sendable {
    /// Called after ``WillFinishLaunching/willFinishLaunching(_:)``, in delivery order: prepare what other
    /// modules will need.
    func setUp(_ context: LifecycleContext) async throws
}

/// Handles ``LifecycleEvent/initialize``, the second launch stage.
public protocol InitializeStage: Sendable {
    /// Called after every participant's ``SetupStage/setUp(_:)``, in delivery order.
    func initialize(_ context: LifecycleContext) async throws
}

/// Handles ``LifecycleEvent/warmUp``, the concurrent launch stage.
public protocol WarmUpStage: Sendable {
    /// Called after every participant's ``InitializeStage/initialize(_:)``, concurrently with other
    /// modules' warm-up: a module starts as soon as every module it depends on has finished its own.
    /// Whether ``DidFinishLaunching/didFinishLaunching(_:)`` waits for it is the host's choice
    /// (`Configuration.didFinishLaunchingWaitsForWarmUp`); `ApplicationHost.waitUntilReady()` always does.
    func warmUp(_ context: LifecycleContext) async throws
}

/// Handles ``LifecycleEvent/didFinishLaunching``, the second launch event.
public protocol DidFinishLaunching: Sendable {
    /// Called after every participant has received ``WillFinishLaunching/willFinishLaunching(_:)``.
    ///
    /// - Returns: Your vote for the launch result. All votes are OR-combined.
    func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool
}

/// Handles ``LifecycleEvent/willEnterForeground``.
public protocol WillEnterForeground: Sendable {
    /// Called when the host leaves the background, before it becomes active again.
    func willEnterForeground(_ context: LifecycleContext) async throws
}

/// Handles ``LifecycleEvent/didBecomeActive``.
public protocol DidBecomeActive: Sendable {
    /// Called whenever the host becomes active: at the end of launch and when it returns to the foreground.
    func didBecomeActive(_ context: LifecycleContext) async throws
}

/// Handles ``LifecycleEvent/willResignActive``. Delivered in reverse order.
public protocol WillResignActive: Sendable {
    /// Called whenever the host stops being active: on `resignActive()`, and on `enterBackground()` from
    /// `active`, before ``DidEnterBackground/didEnterBackground(_:)``.
    func willResignActive(_ context: LifecycleContext) async throws
}

/// Handles ``LifecycleEvent/didEnterBackground``. Delivered in reverse order.
public protocol DidEnterBackground: Sendable {
    /// Called when the host has entered the background.
    func didEnterBackground(_ context: LifecycleContext) async throws
}

/// Handles ``LifecycleEvent/willTerminate``. Delivered in reverse order.
public protocol WillTerminate: Sendable {
    /// Called once, when the host terminates. Release what the module holds here.
    func willTerminate(_ context: LifecycleContext) async throws
}

/// Handles ``LifecycleEvent/didReceiveMemoryWarning``.
public protocol DidReceiveMemoryWarning: Sendable {
    /// Called when the host is asked to free memory: drop caches and anything that can be rebuilt.
    func didReceiveMemoryWarning(_ context: LifecycleContext) async throws
}

/// Handles ``LifecycleEvent/openURL``.
public protocol OpenURL: Sendable {
    /// Called to ask the participant to handle `url`.
    ///
    /// Every implementer is called, even after one has handled the URL.
    ///
    /// - Returns: `true` if this participant handled the URL. All results are OR-combined.
    func open(_ url: URL, context: LifecycleContext) async throws -> Bool
}

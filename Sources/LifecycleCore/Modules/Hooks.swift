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
//
// Each event but warm-up also has a synchronous form, `Sync…`, which refines the asynchronous protocol
// with a non-`async` requirement of the same name. A participant that adopts it is called without an
// `await`: the proxy walks a run of synchronous implementers as a plain loop, at the cost of a direct
// call. Delivery order and results do not depend on the form.

/// Handles ``LifecycleEvent/willFinishLaunching``, the first launch event.
public protocol WillFinishLaunching: Sendable {
    /// Called when launch begins, before ``DidFinishLaunching/didFinishLaunching(_:)``.
    ///
    /// - Returns: Your vote for the launch result. All votes are OR-combined.
    func willFinishLaunching(_ context: LifecycleContext) async throws -> Bool
}

/// The synchronous form of ``WillFinishLaunching``: the same hook, called without an `await`.
///
/// Adopt it instead of ``WillFinishLaunching`` when the hook never suspends; the one non-`async` function satisfies both
/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.
/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through
/// a synchronous function or closure.
public protocol SyncWillFinishLaunching: WillFinishLaunching {
    /// ``WillFinishLaunching/willFinishLaunching(_:)``, without suspending.
    func willFinishLaunching(_ context: LifecycleContext) throws -> Bool
}

/// Handles ``LifecycleEvent/setup``, the first launch stage.
public protocol SetupStage: Sendable {
    /// Called after ``WillFinishLaunching/willFinishLaunching(_:)``, in delivery order: prepare what other
    /// modules will need.
    func setUp(_ context: LifecycleContext) async throws
}

/// The synchronous form of ``SetupStage``: the same hook, called without an `await`.
///
/// Adopt it instead of ``SetupStage`` when the hook never suspends; the one non-`async` function satisfies both
/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.
/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through
/// a synchronous function or closure.
public protocol SyncSetupStage: SetupStage {
    /// ``SetupStage/setUp(_:)``, without suspending.
    func setUp(_ context: LifecycleContext) throws
}

/// Handles ``LifecycleEvent/initialize``, the second launch stage.
public protocol InitializeStage: Sendable {
    /// Called after every participant's ``SetupStage/setUp(_:)``, in delivery order.
    func initialize(_ context: LifecycleContext) async throws
}

/// The synchronous form of ``InitializeStage``: the same hook, called without an `await`.
///
/// Adopt it instead of ``InitializeStage`` when the hook never suspends; the one non-`async` function satisfies both
/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.
/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through
/// a synchronous function or closure.
public protocol SyncInitializeStage: InitializeStage {
    /// ``InitializeStage/initialize(_:)``, without suspending.
    func initialize(_ context: LifecycleContext) throws
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

/// The synchronous form of ``DidFinishLaunching``: the same hook, called without an `await`.
///
/// Adopt it instead of ``DidFinishLaunching`` when the hook never suspends; the one non-`async` function satisfies both
/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.
/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through
/// a synchronous function or closure.
public protocol SyncDidFinishLaunching: DidFinishLaunching {
    /// ``DidFinishLaunching/didFinishLaunching(_:)``, without suspending.
    func didFinishLaunching(_ context: LifecycleContext) throws -> Bool
}

/// Handles ``LifecycleEvent/willEnterForeground``.
public protocol WillEnterForeground: Sendable {
    /// Called when the host leaves the background, before it becomes active again.
    func willEnterForeground(_ context: LifecycleContext) async throws
}

/// The synchronous form of ``WillEnterForeground``: the same hook, called without an `await`.
///
/// Adopt it instead of ``WillEnterForeground`` when the hook never suspends; the one non-`async` function satisfies both
/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.
/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through
/// a synchronous function or closure.
public protocol SyncWillEnterForeground: WillEnterForeground {
    /// ``WillEnterForeground/willEnterForeground(_:)``, without suspending.
    func willEnterForeground(_ context: LifecycleContext) throws
}

/// Handles ``LifecycleEvent/didBecomeActive``.
public protocol DidBecomeActive: Sendable {
    /// Called whenever the host becomes active: at the end of launch and when it returns to the foreground.
    func didBecomeActive(_ context: LifecycleContext) async throws
}

/// The synchronous form of ``DidBecomeActive``: the same hook, called without an `await`.
///
/// Adopt it instead of ``DidBecomeActive`` when the hook never suspends; the one non-`async` function satisfies both
/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.
/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through
/// a synchronous function or closure.
public protocol SyncDidBecomeActive: DidBecomeActive {
    /// ``DidBecomeActive/didBecomeActive(_:)``, without suspending.
    func didBecomeActive(_ context: LifecycleContext) throws
}

/// Handles ``LifecycleEvent/willResignActive``. Delivered in reverse order.
public protocol WillResignActive: Sendable {
    /// Called whenever the host stops being active: on `resignActive()`, and on `enterBackground()` from
    /// `active`, before ``DidEnterBackground/didEnterBackground(_:)``.
    func willResignActive(_ context: LifecycleContext) async throws
}

/// The synchronous form of ``WillResignActive``: the same hook, called without an `await`.
///
/// Adopt it instead of ``WillResignActive`` when the hook never suspends; the one non-`async` function satisfies both
/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.
/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through
/// a synchronous function or closure.
public protocol SyncWillResignActive: WillResignActive {
    /// ``WillResignActive/willResignActive(_:)``, without suspending.
    func willResignActive(_ context: LifecycleContext) throws
}

/// Handles ``LifecycleEvent/didEnterBackground``. Delivered in reverse order.
public protocol DidEnterBackground: Sendable {
    /// Called when the host has entered the background.
    func didEnterBackground(_ context: LifecycleContext) async throws
}

/// The synchronous form of ``DidEnterBackground``: the same hook, called without an `await`.
///
/// Adopt it instead of ``DidEnterBackground`` when the hook never suspends; the one non-`async` function satisfies both
/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.
/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through
/// a synchronous function or closure.
public protocol SyncDidEnterBackground: DidEnterBackground {
    /// ``DidEnterBackground/didEnterBackground(_:)``, without suspending.
    func didEnterBackground(_ context: LifecycleContext) throws
}

/// Handles ``LifecycleEvent/willTerminate``. Delivered in reverse order.
public protocol WillTerminate: Sendable {
    /// Called once, when the host terminates. Release what the module holds here.
    func willTerminate(_ context: LifecycleContext) async throws
}

/// The synchronous form of ``WillTerminate``: the same hook, called without an `await`.
///
/// Adopt it instead of ``WillTerminate`` when the hook never suspends; the one non-`async` function satisfies both
/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.
/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through
/// a synchronous function or closure.
public protocol SyncWillTerminate: WillTerminate {
    /// ``WillTerminate/willTerminate(_:)``, without suspending.
    func willTerminate(_ context: LifecycleContext) throws
}

/// Handles ``LifecycleEvent/didReceiveMemoryWarning``.
public protocol DidReceiveMemoryWarning: Sendable {
    /// Called when the host is asked to free memory: drop caches and anything that can be rebuilt.
    func didReceiveMemoryWarning(_ context: LifecycleContext) async throws
}

/// The synchronous form of ``DidReceiveMemoryWarning``: the same hook, called without an `await`.
///
/// Adopt it instead of ``DidReceiveMemoryWarning`` when the hook never suspends; the one non-`async` function satisfies both
/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.
/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through
/// a synchronous function or closure.
public protocol SyncDidReceiveMemoryWarning: DidReceiveMemoryWarning {
    /// ``DidReceiveMemoryWarning/didReceiveMemoryWarning(_:)``, without suspending.
    func didReceiveMemoryWarning(_ context: LifecycleContext) throws
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

/// The synchronous form of ``OpenURL``: the same hook, called without an `await`.
///
/// Adopt it instead of ``OpenURL`` when the hook never suspends; the one non-`async` function satisfies both
/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.
/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through
/// a synchronous function or closure.
public protocol SyncOpenURL: OpenURL {
    /// ``OpenURL/open(_:context:)``, without suspending.
    func open(_ url: URL, context: LifecycleContext) throws -> Bool
}

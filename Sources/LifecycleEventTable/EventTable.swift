/// The built-in lifecycle events, in one table: the one place an event is added or renamed.
///
/// Everything that handles every event derives from it, so none can disagree with another:
/// - The discovery plugin's scanner reads it when it runs: which capability protocols a module adopts, and
///   which `ModuleHooks` method the generated manifest hands the module to (`CapabilityScan.events`).
/// - LifecycleCore and LifecycleProxy compile Swift generated from it (``EventSources``): the capability
///   protocols, `LifecycleEvent`'s cases with their direction and result rule, `ModuleHooks`' hook lists and
///   registration methods, and the proxy's implementer lists and fan-out of each event. The files are
///   checked in; `Scripts/generate-events.sh` rewrites them, and `EventTableTests` fails while they are
///   stale.
///
/// What the table does not say is when the host emits an event: that is `HostStateMachine`'s, and a
/// request of the host's own (`Docs/Events.md`, "Adding an event").
///
/// The order is the order of a full lifecycle: `LifecycleEvent.builtinEvents`, the generated code and the
/// capability table of each generated manifest follow it.
///
/// `hasDeprecatedSyncProtocol` marks the eleven events whose `Sync…` twin stays one release as a deprecated
/// alias (issue 31): a synchronous hook is read from the source now, so no new event gets a twin. Removing the
/// twins is deleting those arguments and running the script.
package enum EventTable {
    /// Every built-in event, in the order a full lifecycle emits them.
    package static let builtins: [EventDefinition] = [
        EventDefinition(
            name: "willFinishLaunching",
            capability: "WillFinishLaunching",
            hasDeprecatedSyncProtocol: true,
            hook: "willFinishLaunching",
            result: .anyTrue(whenUnanswered: true),
            summary: "The first launch event. Bool result, OR-combined; `true` when nobody implements it.",
            role: "the first launch event",
            hookDocumentation: """
                Called when launch begins, before ``DidFinishLaunching/didFinishLaunching(_:)``.

                - Returns: Your vote for the launch result. All votes are OR-combined.
                """
        ),
        EventDefinition(
            name: "setup",
            capability: "SetupStage",
            hasDeprecatedSyncProtocol: true,
            hook: "setUp",
            summary: """
                The first launch stage, after ``willFinishLaunching``: set up what others will need. In order.
                """,
            role: "the first launch stage",
            hookDocumentation: """
                Called after ``WillFinishLaunching/willFinishLaunching(_:)``, in delivery order: prepare what other
                modules will need.
                """
        ),
        EventDefinition(
            name: "initialize",
            capability: "InitializeStage",
            hasDeprecatedSyncProtocol: true,
            hook: "initialize",
            summary: """
                The second launch stage, after ``setup``: initialise the module's own state. In order.
                """,
            role: "the second launch stage",
            hookDocumentation: "Called after every participant's ``SetupStage/setUp(_:)``, in delivery order."
        ),
        EventDefinition(
            name: "warmUp",
            capability: "WarmUpStage",
            hasSyncForm: false,
            hook: "warmUp",
            summary: """
                The third launch stage: slow preparation (caches, connections). Implementers run concurrently; a
                module starts once every module it depends on has finished its warm-up.
                """,
            role: "the concurrent launch stage",
            hookDocumentation: """
                Called after every participant's ``InitializeStage/initialize(_:)``, concurrently with other
                modules' warm-up: a module starts as soon as every module it depends on has finished its own.
                Whether ``DidFinishLaunching/didFinishLaunching(_:)`` waits for it is the host's choice
                (`Configuration.didFinishLaunchingWaitsForWarmUp`); `ApplicationHost.waitUntilReady()` always does.
                """
        ),
        EventDefinition(
            name: "didFinishLaunching",
            capability: "DidFinishLaunching",
            hasDeprecatedSyncProtocol: true,
            hook: "didFinishLaunching",
            result: .anyTrue(whenUnanswered: true),
            summary: "The second launch event. Bool result, OR-combined; `true` when nobody implements it.",
            role: "the second launch event",
            hookDocumentation: """
                Called after every participant has received ``WillFinishLaunching/willFinishLaunching(_:)``.

                - Returns: Your vote for the launch result. All votes are OR-combined.
                """
        ),
        EventDefinition(
            name: "willEnterForeground",
            capability: "WillEnterForeground",
            hasDeprecatedSyncProtocol: true,
            hook: "willEnterForeground",
            summary: "Sent when the host leaves the background, before ``didBecomeActive``.",
            hookDocumentation: "Called when the host leaves the background, before it becomes active again."
        ),
        EventDefinition(
            name: "didBecomeActive",
            capability: "DidBecomeActive",
            hasDeprecatedSyncProtocol: true,
            hook: "didBecomeActive",
            summary: """
                Sent whenever the host becomes active: at the end of launch, and when it returns to the foreground.
                """,
            hookDocumentation: """
                Called whenever the host becomes active: at the end of launch and when it returns to the foreground.
                """
        ),
        EventDefinition(
            name: "willResignActive",
            capability: "WillResignActive",
            hasDeprecatedSyncProtocol: true,
            hook: "willResignActive",
            direction: .reverse,
            summary: "Sent whenever the host stops being active. Delivered in reverse order.",
            hookDocumentation: """
                Called whenever the host stops being active: on `resignActive()`, and on `enterBackground()` from
                `active`, before ``DidEnterBackground/didEnterBackground(_:)``.
                """
        ),
        EventDefinition(
            name: "didEnterBackground",
            capability: "DidEnterBackground",
            hasDeprecatedSyncProtocol: true,
            hook: "didEnterBackground",
            direction: .reverse,
            summary: "Sent when the host enters the background. Delivered in reverse order.",
            hookDocumentation: "Called when the host has entered the background."
        ),
        EventDefinition(
            name: "willTerminate",
            capability: "WillTerminate",
            hasDeprecatedSyncProtocol: true,
            hook: "willTerminate",
            direction: .reverse,
            summary: "Sent once, when the host terminates. Delivered in reverse order.",
            hookDocumentation: "Called once, when the host terminates. Release what the module holds here."
        ),
        EventDefinition(
            name: "didReceiveMemoryWarning",
            capability: "DidReceiveMemoryWarning",
            hasDeprecatedSyncProtocol: true,
            hook: "didReceiveMemoryWarning",
            summary: "Sent when the host is asked to free memory.",
            hookDocumentation: """
                Called when the host is asked to free memory: drop caches and anything that can be rebuilt.
                """
        ),
        EventDefinition(
            name: "openURL",
            capability: "OpenURL",
            hasDeprecatedSyncProtocol: true,
            hook: "open",
            payload: [EventDefinition.Parameter("_", "url", "URL")],
            result: .anyTrue(whenUnanswered: false),
            summary: """
                Sent to ask participants to handle a URL. Bool result ("handled"), OR-combined; `false` when nobody
                implements it.
                """,
            hookDocumentation: """
                Called to ask the participant to handle `url`.

                Every implementer is called, even after one has handled the URL.

                - Returns: `true` if this participant handled the URL. All results are OR-combined.
                """
        ),
    ]
}

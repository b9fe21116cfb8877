/// What a table groups together.
enum Group: String, Codable, CaseIterable {
    /// One void event delivered to N modules.
    case event
    /// One Bool event delivered to N modules, answers OR-combined.
    case boolEvent
    /// Building a proxy from a manifest of N module types.
    case build
    /// A whole lifecycle of N modules.
    case lifecycle
    /// N works started, each reporting ready, then all stopped gracefully.
    case work
    /// Resolving a created singleton service from a registry of N services.
    case serviceResolution
    /// A message without reply sent to one receiver, N times, in a host of N receivers.
    case messageSend
    /// A message without reply broadcast to N receivers.
    case messageBroadcast
    /// Matching one path among N route patterns (N is the number of routes).
    case routeMatch
    /// Opening a route value through ten global interceptors (N is the number of interceptors).
    case routeChain
    /// Beginning, activating and ending a request scope with ten global actions and three behaviors (N is
    /// the number of concurrent tasks).
    case scopeRequest

    var title: String {
        switch self {
        case .event: "One event (didBecomeActive) delivered to N modules: ns per module"
        case .boolEvent: "One Bool event, OR-combined, delivered to N modules: ns per module"
        case .build: "Building the proxy from N module types, ~1.9 dependencies each: ms per build"
        case .lifecycle: "Whole lifecycle of N modules: ms per lifecycle"
        case .work: "Work: N works started, each ready, all stopped gracefully: ms per run"
        case .serviceResolution:
            "Resolving one singleton service, N times, from a registry of ~N services: ns per resolution"
        case .messageSend:
            "Sending a message without reply to one receiver, N times, in a host of N receivers: ns per send"
        case .messageBroadcast: "Broadcasting a message without reply to N receivers: ns per receiver"
        case .routeMatch: "Matching one path among N routes: ns per match"
        case .routeChain: "Opening a Route value whose handler returns an Int, 10 global interceptors: ns per opening"
        case .scopeRequest:
            "A request scope begun, activated and ended: 10 global actions, 3 behaviors: ns per request"
        }
    }

    /// Whether the group is a routing row, measured at its own sizes (routes, not modules) and reported in
    /// its own section.
    var isRouting: Bool { self == .routeMatch || self == .routeChain }

    /// Whether the group is measured at its own sizes, not at the module sizes: the routing rows and the scope
    /// rows (concurrent tasks).
    var hasOwnSizes: Bool { isRouting || self == .scopeRequest }

    /// Whether the table shows nanoseconds per module (dispatch) or milliseconds per repetition.
    var perModule: Bool {
        self == .event || self == .boolEvent || self == .serviceResolution || self == .messageSend
            || self == .messageBroadcast
    }
}

/// One measured system: a row of the tables and a line of the chart.
struct System: Hashable {
    let id: String
    let label: String
    let group: Group
    /// Whether this row is the library under test (solid in the chart) rather than a baseline.
    let isLibrary: Bool
}

extension System {
    // MARK: One event

    static let proxyEvent = System(
        id: "proxy-async",
        label: "DelegateProxy.deliver(.didBecomeActive), async hooks (DidBecomeActive)",
        group: .event,
        isLibrary: true
    )
    static let proxySyncEvent = System(
        id: "proxy-sync",
        label: "DelegateProxy.deliver(.didBecomeActive), sync hooks (SyncDidBecomeActive)",
        group: .event,
        isLibrary: true
    )
    static let proxySyncDiscovered = System(
        id: "proxy-sync-discovered",
        label: "DelegateProxy.deliver(.didBecomeActive), sync functions, capability table (no Sync… protocol)",
        group: .event,
        isLibrary: true
    )
    static let proxySyncDiscoveredTwin = System(
        id: "proxy-sync-discovered-twin",
        label: "DelegateProxy.deliver(.didBecomeActive), SyncDidBecomeActive, capability table (before)",
        group: .event,
        isLibrary: true
    )
    static let concreteLoop = System(
        id: "concrete-loop",
        label: "limit: index loop over [FinalClass], direct non-inlined call, borrowed",
        group: .event,
        isLibrary: false
    )
    static let retainingLoop = System(
        id: "concrete-loop-retaining",
        label: "plain index loop over [FinalClass] (retain + release per call)",
        group: .event,
        isLibrary: false
    )
    static let existentialLoop = System(
        id: "existential-loop",
        label: "index loop over [any SyncHooks], sync",
        group: .event,
        isLibrary: false
    )
    static let asyncLoop = System(
        id: "async-loop",
        label: "index loop over [any DidBecomeActive], awaited",
        group: .event,
        isLibrary: false
    )
    static let notificationCenter = System(
        id: "notification-center",
        label: "NotificationCenter.post, N block observers",
        group: .event,
        isLibrary: false
    )
    static let proxyEventGenerated = System(
        id: "proxy-async-generated",
        label: "DelegateProxy.deliver, generated non-generic types",
        group: .event,
        isLibrary: true
    )
    static let asyncLoopGenerated = System(
        id: "async-loop-generated",
        label: "awaited index loop, generated non-generic types",
        group: .event,
        isLibrary: false
    )

    // MARK: Bool event

    static let proxyDidFinishLaunching = System(
        id: "proxy-did-finish-launching",
        label: "DelegateProxy.deliver(.didFinishLaunching)",
        group: .boolEvent,
        isLibrary: true
    )
    static let proxyOpenURL = System(
        id: "proxy-open-url",
        label: "DelegateProxy.open(url)",
        group: .boolEvent,
        isLibrary: true
    )
    static let proxySyncDidFinishLaunching = System(
        id: "proxy-sync-did-finish-launching",
        label: "DelegateProxy.deliver(.didFinishLaunching), sync hooks",
        group: .boolEvent,
        isLibrary: true
    )
    static let proxySyncOpenURL = System(
        id: "proxy-sync-open-url",
        label: "DelegateProxy.open(url), sync hooks",
        group: .boolEvent,
        isLibrary: true
    )
    static let proxySyncDiscoveredDidFinishLaunching = System(
        id: "proxy-sync-discovered-did-finish-launching",
        label: "DelegateProxy.deliver(.didFinishLaunching), sync functions, capability table (no Sync… protocol)",
        group: .boolEvent,
        isLibrary: true
    )
    static let proxySyncDiscoveredTwinDidFinishLaunching = System(
        id: "proxy-sync-discovered-twin-did-finish-launching",
        label: "DelegateProxy.deliver(.didFinishLaunching), SyncDidFinishLaunching, capability table (before)",
        group: .boolEvent,
        isLibrary: true
    )
    static let proxySyncDiscoveredOpenURL = System(
        id: "proxy-sync-discovered-open-url",
        label: "DelegateProxy.open(url), sync functions, capability table (no Sync… protocol)",
        group: .boolEvent,
        isLibrary: true
    )
    static let proxySyncDiscoveredTwinOpenURL = System(
        id: "proxy-sync-discovered-twin-open-url",
        label: "DelegateProxy.open(url), SyncOpenURL, capability table (before)",
        group: .boolEvent,
        isLibrary: true
    )
    static let proxyCustomBool = System(
        id: "proxy-custom-bool",
        label: "DelegateProxy.deliver(Ping()), custom Bool event, sync handlers",
        group: .boolEvent,
        isLibrary: true
    )
    static let proxyCustomBoolAsync = System(
        id: "proxy-custom-async-bool",
        label: "DelegateProxy.deliver(AsyncPing()), custom Bool event, async handlers",
        group: .boolEvent,
        isLibrary: true
    )
    static let hostSyncOpenURL = System(
        id: "host-sync-open-url",
        label: "ApplicationHost.open(url), sync hooks; no instruments, no time limits, no journal",
        group: .boolEvent,
        isLibrary: true
    )
    static let hostSyncOpenURLEmptyInstrument = System(
        id: "host-sync-open-url-empty-instrument",
        label: "ApplicationHost.open(url), same; one instrument that does nothing (the seam's own cost)",
        group: .boolEvent,
        isLibrary: true
    )
    static let hostSyncOpenURLTracingNoOp = System(
        id: "host-sync-open-url-tracing-noop",
        label: "ApplicationHost.open(url), same; TracingInstrument, NoOpTracer",
        group: .boolEvent,
        isLibrary: true
    )
    static let hostSyncOpenURLTracing = System(
        id: "host-sync-open-url-tracing",
        label: "ApplicationHost.open(url), same; TracingInstrument, InMemoryTracer recording every span",
        group: .boolEvent,
        isLibrary: true
    )
    static let hostSyncOpenURLMetricsNoOp = System(
        id: "host-sync-open-url-metrics-noop",
        label: "ApplicationHost.open(url), same; MetricsInstrument, swift-metrics' no-op handlers",
        group: .boolEvent,
        isLibrary: true
    )
    static let hostSyncOpenURLMetrics = System(
        id: "host-sync-open-url-metrics",
        label: "ApplicationHost.open(url), same; MetricsInstrument, swift-prometheus registry",
        group: .boolEvent,
        isLibrary: true
    )
    static let concreteBoolLoop = System(
        id: "concrete-bool-loop",
        label: "limit: index loop over [FinalClass], OR",
        group: .boolEvent,
        isLibrary: false
    )
    static let existentialBoolLoop = System(
        id: "existential-bool-loop",
        label: "index loop over [any SyncHooks], OR",
        group: .boolEvent,
        isLibrary: false
    )
    static let asyncBoolLoop = System(
        id: "async-bool-loop",
        label: "index loop over [any DidFinishLaunching], awaited, OR",
        group: .boolEvent,
        isLibrary: false
    )

    // MARK: Build

    static let buildNumbered = System(
        id: "build-numbered",
        label: "DelegateProxy(manifest:), generic types, all hooks",
        group: .build,
        isLibrary: true
    )
    static let buildLean = System(
        id: "build-lean",
        label: "DelegateProxy(manifest:), generic types, one hook",
        group: .build,
        isLibrary: true
    )
    static let buildLeanDeclared = System(
        id: "build-lean-declared",
        label: "DelegateProxy(manifest:), generic types, one hook, capability table",
        group: .build,
        isLibrary: true
    )
    static let buildGenerated = System(
        id: "build-generated",
        label: "DelegateProxy(manifest:), generated non-generic types, one hook",
        group: .build,
        isLibrary: true
    )
    static let buildGeneratedDeclared = System(
        id: "build-generated-declared",
        label: "DelegateProxy(manifest:), generated non-generic types, capability table (as discovered)",
        group: .build,
        isLibrary: true
    )
    static let namesLean = System(
        id: "names-lean",
        label: "String(reflecting:) of the N generic types (part of the build)",
        group: .build,
        isLibrary: false
    )
    static let namesGenerated = System(
        id: "names-generated",
        label: "String(reflecting:) of the N generated types (part of the build)",
        group: .build,
        isLibrary: false
    )

    // MARK: Lifecycle

    static let hostLifecycle = System(
        id: "host-lifecycle",
        label: "ApplicationHost: launch (stages), background, foreground, terminate; default configuration",
        group: .lifecycle,
        isLibrary: true
    )
    static let hostLifecycleLean = System(
        id: "host-lifecycle-lean",
        label: "ApplicationHost, same; no time limits, no journal",
        group: .lifecycle,
        isLibrary: true
    )
    static let serviceGroup = System(
        id: "service-group",
        label: "ServiceGroup: run N services until all started, graceful shutdown",
        group: .lifecycle,
        isLibrary: false
    )

    // MARK: Work

    static let workHostReverse = System(
        id: "work-host-reverse",
        label: "ApplicationHost, N modules of one work each: launch, waitUntilReady, terminate; stop order .reverse",
        group: .work,
        isLibrary: true
    )
    static let workHostDependentsFirst = System(
        id: "work-host-dependents-first",
        label: "ApplicationHost, same; stop order .dependentsFirst (no dependencies: all stop together)",
        group: .work,
        isLibrary: true
    )
    static let workHostReverseLean = System(
        id: "work-host-reverse-lean",
        label: "ApplicationHost, .reverse; no time limits, no journal",
        group: .work,
        isLibrary: true
    )
    static let workHostDependentsFirstLean = System(
        id: "work-host-dependents-first-lean",
        label: "ApplicationHost, .dependentsFirst; no time limits, no journal",
        group: .work,
        isLibrary: true
    )
    static let workHostNone = System(
        id: "work-host-none",
        label:
            "ApplicationHost, the same N modules without withWork: launch, waitUntilReady, terminate (the host's share)",
        group: .work,
        isLibrary: true
    )
    static let workServiceGroup = System(
        id: "work-service-group",
        label: "ServiceGroup, N services: run, all ready, triggerGracefulShutdown (reverse, one at a time)",
        group: .work,
        isLibrary: false
    )
    static let workHandReverseSharded = System(
        id: "work-hand-reverse-sharded",
        label: "by hand: task group sharded by 64, stopped one at a time in reverse",
        group: .work,
        isLibrary: false
    )
    static let workHandReverseFlat = System(
        id: "work-hand-reverse-flat",
        label: "by hand: one flat task group, stopped one at a time in reverse",
        group: .work,
        isLibrary: false
    )
    static let workHandTogetherSharded = System(
        id: "work-hand-together-sharded",
        label: "by hand: task group sharded by 64, all asked to stop at once",
        group: .work,
        isLibrary: false
    )
    static let workHandTogetherFlat = System(
        id: "work-hand-together-flat",
        label: "by hand: one flat task group, all asked to stop at once",
        group: .work,
        isLibrary: false
    )

    // MARK: Services

    static let servicesResolve = System(
        id: "services-resolve",
        label: "context.services.require((any BenchService).self)",
        group: .serviceResolution,
        isLibrary: true
    )
    static let lockedDictionary = System(
        id: "services-locked-dictionary",
        label: "Mutex<[ObjectIdentifier: AnyObject]> look-up, by hand",
        group: .serviceResolution,
        isLibrary: false
    )
    static let storedService = System(
        id: "services-stored-property",
        label: "limit: the service in a stored property",
        group: .serviceResolution,
        isLibrary: false
    )
    static let buildServices = System(
        id: "services-build",
        label: "DelegateProxy(manifest:) with services, N modules of 10 services",
        group: .build,
        isLibrary: true
    )
    static let buildNoServices = System(
        id: "services-build-none",
        label: "DelegateProxy(manifest:), the same N modules without services",
        group: .build,
        isLibrary: false
    )
    static let buildServicesGenerated = System(
        id: "services-build-generated",
        label: "DelegateProxy(manifest:) with services, N generated providers of 10 services, requirements",
        group: .build,
        isLibrary: true
    )
    static let buildNoServicesGenerated = System(
        id: "services-build-generated-none",
        label: "DelegateProxy(manifest:), the same N generated providers without services",
        group: .build,
        isLibrary: false
    )

    // MARK: Messages

    static let messagesSend = System(
        id: "messages-send",
        label: "messenger.sendSynchronously(_:to:), one receiver, no reply",
        group: .messageSend,
        isLibrary: true
    )
    static let messagesSendAsync = System(
        id: "messages-send-async",
        label: "try await messenger.send(_:to:), one receiver (sync handler), no reply",
        group: .messageSend,
        isLibrary: true
    )
    static let messagesChannelSend = System(
        id: "messages-channel-send",
        label: "channel.sendSynchronously(_:), a MessageChannel resolved once, no reply",
        group: .messageSend,
        isLibrary: true
    )
    static let messagesChannelSendAsync = System(
        id: "messages-channel-send-async",
        label: "try await channel.send(_:), a MessageChannel resolved once (sync handler), no reply",
        group: .messageSend,
        isLibrary: true
    )
    static let messagesExistentialCall = System(
        id: "messages-existential-call",
        label: "non-inlined method through `let receiver: any TickReceiving`, by hand",
        group: .messageSend,
        isLibrary: false
    )
    static let messagesBroadcast = System(
        id: "messages-broadcast",
        label: "messenger.broadcastSynchronously(_:), N receivers, no reply",
        group: .messageBroadcast,
        isLibrary: true
    )
    static let messagesExistentialLoop = System(
        id: "messages-existential-loop",
        label: "index loop over [any TickReceiving], non-inlined method, by hand",
        group: .messageBroadcast,
        isLibrary: false
    )
    static let messagesNotificationCenter = System(
        id: "messages-notification-center",
        label: "NotificationCenter.post, N block observers",
        group: .messageBroadcast,
        isLibrary: false
    )

    // MARK: Routing

    static let routeTriePath = System(
        id: "route-trie-path",
        label: "RouteTrie.match(path:)",
        group: .routeMatch,
        isLibrary: true
    )
    static let routeTrieURL = System(
        id: "route-trie-url",
        label: "RouteTrie.match(_: URL), as the router matches (host as first segment, query items)",
        group: .routeMatch,
        isLibrary: true
    )
    static let hummingbirdTrie = System(
        id: "route-hummingbird",
        label: "Hummingbird 2.28 RouterTrie.resolve(_:)",
        group: .routeMatch,
        isLibrary: false
    )
    static let chainInline = System(
        id: "route-chain-inline",
        label: "router.open(route), 10 interceptors, interceptorBudget: nil (inline)",
        group: .routeChain,
        isLibrary: true
    )
    static let chainBudget = System(
        id: "route-chain-budget",
        label: "router.open(route), 10 interceptors, the default budget (a task per opening, on the host's watchdog)",
        group: .routeChain,
        isLibrary: true
    )
    static let chainNone = System(
        id: "route-chain-none",
        label: "router.open(route), no interceptors",
        group: .routeChain,
        isLibrary: true
    )
    static let chainHand = System(
        id: "route-chain-hand",
        label: "by hand: 10 awaited non-inlined calls, then the handler",
        group: .routeChain,
        isLibrary: false
    )

    static let routeOverlapMiss = System(
        id: "route-overlap-miss",
        label: "RouteTrie.match(path:), overlapping table (N of the 3⁹ patterns over a, :p, *): misses",
        group: .routeMatch,
        isLibrary: true
    )
    static let routeOverlapHit = System(
        id: "route-overlap-hit",
        label: "RouteTrie.match(path:), overlapping table: hits of nine segments",
        group: .routeMatch,
        isLibrary: true
    )

    // MARK: Scopes

    static let scopeDefaultBudget = System(
        id: "scope-default-budget",
        label: "scopes.withScope(.request, …, adopting: A(), B(), C()) { _ in }, the default end budget (10 s)",
        group: .scopeRequest,
        isLibrary: true
    )
    static let scopeNoBudget = System(
        id: "scope-no-budget",
        label: "the same, endBudget: nil (no watchdog)",
        group: .scopeRequest,
        isLibrary: true
    )
    static let scopePartsBare = System(
        id: "scope-parts-bare",
        label: "parts, endBudget: nil: a scope alone, no action, nothing adopted",
        group: .scopeRequest,
        isLibrary: true
    )
    static let scopePartsActions = System(
        id: "scope-parts-actions",
        label: "parts, endBudget: nil: the 10 actions, nothing adopted",
        group: .scopeRequest,
        isLibrary: true
    )
    static let scopePartsBehaviors = System(
        id: "scope-parts-behaviors",
        label: "parts, endBudget: nil: no action, the 3 behaviors",
        group: .scopeRequest,
        isLibrary: true
    )
    static let scopeHand = System(
        id: "scope-hand",
        label: "by hand: the same 52 hooks awaited in the same order, actions through existentials",
        group: .scopeRequest,
        isLibrary: false
    )

    /// Every system, in table order.
    static let all: [System] = [
        .proxyEvent, .proxySyncEvent, .proxySyncDiscovered, .proxySyncDiscoveredTwin, .concreteLoop, .retainingLoop,
        .existentialLoop, .asyncLoop, .notificationCenter,
        .proxyEventGenerated,
        .asyncLoopGenerated, .proxyDidFinishLaunching, .proxyOpenURL, .proxySyncDidFinishLaunching,
        .proxySyncOpenURL, .proxySyncDiscoveredDidFinishLaunching, .proxySyncDiscoveredTwinDidFinishLaunching,
        .proxySyncDiscoveredOpenURL, .proxySyncDiscoveredTwinOpenURL, .hostSyncOpenURL, .hostSyncOpenURLEmptyInstrument,
        .hostSyncOpenURLTracingNoOp,
        .hostSyncOpenURLTracing,
        .hostSyncOpenURLMetricsNoOp, .hostSyncOpenURLMetrics, .proxyCustomBool, .proxyCustomBoolAsync,
        .concreteBoolLoop,
        .existentialBoolLoop, .asyncBoolLoop, .buildNumbered, .buildLean, .buildLeanDeclared, .buildGenerated,
        .buildGeneratedDeclared,
        .namesLean,
        .namesGenerated, .hostLifecycle, .hostLifecycleLean, .serviceGroup, .workHostReverse, .workHostDependentsFirst,
        .workHostReverseLean, .workHostDependentsFirstLean, .workHostNone, .workServiceGroup, .workHandReverseSharded,
        .workHandReverseFlat, .workHandTogetherSharded, .workHandTogetherFlat, .servicesResolve, .lockedDictionary,
        .storedService, .buildServices, .buildNoServices, .buildServicesGenerated, .buildNoServicesGenerated,
        .messagesSend, .messagesSendAsync, .messagesChannelSend, .messagesChannelSendAsync, .messagesExistentialCall,
        .messagesBroadcast, .messagesExistentialLoop,
        .messagesNotificationCenter, .routeTriePath, .routeTrieURL, .hummingbirdTrie, .chainInline, .chainBudget,
        .chainNone, .chainHand, .scopeDefaultBudget, .scopeNoBudget, .scopePartsBare, .scopePartsActions,
        .scopePartsBehaviors, .scopeHand, .routeOverlapMiss, .routeOverlapHit,
    ]
}

/// A ratio the tables show: one system's time over another's, from the minima and from the medians.
struct Comparison {
    let label: String
    let numerator: System
    let denominator: System

    static let all: [Comparison] = [
        Comparison(label: "sync proxy ÷ concrete-loop limit", numerator: .proxySyncEvent, denominator: .concreteLoop),
        Comparison(
            label: "sync proxy ÷ hand-written sync existential loop",
            numerator: .proxySyncEvent,
            denominator: .existentialLoop
        ),
        Comparison(
            label: "sync functions ÷ Sync… protocol, capability table",
            numerator: .proxySyncDiscovered,
            denominator: .proxySyncDiscoveredTwin
        ),
        Comparison(label: "async proxy ÷ concrete-loop limit", numerator: .proxyEvent, denominator: .concreteLoop),
        Comparison(label: "async proxy ÷ hand-written async loop", numerator: .proxyEvent, denominator: .asyncLoop),
        Comparison(label: "sync existential loop ÷ limit", numerator: .existentialLoop, denominator: .concreteLoop),
        Comparison(
            label: "NotificationCenter ÷ sync proxy",
            numerator: .notificationCenter,
            denominator: .proxySyncEvent
        ),
        Comparison(label: "NotificationCenter ÷ async proxy", numerator: .notificationCenter, denominator: .proxyEvent),
        Comparison(
            label: "NotificationCenter ÷ sync existential loop",
            numerator: .notificationCenter,
            denominator: .existentialLoop
        ),
        Comparison(
            label: "proxy ÷ async loop, generated types",
            numerator: .proxyEventGenerated,
            denominator: .asyncLoopGenerated
        ),
        Comparison(
            label: "didFinishLaunching ÷ async Bool loop",
            numerator: .proxyDidFinishLaunching,
            denominator: .asyncBoolLoop
        ),
        Comparison(label: "open-URL ÷ async Bool loop", numerator: .proxyOpenURL, denominator: .asyncBoolLoop),
        Comparison(
            label: "sync didFinishLaunching ÷ concrete limit",
            numerator: .proxySyncDidFinishLaunching,
            denominator: .concreteBoolLoop
        ),
        Comparison(
            label: "sync open-URL ÷ concrete limit",
            numerator: .proxySyncOpenURL,
            denominator: .concreteBoolLoop
        ),
        Comparison(
            label: "host sync open-URL ÷ concrete limit",
            numerator: .hostSyncOpenURL,
            denominator: .concreteBoolLoop
        ),
        Comparison(
            label: "sync functions ÷ Sync… protocol, didFinishLaunching",
            numerator: .proxySyncDiscoveredDidFinishLaunching,
            denominator: .proxySyncDiscoveredTwinDidFinishLaunching
        ),
        Comparison(
            label: "sync functions ÷ Sync… protocol, open-URL",
            numerator: .proxySyncDiscoveredOpenURL,
            denominator: .proxySyncDiscoveredTwinOpenURL
        ),
        Comparison(label: "host sync open-URL ÷ proxy", numerator: .hostSyncOpenURL, denominator: .proxySyncOpenURL),
        Comparison(
            label: "an instrument that does nothing ÷ no instruments",
            numerator: .hostSyncOpenURLEmptyInstrument,
            denominator: .hostSyncOpenURL
        ),
        Comparison(
            label: "tracing (no-op tracer) ÷ no instruments",
            numerator: .hostSyncOpenURLTracingNoOp,
            denominator: .hostSyncOpenURL
        ),
        Comparison(
            label: "tracing (recording tracer) ÷ no instruments",
            numerator: .hostSyncOpenURLTracing,
            denominator: .hostSyncOpenURL
        ),
        Comparison(
            label: "metrics (no-op handlers) ÷ no instruments",
            numerator: .hostSyncOpenURLMetricsNoOp,
            denominator: .hostSyncOpenURL
        ),
        Comparison(
            label: "metrics (Prometheus) ÷ no instruments",
            numerator: .hostSyncOpenURLMetrics,
            denominator: .hostSyncOpenURL
        ),
        Comparison(
            label: "custom Bool, sync handlers ÷ async Bool loop",
            numerator: .proxyCustomBool,
            denominator: .asyncBoolLoop
        ),
        Comparison(
            label: "custom Bool, async handlers ÷ async Bool loop",
            numerator: .proxyCustomBoolAsync,
            denominator: .asyncBoolLoop
        ),
        Comparison(
            label: "didFinishLaunching ÷ concrete limit",
            numerator: .proxyDidFinishLaunching,
            denominator: .concreteBoolLoop
        ),
        Comparison(label: "generic ÷ generated build", numerator: .buildLean, denominator: .buildGenerated),
        Comparison(label: "with services ÷ without", numerator: .buildServices, denominator: .buildNoServices),
        Comparison(
            label: "with services ÷ without, generated",
            numerator: .buildServicesGenerated,
            denominator: .buildNoServicesGenerated
        ),
        Comparison(label: "registry ÷ locked dictionary", numerator: .servicesResolve, denominator: .lockedDictionary),
        Comparison(
            label: "registry ÷ stored property (limit)",
            numerator: .servicesResolve,
            denominator: .storedService
        ),
        Comparison(
            label: "runtime casts ÷ capability table, generated build",
            numerator: .buildGenerated,
            denominator: .buildGeneratedDeclared
        ),
        Comparison(label: "naming share of the generic build", numerator: .namesLean, denominator: .buildLean),
        Comparison(
            label: "naming share of the generated build",
            numerator: .namesGenerated,
            denominator: .buildGenerated
        ),
        Comparison(label: "ServiceGroup ÷ host (default)", numerator: .serviceGroup, denominator: .hostLifecycle),
        Comparison(label: "ServiceGroup ÷ host (lean)", numerator: .serviceGroup, denominator: .hostLifecycleLean),
        Comparison(
            label: "ServiceGroup ÷ host, .reverse",
            numerator: .workServiceGroup,
            denominator: .workHostReverse
        ),
        Comparison(
            label: "ServiceGroup ÷ host, .dependentsFirst",
            numerator: .workServiceGroup,
            denominator: .workHostDependentsFirst
        ),
        Comparison(
            label: "host .reverse ÷ by hand, reverse, sharded",
            numerator: .workHostReverse,
            denominator: .workHandReverseSharded
        ),
        Comparison(
            label: "host .reverse ÷ by hand, reverse, flat",
            numerator: .workHostReverse,
            denominator: .workHandReverseFlat
        ),
        Comparison(
            label: "host .dependentsFirst ÷ by hand, together, sharded",
            numerator: .workHostDependentsFirst,
            denominator: .workHandTogetherSharded
        ),
        Comparison(
            label: "host .dependentsFirst ÷ by hand, together, flat",
            numerator: .workHostDependentsFirst,
            denominator: .workHandTogetherFlat
        ),
        Comparison(
            label: "host .reverse, lean ÷ by hand, reverse, sharded",
            numerator: .workHostReverseLean,
            denominator: .workHandReverseSharded
        ),
        Comparison(
            label: "host .dependentsFirst, lean ÷ by hand, together, sharded",
            numerator: .workHostDependentsFirstLean,
            denominator: .workHandTogetherSharded
        ),
        Comparison(
            label: "sync send ÷ call through an existential",
            numerator: .messagesSend,
            denominator: .messagesExistentialCall
        ),
        Comparison(
            label: "async send ÷ call through an existential",
            numerator: .messagesSendAsync,
            denominator: .messagesExistentialCall
        ),
        Comparison(
            label: "channel send ÷ call through an existential",
            numerator: .messagesChannelSend,
            denominator: .messagesExistentialCall
        ),
        Comparison(
            label: "async channel send ÷ call through an existential",
            numerator: .messagesChannelSendAsync,
            denominator: .messagesExistentialCall
        ),
        Comparison(
            label: "broadcast ÷ existential loop",
            numerator: .messagesBroadcast,
            denominator: .messagesExistentialLoop
        ),
        Comparison(
            label: "NotificationCenter ÷ broadcast",
            numerator: .messagesNotificationCenter,
            denominator: .messagesBroadcast
        ),
        Comparison(label: "RouteTrie ÷ Hummingbird", numerator: .routeTriePath, denominator: .hummingbirdTrie),
        Comparison(label: "match(URL) ÷ match(path:)", numerator: .routeTrieURL, denominator: .routeTriePath),
        Comparison(label: "no budget ÷ by hand", numerator: .chainInline, denominator: .chainHand),
        Comparison(label: "default budget ÷ by hand", numerator: .chainBudget, denominator: .chainHand),
        Comparison(label: "default budget ÷ no budget", numerator: .chainBudget, denominator: .chainInline),
        Comparison(label: "no interceptors ÷ by hand", numerator: .chainNone, denominator: .chainHand),
        Comparison(label: "default budget ÷ by hand", numerator: .scopeDefaultBudget, denominator: .scopeHand),
        Comparison(label: "no budget ÷ by hand", numerator: .scopeNoBudget, denominator: .scopeHand),
        Comparison(
            label: "default budget ÷ no budget",
            numerator: .scopeDefaultBudget,
            denominator: .scopeNoBudget
        ),
    ]
}

public import LifecycleCore
public import Logging

/// Reports an `ApplicationHost`'s deliveries and diagnostics to a swift-log `Logger`.
///
/// Install it when creating the host, with `ApplicationHost.Configuration.logging(to:)`:
///
/// - every hook call, as `ApplicationHost.Configuration.onDelivery` reports it: at ``deliveryLevel``
///   (`debug`) when it returned, at ``failureLevel`` (`error`) when it threw or timed out;
/// - every error nobody awaits, as `ApplicationHost.Configuration.onUnobservedError` reports it, at
///   ``failureLevel``.
///
/// Each record carries metadata under ``keys``: the event, the participant and its priority, the
/// duration, the Bool result, and the error. An error also carries its code, the request, the host's state
/// and each failed hook.
public struct LifecycleLogging: Sendable {
    /// The metadata keys the bridge logs under.
    public struct Keys: Sendable {
        /// The event delivered, such as `willTerminate`.
        public var event = "lifecycle.event"
        /// The participant's module-qualified type name.
        public var participant = "lifecycle.participant"
        /// The participant's priority, or `delegate` for the program's delegate.
        public var priority = "lifecycle.priority"
        /// How long the hook took.
        public var duration = "lifecycle.duration"
        /// The Bool the hook returned, for events with a result.
        public var result = "lifecycle.result"
        /// What the hook threw, or the error's description.
        public var error = "lifecycle.error"
        /// The error's code, such as `hookFailed`.
        public var code = "lifecycle.code"
        /// The request that failed, such as `terminate()`.
        public var request = "lifecycle.request"
        /// The host's state when the request failed.
        public var state = "lifecycle.state"
        /// The failed hooks of an error, each as `participant: event: error`.
        public var failures = "lifecycle.failures"
        /// How many participants the host has, in the launch record of ``ApplicationHostService``.
        public var participants = "lifecycle.participants"

        /// Creates the default keys.
        public init() {}
    }

    /// Where the records go.
    public var logger: Logger
    /// The level of a hook call that returned. `debug` by default.
    public var deliveryLevel: Logger.Level
    /// The level of a hook that threw or timed out, and of an error nobody awaited. `error` by default.
    public var failureLevel: Logger.Level
    /// The metadata keys.
    public var keys: Keys

    /// Creates a bridge to `logger`.
    public init(
        logger: Logger,
        deliveryLevel: Logger.Level = .debug,
        failureLevel: Logger.Level = .error,
        keys: Keys = Keys()
    ) {
        self.logger = logger
        self.deliveryLevel = deliveryLevel
        self.failureLevel = failureLevel
        self.keys = keys
    }

    /// Logs one hook call: at ``deliveryLevel`` when it returned, at ``failureLevel`` when it threw.
    public func log(_ delivery: DeliveryRecord) {
        let level = delivery.error == nil ? deliveryLevel : failureLevel
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = [
            keys.event: "\(delivery.event.name)",
            keys.participant: "\(delivery.participant.name)",
            keys.priority: "\(delivery.participant.priority.map { "\($0.rawValue)" } ?? "delegate")",
            keys.duration: "\(delivery.duration.formatted)",
        ]
        if let result = delivery.result { metadata[keys.result] = "\(result)" }
        if let error = delivery.error {
            metadata[keys.error] = "\(error)"
            logger.log(
                level: level,
                "\(delivery.event.name) of \(delivery.participant.name) threw: \(error)",
                metadata: metadata
            )
        } else {
            logger.log(
                level: level,
                "\(delivery.event.name) delivered to \(delivery.participant.name)",
                metadata: metadata
            )
        }
    }

    /// Logs an error of the host at ``failureLevel``, with its code, request, state and failed hooks.
    public func log(_ error: LifecycleError) {
        log(error, message: "Lifecycle request failed")
    }

    /// Logs an error of ``ApplicationHostService`` at ``failureLevel``.
    public func log(_ error: ApplicationHostServiceError) {
        var metadata: Logger.Metadata = [
            keys.code: "\(error.code)",
            keys.state: "\(error.state)",
            keys.error: "\(error)",
        ]
        let failures = error.failures
        if !failures.isEmpty { metadata[keys.failures] = .array(failures.map { .string("\($0)") }) }
        logger.log(level: failureLevel, "ApplicationHostService: \(error.code)", metadata: metadata)
    }

    func log(_ error: LifecycleError, message: Logger.Message) {
        var metadata: Logger.Metadata = [
            keys.code: "\(error.code)",
            keys.request: "\(error.request)",
            keys.state: "\(error.state)",
            keys.error: "\(error)",
        ]
        if !error.failures.isEmpty { metadata[keys.failures] = .array(error.failures.map { .string("\($0)") }) }
        logger.log(level: failureLevel, message, metadata: metadata)
    }
}

extension ApplicationHost.Configuration {
    /// A copy of this configuration that reports to `logging`: every delivery after the `onDelivery`
    /// already set, if any, and every error nobody awaits instead of `onUnobservedError`.
    public func logging(to logging: LifecycleLogging) -> Self {
        var configuration = self
        let previous = onDelivery
        if let previous {
            configuration.onDelivery = { record in
                previous(record)
                logging.log(record)
            }
        } else {
            configuration.onDelivery = { record in logging.log(record) }
        }
        configuration.onUnobservedError = { error in logging.log(error) }
        return configuration
    }

    /// A copy of this configuration that reports deliveries at `debug`, and failed hooks and errors nobody
    /// awaits at `error`, to `logger`. See ``LifecycleLogging``.
    public func logging(to logger: Logger) -> Self {
        logging(to: LifecycleLogging(logger: logger))
    }
}

extension Duration {
    /// Milliseconds with three decimals: `"1.250 ms"`.
    var formatted: String {
        let (seconds, attoseconds) = components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let milliseconds = microseconds / 1_000
        let fraction = String(microseconds % 1_000)
        return "\(milliseconds).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
    }
}

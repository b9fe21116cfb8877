public import LifecycleCore

/// A message could not be delivered, or a receiver failed. The message names the message type, the
/// modules and the fix.
public struct MessageError: Error, Sendable, CustomStringConvertible {
    /// The kind of error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Base: String, Sendable {
            case noBus, notLaunched, terminated, noReceiver, asynchronousReceiver, receiverFailed, recursionLimit
            case timedOut
        }
        let base: Base

        /// The host was not built from a manifest with messages (`ModuleManifest.withMessages()`), or the
        /// context belongs to no host.
        public static let noBus = Code(base: .noBus)
        /// Sent before the host began to launch: nothing receives messages before `launch()`.
        public static let notLaunched = Code(base: .notLaunched)
        /// Sent after the host terminated.
        public static let terminated = Code(base: .terminated)
        /// The addressed module does not receive this message type, or is not a module of the host; or the
        /// host removed the receiver of a ``MessageChannel`` after the channel was resolved.
        public static let noReceiver = Code(base: .noReceiver)
        /// A synchronous send reached a receiver whose handler is `async`. Nothing was delivered.
        public static let asynchronousReceiver = Code(base: .asynchronousReceiver)
        /// One or more receivers threw; ``MessageError/failures`` has each. The others were still called.
        public static let receiverFailed = Code(base: .receiverFailed)
        /// Messages sent from handlers nested deeper than ``Messenger/maximumDepth``; ``MessageError/chain``
        /// shows the loop.
        public static let recursionLimit = Code(base: .recursionLimit)
        /// An `async` receiver did not answer within the budget of the send (``Messenger/within(_:)``).
        public static let timedOut = Code(base: .timedOut)

        public var description: String { base.rawValue }
    }

    /// One hop of a chain of messages: who sent what to whom.
    public struct Hop: Sendable, Hashable, CustomStringConvertible {
        /// The sending module's name, or `nil` when the sender is not a module.
        public let sender: String?
        /// The message type's name.
        public let message: String
        /// The receiving module's name; for a broadcast, its audience in parentheses.
        public let receiver: String

        public var description: String { "\(sender ?? "(not a module)") → \(message) → \(receiver)" }
    }

    /// The kind of error.
    public let code: Code
    /// The message type's name.
    public let message: String
    /// The modules concerned: the addressed receiver, or the receivers that threw.
    public let modules: [String]
    /// For ``Code/receiverFailed``: each receiver that threw, and what.
    public let failures: [(receiver: String, error: any Error)]
    /// For ``Code/recursionLimit``: the chain of messages, outermost first, as far as it unwound.
    public private(set) var chain: [Hop]
    /// What went wrong and how to fix it.
    public let description: String

    init(
        _ code: Code,
        message: String,
        modules: [String] = [],
        failures: [(receiver: String, error: any Error)] = [],
        chain: [Hop] = [],
        description: String
    ) {
        self.code = code
        self.message = message
        self.modules = modules
        self.failures = failures
        self.chain = chain
        self.description = description
    }
}

// The errors, built where they are thrown: each names the message, the modules and the fix.
extension MessageError {
    /// This error with `hop` before its chain: a recursion error, as it unwinds through the sends.
    @usableFromInline
    func after(_ hop: Hop) -> MessageError {
        var copy = self
        copy.chain.insert(hop, at: 0)
        return copy
    }

    @usableFromInline
    static func noBus(_ message: String) -> MessageError {
        MessageError(
            .noBus,
            message: message,
            description: "`\(message)` cannot be sent: this context's host has no message bus. Build the host from "
                + "`manifest.withMessages()` (a generated manifest adds it when a module receives messages), and send "
                + "through the context the host gave the module."
        )
    }

    @usableFromInline
    static func closed(_ message: String, state: ApplicationState) -> MessageError {
        if state == .notRunning {
            return MessageError(
                .notLaunched,
                message: message,
                description: "`\(message)` was sent before the host began to launch, so it was not delivered. "
                    + "Messages flow from the start of `launch()` until termination ends: send it from a launch "
                    + "hook or later, not from an initializer."
            )
        }
        return MessageError(
            .terminated,
            message: message,
            description: "`\(message)` was sent after the host terminated, so it was not delivered. Every module "
                + "has received `willTerminate`; send before or during it."
        )
    }

    @usableFromInline
    static func noReceiver(_ message: String, receiver: String, isModule: Bool) -> MessageError {
        MessageError(
            .noReceiver,
            message: message,
            modules: [receiver],
            description: isModule
                ? "`\(receiver)` does not receive `\(message)`. Register a handler for it in its "
                    + "`receiveMessages(_:)` (`handlers.on(\(message).self) { … }`), or address the module that does."
                : "`\(receiver)` is not a module of this host (not in its manifest, disabled in this environment, "
                    + "or removed), so `\(message)` was not delivered. Address a module of the host."
        )
    }

    @usableFromInline
    static func channelReceiverRemoved(_ message: String, receiver: String) -> MessageError {
        MessageError(
            .noReceiver,
            message: message,
            modules: [receiver],
            description: "`\(message)` was not delivered: the host removed `\(receiver)` (removed, switched off or "
                + "quarantined) after this channel to it was resolved, so the channel reaches nobody. If the module is "
                + "back (registered again, switched on, released from quarantine), resolve the channel again "
                + "(`messenger.channel(for: \(message).self, to: …)`); or send with `send(_:to:)`, which finds the "
                + "receiver on every send."
        )
    }

    @usableFromInline
    static func asynchronousReceiver(_ message: String, receivers: [String]) -> MessageError {
        MessageError(
            .asynchronousReceiver,
            message: message,
            modules: receivers,
            description: receivers.map { "`\($0)`" }.joined(separator: ", ")
                + " handle\(receivers.count == 1 ? "s" : "") `\(message)` asynchronously, so a synchronous send "
                + "cannot call \(receivers.count == 1 ? "it" : "them"). Nothing was delivered. Send with `await` "
                + "from an async context, or make the handler synchronous."
        )
    }

    @usableFromInline
    static func receiversFailed(_ message: String, _ failures: [(receiver: String, error: any Error)]) -> MessageError {
        MessageError(
            .receiverFailed,
            message: message,
            modules: failures.map(\.receiver),
            failures: failures,
            description: failures.map { "`\($0.receiver)` threw \($0.error)" }.joined(separator: "; ")
                + " while handling `\(message)`. Every other receiver was still called. Fix the handler, or catch "
                + "the error in it if it is expected."
        )
    }

    @usableFromInline
    static func timedOut(_ message: String, receiver: String, budget: Duration) -> MessageError {
        MessageError(
            .timedOut,
            message: message,
            modules: [receiver],
            description: "`\(receiver)` did not answer `\(message)` within \(budget). The send went on without its "
                + "reply; the handler was cancelled, and whatever it returns later is dropped. Make the handler "
                + "answer sooner (or check for cancellation), or send with a larger budget."
        )
    }

    @usableFromInline
    static func recursionLimit(_ message: String, hop: Hop) -> MessageError {
        MessageError(
            .recursionLimit,
            message: message,
            modules: [hop.receiver],
            chain: [hop],
            description: "Messages nested deeper than \(Messenger.maximumDepth) handlers: `\(message)` to "
                + "`\(hop.receiver)` was not delivered. Receivers send messages to each other in a loop; `chain` shows "
                + "it. Break the loop, or send the follow-up after the handler returns (post a custom event)."
        )
    }
}

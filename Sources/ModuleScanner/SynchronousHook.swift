/// A hook a module implements with a synchronous function it declares itself, in its body or in an
/// extension in its own target: the generated manifest registers a closure that calls it, so the proxy
/// calls it without an `await` (`hooks.didBecomeActive(module, synchronously: { module.didBecomeActive($0) })`).
/// The compiler checks the claim: the closure is synchronous, so it does not compile if the function is
/// `async`.
public struct SynchronousHook: Sendable, Hashable, CustomStringConvertible {
    /// The event, as its `ModuleHooks` method is named: `didBecomeActive`.
    public var event: String
    /// Whether the function throws: the closure's call is written with `try` only then, since a `try`
    /// before a call that cannot throw is a warning in the adopter's build.
    public var throwing: Bool

    public init(event: String, throwing: Bool) {
        self.event = event
        self.throwing = throwing
    }

    public var description: String { throwing ? "\(event) (sync, throws)" : "\(event) (sync)" }
}

extension CapabilityScan {
    /// The hooks of `declaration`, a module type of this target, that its own functions implement
    /// synchronously, in the order of the events.
    ///
    /// Claimed only where a synchronous closure surely compiles, so the generated manifest does too; every
    /// other hook is awaited, as it always was. For each event the module adopts unconditionally, the type's
    /// body and its extensions in this target must declare exactly one instance function of the hook's
    /// name, under no `#if` beyond the module's own, with the hook's labels, parameter types and result, not
    /// `async`, `mutating` or generic, with no attribute that could change a call (`@available`, say), and
    /// callable from a nonisolated closure: not in an actor, a subclass, or a type or extension with a
    /// global-actor attribute, unless it is marked `nonisolated`.
    func synchronousHooks(
        of declaration: Declaration,
        capabilities: [DiscoveredCapability],
        entryConditions: [String]
    ) -> [SynchronousHook] {
        let name = declaration.qualifiedName
        guard let own = functions[name] else { return [] }
        // Members of an actor, of a type with a global actor, and of a subclass (which inherits its superclass's
        // isolation) are isolated unless marked `nonisolated`.
        let isolatedByDefault =
            declaration.mayBeIsolated
            || (declaration.kind == .class
                && declaration.inherits.contains { inheritable[$0]?.contains { $0.kind == .class } ?? false })
        var found: [SynchronousHook] = []
        for event in events {
            guard let hook = event.hook,
                capabilities.contains(where: { [event.async, event.sync].contains($0.name) && $0.conditions.isEmpty })
            else { continue }
            let named = own.filter { $0.name == hook.name && !$0.isStatic }
            guard named.count == 1, let function = named.first,
                function.labels == hook.labels,
                function.parameterTypes.count == hook.types.count,
                zip(function.parameterTypes, hook.types).allSatisfy({ Self.names($0, $1) }),
                hook.answers
                    ? function.returnType.map({ Self.names($0, "Bool") }) == true : Self.isVoid(function.returnType),
                !function.isAsync, !function.isMutating, !function.isGeneric, !function.hasOtherAttributes,
                !function.mayBeIsolated, function.isNonisolated || !isolatedByDefault,
                function.conditions.allSatisfy(entryConditions.contains)
            else { continue }
            found.append(SynchronousHook(event: event.method, throwing: function.isThrowing))
        }
        return found
    }

    /// Whether `written`, a type as written, names `type`: `URL` or `Foundation.URL` for `URL`.
    private static func names(_ written: String, _ type: String) -> Bool {
        written == type
            || (written.hasSuffix("." + type) && written.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." })
    }

    /// Whether a result type as written is none: nothing, `Void` or `()`.
    private static func isVoid(_ written: String?) -> Bool {
        guard let written else { return true }
        return written == "()" || names(written, "Void")
    }
}

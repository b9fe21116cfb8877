/// A function declared in a type's body or in an extension, as far as telling a synchronous hook needs: its
/// name and parameters, its effects, and what could keep a synchronous closure from calling it.
///
/// Recorded only for the target's own files; the scanner reads them to find the hooks a module implements
/// with a synchronous function (``SynchronousHook``).
struct FunctionDeclaration: Hashable {
    /// The base name: `didBecomeActive`.
    var name: String
    /// The argument labels, `_` for none: `["_", "context"]` for `open(_ url: URL, context: …)`.
    var labels: [String]
    /// Each parameter's type as written, its tokens joined: `LifecycleContext`, `Foundation.URL`,
    /// `inout Int`.
    var parameterTypes: [String]
    /// The result type as written, or `nil` when there is none.
    var returnType: String?
    var isAsync: Bool
    var isThrowing: Bool
    /// `static` or `class`: not an instance method.
    var isStatic: Bool
    /// `mutating` or `consuming`: it cannot be called on a `let`.
    var isMutating: Bool
    /// It has its own generic parameter clause.
    var isGeneric: Bool
    /// It is marked `nonisolated`.
    var isNonisolated: Bool
    /// An attribute on it, or on its type or extension, may isolate it to a global actor (`@MainActor`, or
    /// any attribute that names a type), so a nonisolated closure could not call it synchronously.
    var mayBeIsolated: Bool
    /// An attribute other than the harmless ones (`@inlinable`, `@discardableResult`, …): availability, say,
    /// could keep a call from compiling.
    var hasOtherAttributes: Bool
    /// The enclosing types and extensions, outermost first, as ``Declaration/scope`` names them: the body
    /// of `extension Outer.Inner` is `["Outer.Inner"]`.
    var scope: [String]
    /// The `#if` conditions that must all hold for it to exist.
    var conditions: [String]
    var file: String
    var line: Int

    /// The type it is declared in: `Outer.Inner`.
    var typeName: String { scope.joined(separator: ".") }
}

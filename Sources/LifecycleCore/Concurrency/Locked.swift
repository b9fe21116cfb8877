#if LIFECYCLE_TSAN
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#else
public import Synchronization
#endif

/// The package's lock: a value that is read and written only while holding it.
///
/// It is `Synchronization.Mutex`. Thread Sanitizer cannot see inside `Mutex`: the toolchain's
/// Synchronization library is not instrumented, so every access under the lock looks like a race
/// (`Docs/Reliability.md` shows the probe). Built with `-Xswiftc -DLIFECYCLE_TSAN`, for a sanitizer run,
/// the lock is a pthread mutex instead, which the sanitizer intercepts. Same API, same semantics.
#if LIFECYCLE_TSAN
@usableFromInline
package struct Locked<Value>: ~Copyable, Sendable {
    private let box: PThreadLockBox<Value>

    @usableFromInline package init(_ value: sending Value) { box = PThreadLockBox(value) }

    @usableFromInline package borrowing func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try box.withLock(body)
    }
}

/// The only `@unchecked Sendable` type in the package, and only in sanitizer builds: `value` is touched
/// only between `pthread_mutex_lock` and `pthread_mutex_unlock` of `mutex`, whose address never moves.
private final class PThreadLockBox<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(_ value: sending Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
#else
@usableFromInline package typealias Locked<Value> = _LifecycleLock<Value>

/// `Locked` outside sanitizer builds. Public only so its members can be `@inlinable`: a `package`
/// generic is not specialized across modules on this toolchain, and every unspecialized lock looks up
/// `Mutex<Value>`'s metadata at run time (a fifth of a scope's own cost, Docs/Performance.md, "Scopes").
/// Not API: its name starts with an underscore.
public struct _LifecycleLock<Value>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<Value>

    @inlinable public init(_ value: sending Value) { mutex = Mutex(value) }

    @inlinable public borrowing func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock(body)
    }
}
#endif

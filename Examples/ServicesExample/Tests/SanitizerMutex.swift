#if LIFECYCLE_TSAN
import LifecycleCore

/// In Thread Sanitizer builds only, this target's `Mutex`: the package's lock, `Locked`, under that name.
///
/// This code is written as a user writes theirs, with `Synchronization.Mutex`, which the sanitizer cannot see
/// inside: it would report every access under it as a race (`Docs/Reliability.md`, "Thread Sanitizer"). A
/// type of the target shadows the imported one, with the same `init` and `withLock`.
/// `Scripts/test-thread-sanitizer.sh` fails if a target uses `Mutex` without this file.
struct Mutex<Value>: ~Copyable, Sendable {
    private let lock: Locked<Value>

    init(_ value: sending Value) { lock = Locked(value) }

    borrowing func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try lock.withLock(body)
    }
}
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How deeply the current code is nested in message sends, so a loop of sends is cut at
/// ``Messenger/maximumDepth`` instead of exhausting the stack.
///
/// Two counters make one depth. A synchronous send runs its handlers without suspending, on one thread,
/// so it counts itself in a thread-local counter: one read and two writes per send, no allocation. An
/// `async` send may resume on another thread, so it counts itself in a task-local value, which its handlers
/// and the tasks they create inherit. Code in an `async` function is never inside a synchronous send's
/// stretch, so there the thread counter is 0, and the depth is the sum wherever it is read.
@usableFromInline
enum MessageDepth {
    /// The `async` nesting. Declared without the wrapper, so inlined sends can read and set it.
    @usableFromInline static let task = TaskLocal(wrappedValue: 0)

    /// The key of the thread-local synchronous nesting, created once.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The synchronous nesting on this thread.
    @usableFromInline
    static var onThread: Int {
        get { Int(bitPattern: pthread_getspecific(key)) }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }

    /// The depth of the code running now.
    @inlinable
    static var current: Int { task.get() + onThread }
}

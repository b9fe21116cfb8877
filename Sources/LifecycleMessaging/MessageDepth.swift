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
/// so it counts itself in a counter of the thread's own: one thread-specific read to find it, then plain
/// reads and writes, no allocation after the thread's first send. An `async` send may resume on another
/// thread, so it counts itself in a task-local value, which its handlers and the tasks they create
/// inherit. Code in an `async` function is never inside a synchronous send's stretch, so there the thread
/// counter is 0, and the depth is the sum wherever it is read.
@usableFromInline
enum MessageDepth {
    /// The `async` nesting. Declared without the wrapper, so inlined sends can read and set it.
    @usableFromInline static let task = TaskLocal(wrappedValue: 0)

    /// The key of each thread's counter, created once; a thread's counter is freed when the thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { counter in free(counter) }
        return key
    }()

    /// This thread's synchronous nesting, as a counter a send increments and restores in place. Allocated
    /// on the thread's first synchronous send; found with one `pthread_getspecific` after that.
    @usableFromInline
    static var threadCounter: UnsafeMutablePointer<Int> {
        if let counter = pthread_getspecific(key) { return counter.assumingMemoryBound(to: Int.self) }
        return newThreadCounter()
    }

    private static func newThreadCounter() -> UnsafeMutablePointer<Int> {
        guard let raw = malloc(MemoryLayout<Int>.size) else { fatalError("no memory for a message depth counter") }
        let counter = raw.bindMemory(to: Int.self, capacity: 1)
        counter.initialize(to: 0)
        pthread_setspecific(key, raw)
        return counter
    }

    /// The synchronous nesting on this thread.
    @inlinable
    static var onThread: Int {
        get { threadCounter.pointee }
        set { threadCounter.pointee = newValue }
    }

    /// The depth of the code running now.
    @inlinable
    static var current: Int { task.get() + onThread }
}

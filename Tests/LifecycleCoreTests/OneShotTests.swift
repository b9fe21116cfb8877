import LifecycleCore
import Testing

@Suite("OneShot: the first settles, once")
struct OneShotTests {
    @Test("Settled before the wait: the waiter gets the value at once; later settlements are refused")
    func settledEarly() async {
        let reply = OneShot<Int>()
        #expect(reply.settle(1))
        #expect(!reply.settle(2))
        #expect(reply.isSettled)
        #expect(await reply.value() == 1)
        #expect(!reply.settle(3))
    }

    @Test("Settled while waiting: the waiter resumes with the first value")
    func settledWhileWaiting() async {
        let reply = OneShot<String>()
        let waiter = Task { await reply.value() }
        while !reply.isWaiting { await Task.yield() }
        #expect(reply.settle("job"))
        #expect(!reply.settle("deadline"))
        #expect(await waiter.value == "job")
    }

    @Test("A cancelled waiter settles with its own value; what comes later is refused")
    func cancelledWaiter() async {
        let reply = OneShot<String>()
        let waiter = Task { await reply.value(orOnCancel: { "cancelled" }) }
        waiter.cancel()
        #expect(await waiter.value == "cancelled")
        #expect(!reply.settle("job"))
    }
}

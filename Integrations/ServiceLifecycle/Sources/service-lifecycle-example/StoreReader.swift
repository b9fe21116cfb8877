import Synchronization

/// One request's reads of the store: a scoped service (`Docs/Services.md`, "Scoped services"), made on the
/// request's first read and shut down when its request scope ends, after the scope's end actions.
///
/// `GET /items/{id}` reads through it. At its shutdown it writes how many reads the request made to the
/// request log (`request items/{id} reader closed after 2 reads`, at `--log-level info`), so a test sees one
/// reader per request, made and closed.
final class StoreReader: Sendable {
    private let store: Store
    private let log: RequestLog
    private let reads = Mutex(0)
    /// What the request log calls the request, set by its first read: `items/7`.
    private let request = Mutex<String?>(nil)

    init(store: Store, log: RequestLog) {
        self.store = store
        self.log = log
    }

    /// The item `id`, read for the request `request` (`items/7`).
    func item(_ id: String, for request: String) async throws(StoreClosed) -> String? {
        reads.withLock { $0 += 1 }
        self.request.withLock { $0 = $0 ?? request }
        return try await store.item(id)
    }

    /// Writes the reads to the request log: the reader's shutdown.
    func close() {
        let (count, request) = (reads.withLock { $0 }, self.request.withLock { $0 })
        log.write("request \(request ?? "?") reader closed after \(count) read\(count == 1 ? "" : "s")")
    }
}

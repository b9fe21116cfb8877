/// A stand-in for a database: opened, filled, read by requests, and closed.
actor Store {
    private var items: [String: String]?

    /// Opens the store, empty.
    func open() { items = [:] }

    /// Fills the store with `count` items, `1` to `count`.
    func fill(count: Int) throws(StoreClosed) {
        guard items != nil else { throw StoreClosed() }
        for id in 1...count { items?["\(id)"] = "value-\(id)" }
    }

    /// The item `id`, or `nil` if there is none.
    func item(_ id: String) throws(StoreClosed) -> String? {
        guard let items else { throw StoreClosed() }
        return items[id]
    }

    /// How many items the store holds.
    func count() throws(StoreClosed) -> Int {
        guard let items else { throw StoreClosed() }
        return items.count
    }

    /// Closes the store; reads throw from now on. Returns how many items it held.
    func close() -> Int {
        defer { items = nil }
        return items?.count ?? 0
    }
}

/// Thrown when the store is used before it is opened or after it is closed.
struct StoreClosed: Error, CustomStringConvertible {
    var description: String {
        "the store is closed: StoreModule opens it in setup and closes it in willTerminate, so a request that "
            + "reads it after willTerminate ran was still in flight when the host terminated. List the "
            + "ApplicationHostService before the HTTP server in the ServiceGroup, so the server drains first."
    }
}

import LifecycleCore
import LifecycleMessaging

/// Asks every archive to store a key; each answers whether it stored it.
struct Store: Message {
    typealias Reply = Bool
    var key: String
}

/// A receiver whose handler is `async`: it awaits its storage.
struct ArchiveModule: MessageReceiving {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Store.self) { _, store, _ in
            await Task.yield()  // stands for the I/O a real archive awaits
            print("archived \(store.key)")
            return true
        }
    }
}

/// A receiver whose handler is synchronous.
struct MemoryModule: MessageReceiving {
    static let priority: ModulePriority = .high
    init(context: LifecycleContext) {}

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Store.self) { _, store, _ in
            print("kept \(store.key) in memory")
            return true
        }
    }
}

import LifecycleCore
import LifecycleMessaging
import LifecycleProxy

// Docs/Messages.md, "From main.swift": top-level code, the usual shape of a command-line host. The awaited
// calls reach the `async` receiver here too.

// README: sending from main.swift
let host = try ApplicationHost(manifest: .discovered)
try await host.launch()

let messages = host.context.messages
let stored = try await messages.broadcast(Store(key: "greeting"), combining: .collect)
print("stored by \(stored.count) receivers: \(stored)")
let archived = try await messages.send(Store(key: "farewell"), to: ArchiveModule.self)
print("archived by ArchiveModule: \(archived)")

try await host.terminate()
// README: end

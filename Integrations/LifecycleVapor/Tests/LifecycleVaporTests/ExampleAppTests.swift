import ExampleFeatures
import LifecycleCore
import LifecycleVapor
import Testing
import Vapor
import VaporTesting

@testable import vapor_example

/// The example's app in-process, configured by its own `configure`: the discovered modules serve their
/// routes, the scope action and the scoped service run per request, and shutdown stops the work before the
/// modules close their stores.
@Suite struct ExampleAppTests {
    @Test func theDiscoveredModulesServeAndTerminateInOrder() async throws {
        let transcript = Transcript(echoes: false)
        try await withApp { app in
            try configure(app, transcript: transcript)
            let names = app.modules?.host.participants.map(\.name) ?? []
            #expect(names.contains(UsersModule.moduleName))
            #expect(names.contains(TodosModule.moduleName))
            #expect(names.contains(RemindersModule.moduleName))
            try await app.asyncBoot()
            try await app.testing()
                .test(.GET, "users") { response in
                    #expect(response.status == .ok)
                    let names = try response.content.decode([String].self)
                    #expect(names == ["ada", "grace", "linus"])
                }
                .test(.POST, "todos?user=2", body: ByteBuffer(string: "review the patch")) { response in
                    #expect(response.status == .ok)
                    let todo = try response.content.decode(Todo.self)
                    #expect(todo == Todo(id: 1, user: 2, title: "review the patch"))
                }
                .test(.POST, "todos?user=9", body: ByteBuffer(string: "nobody's")) { response in
                    #expect(response.status == .badRequest)
                }
                .test(.POST, "lifecycle/background") { response in
                    #expect(response.status == .forbidden)  // no admin token
                }
                .test(.GET, "health/ready") { response in #expect(response.status == .ok) }
        }
        let lines = transcript.written
        #expect(lines.contains("audit: added 1"))
        // RequestLogAction logs through swift-log at .debug: nothing of it reaches the transcript here.
        #expect(!lines.contains { $0.hasPrefix("request ") })
        let order = ["reminders: stopped", "todos: closed with 1 todos", "users: closed with 3 users"]
        #expect(order.allSatisfy(lines.contains))
        #expect(order.compactMap(lines.firstIndex(of:)) == order.compactMap(lines.firstIndex(of:)).sorted())
    }
}

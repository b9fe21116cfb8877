import LifecycleCore
import LifecycleProxy
import LifecycleWork
import Testing

@testable import QuickStartExample

// README: test the launch order
@Test func configurationLaunchesBeforeTheServer() async throws {
    let host = try ApplicationHost(manifest: .discovered, launchOptions: LaunchOptions())

    #expect(host.plan(for: .willFinishLaunching).map(\.name) == ["QuickStartExample.ConfigurationModule"])
    #expect(host.workStatus.map(\.name) == ["serve"])  // the server owns its work

    let result = try await host.launch()
    #expect(result.willFinishLaunching)
    try await host.waitUntilReady()  // returns once the server's work reported ready
    #expect(host.workStatus.map(\.phase) == [.ready])

    try await host.terminate()  // stops the work gracefully, then delivers willTerminate
    #expect(host.workStatus.map(\.phase) == [.stopped])
}
// README: end

@Test func quickStartRunsEndToEnd() async throws {
    try await QuickStart.main()
}

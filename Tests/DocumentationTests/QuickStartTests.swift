import LifecycleCore
import LifecycleProxy
import Testing

@testable import QuickStartExample

// README: test the launch order
@Test func configurationLaunchesBeforeTheServer() async throws {
    let host = try ApplicationHost(manifest: .discovered, launchOptions: LaunchOptions())

    #expect(host.plan(for: .willFinishLaunching).map(\.name) == ["QuickStartExample.ConfigurationModule"])
    #expect(host.plan(for: .willTerminate).map(\.name) == ["QuickStartExample.HTTPServerModule"])

    let result = try await host.launch()
    #expect(result.didFinishLaunching)
    #expect(host.state == .active)
}
// README: end

@Test func quickStartRunsEndToEnd() async throws {
    try await QuickStart.main()
}

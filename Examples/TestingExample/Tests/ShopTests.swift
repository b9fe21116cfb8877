#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LifecycleCore
import LifecycleProxy
import LifecycleTesting
@testable import TestingExample
import Testing

// The tests an adopter writes for the shop's modules (Docs/Testing.md quotes them).

/// What the shop runs with: the payment gateway's key, and no profile (so request tracing is off).
let shopOptions = LaunchOptions(environment: ["PAYMENTS_API_KEY": "test-key"])

// README: test the launch order
@Test func thePoolStartsBeforeTheCacheAndStopsAfterIt() async throws {
    let launch = try await launchManifest(.TestingExample, launchOptions: shopOptions)
    expectDelivery(of: .warmUp, to: DatabasePoolModule.self, before: CacheModule.self, in: launch.recorder)

    try await launch.host.terminate()
    expectReceivers(of: .willTerminate, in: launch.recorder, [CacheModule.self, DatabasePoolModule.self])
}
// README: end

// README: test why the order is what it is
@Test func theCacheWaitsForThePoolBecauseItDependsOnIt() async throws {
    let launch = try await launchManifest(.TestingExample, launchOptions: shopOptions)
    expectPlaced(CacheModule.self, after: DatabasePoolModule.self, because: .dependency, for: .warmUp, in: launch.host)
    try await launch.host.terminate()
}
// README: end

// README: test a failing module
@Test func withoutItsAPIKeyPaymentsAbortsTheLaunch() async throws {
    let launch = try await launchManifest(.TestingExample)  // no PAYMENTS_API_KEY

    #expect(launch.error?.code == .launchAborted)
    #expect(launch.error?.failures.map(\.participant.name) == [PaymentsModule.moduleName])
    // The rollback: whoever launch reached stops again, in reverse order; payments cleans up after itself.
    expectReceivers(of: .willTerminate, in: launch.recorder, [CacheModule.self, DatabasePoolModule.self])
}
// README: end

// README: test the combined result
@Test func paymentsHandlesTheGatewayReturnLink() async throws {
    let launch = try await launchManifest(.TestingExample, launchOptions: shopOptions)

    _ = try await launch.host.open(URL(string: "shop://payments/return?order=42")!)
    expectCombinedResult(of: .openURL, in: launch.recorder, true)
}
// README: end

// README: test a profile
@Test func requestTracingRunsInStagingButNotInProduction() async throws {
    let staging = try await launchManifest(.TestingExample, launchOptions: shopOptions, profile: "staging")
    expectReceivers(of: .willFinishLaunching, in: staging.recorder, [RequestTracingModule.self])

    let production = try await launchManifest(.TestingExample, launchOptions: shopOptions, profile: "production")
    #expect(production.plan.disabledReason(for: RequestTracingModule.self) != nil)
    #expect(production.recorder.events(of: RequestTracingModule.self).isEmpty)
}
// README: end

// README: explore random lifecycles
@Test func everyOpenedConnectionIsClosedByTerminate() async {
    let exploration = LifecycleExploration(
        manifest: .TestingExample,
        invariants: [
            LifecycleInvariant("every opened connection is closed by terminate") { snapshot in
                let pool = snapshot.launchOptions[ConnectionPoolKey.self]
                return !snapshot.isFinal || snapshot.wasFaulted(DatabasePoolModule.self, in: .willTerminate)
                    || pool?.openConnections == 0
            }
        ],
        launchOptions: {
            var options = shopOptions
            options[ConnectionPoolKey.self] = ConnectionPool(url: "postgres://test/shop")
            return options
        }
    )
    await exploration.expectInvariantsHold(runs: 200)
}
// README: end

// README: check the manifest
@Test func everyShopModuleIsInTheManifest() throws {
    try verifyModuleManifestCompleteness(.TestingExample)
}
// README: end

@Test func aHostBuiltByHandRecordsTheSameWay() async throws {
    // README: record a host built by hand
    let recorder = LifecycleRecorder()
    let host = try ApplicationHost(
        manifest: .TestingExample,
        launchOptions: shopOptions,
        configuration: .init(onDelivery: recorder.observer)
    )
    // README: end
    try await host.launch()
    expectReceivers(of: .didFinishLaunching, in: recorder, [PaymentsModule.self])
}

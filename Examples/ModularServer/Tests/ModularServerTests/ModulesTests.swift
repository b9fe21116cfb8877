import Accounts
import LifecycleCore
import LifecycleTesting
import Testing

@testable import Greetings
@testable import ModularServer

/// The modules the server runs: the manifest the discovery plugin wrote for it, and their order.
@Suite struct ModulesTests {
    @Test func thePluginFindsTheModulesOfBothTargets() throws {
        #expect(
            ModuleManifest.discovered.entries.map(\.moduleName) == [
                "Accounts.AccountsModule", "Greetings.GreetingsModule",
            ]
        )
        try verifyModuleManifestCompleteness(.discovered)
    }

    @Test func greetingsLaunchAfterAccountsBecauseTheyRequireItsService() async throws {
        let launch = try await launchManifest(.discovered)
        let names = launch.host.participants.map(\.name)
        let accounts = try #require(names.firstIndex(of: AccountsModule.moduleName))
        let greetings = try #require(names.firstIndex(of: GreetingsModule.moduleName))
        #expect(accounts < greetings)
        #expect(
            launch.host.dependencies(of: launch.host.participants[greetings]).map(\.description) == [
                "Accounts.AccountsModule (requires service `AccountDirectory`)"
            ]
        )
        try await launch.host.terminate()
    }
}

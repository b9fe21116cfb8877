import LifecycleCore
import LifecycleTesting
import Testing

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
}

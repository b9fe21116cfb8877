import LifecycleCore
import LifecycleProxy
import LifecycleScopes
import LifecycleServices
import LifecycleVapor
import Testing
import Vapor
import VaporTesting

/// The integration in-process, with VaporTesting: launch in the async boot, gated routes, request scopes,
/// services from a request, the health and admin routes, and termination at shutdown.
@Suite struct ModuleHostTests {
    /// Runs `test` with an application whose host has `modules`, booted (launched).
    func withModules(
        _ modules: [any LifecycleModule.Type],
        record: Record = Record(),
        configuration: ApplicationHost.Configuration = ApplicationHost.Configuration(onUnobservedError: { _ in }),
        _ test: (Application, VaporModuleHost) async throws -> Void
    ) async throws {
        try await withApp { app in
            let manifest = ModuleManifest(name: "tests", modules).withServices().withScopes(actions: [EndedScopes.self])
            let host = try app.useModules(
                manifest,
                configuration: configuration,
                launchOptions: options(record),
                drainDelay: .zero
            )
            host.registerHealthRoutes(on: app)
            host.registerAdminRoutes(on: app)
            try await app.asyncBoot()
            try await test(app, host)
        }
    }

    @Test func aModulesRoutesServeInARequestScopeWithScopedServices() async throws {
        let record = Record()
        try await withModules([GreeterModule.self], record: record) { app, _ in
            try await app.testing().test(.GET, "greet") { response in
                #expect(response.status == .ok)
                #expect(response.body.string == "GET /greet|current:true|same:true")
            }
            // The scope ended after the response: its action ran and its scoped service shut down.
            #expect(record.written.contains("ended GET /greet"))
            #expect(record.written.contains("counter: shut down"))
        }
    }

    @Test func theApplicationsOwnRoutesRunInARequestScopeOfEveryKind() async throws {
        let record = Record()
        try await withApp { app in
            let manifest = ModuleManifest(name: "tests", [GreeterModule.self]).withServices()
                .withScopes(actions: [EndedScopes.self])
            try app.useModules(manifest, launchOptions: options(record), drainDelay: .zero)
            // Registered on `app` itself, before the boot: an async handler, a handler of the future kind, and
            // one behind an async middleware, which must run inside the scope too.
            app.get("own") { req async in req.modules.scope?.name ?? "no scope" }
            app.get("own-future") { req in req.modules.scope?.name ?? "no scope" }
            app.grouped(ScopeNamingMiddleware()).get("own-grouped", ":page") { req async in
                req.headers.first(name: "x-scope-in-middleware") ?? "middleware not run"
            }
            try await app.asyncBoot()
            try await app.testing()
                .test(.GET, "own") { response in #expect(response.body.string == "GET /own") }
                .test(.GET, "own-future") { response in #expect(response.body.string == "GET /own-future") }
                .test(.GET, "own-grouped/7?sort=up") { response in
                    #expect(response.body.string == "GET /own-grouped/:page")  // the route, not the path
                }
            #expect(record.written.filter { $0.hasPrefix("ended GET /own") }.count == 3)
        }
    }

    @Test func aRefusedRequestBeginsNoScope() async throws {
        let record = Record()
        try await withModules([GreeterModule.self, FailingModule.self], record: record) { app, _ in
            try await app.testing()
                .test(.GET, "failing") { response in #expect(response.status == .serviceUnavailable) }
                .test(.GET, "greet") { response in #expect(response.status == .ok) }
            #expect(record.written.filter { $0.hasPrefix("ended ") } == ["ended GET /greet"])
        }
    }

    @Test func theModulesTerminateAtShutdown() async throws {
        let record = Record()
        var host: VaporModuleHost?
        try await withModules([GreeterModule.self], record: record) { _, modules in
            host = modules
            #expect(modules.host.state == .active)
        }
        #expect(host?.host.state == .terminated)
        #expect(record.written.last == "greeter: willTerminate")
        #expect(host?.terminationError == nil)
    }

    @Test func aRouteAnswers503UntilItsModuleHasLaunched() async throws {
        let record = Record()
        try await withApp { app in
            let manifest = ModuleManifest(name: "tests", [SlowLaunchModule.self])
            try app.useModules(manifest, launchOptions: options(record), drainDelay: .zero)
            let boot = Task { try await app.asyncBoot() }
            await record.routesRegistered.wait()  // setup done; warm-up waits for the test
            try await app.testing().test(.GET, "slow-launch") { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.body.string.contains("is launching"))
            }
            record.warmUp.open()
            try await boot.value
            try await app.testing().test(.GET, "slow-launch") { response in
                #expect(response.status == .ok)
                #expect(response.body.string == "launched")
            }
        }
    }

    @Test func aModuleWhoseLaunchHookThrewKeepsItsRoutesClosed() async throws {
        try await withModules([GreeterModule.self, FailingModule.self]) { app, modules in
            #expect(modules.launchFailures.map(\.participant.name) == [FailingModule.moduleName])
            try await app.testing()
                .test(.GET, "failing") { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(response.body.string.contains("failed to launch"))
                }
                .test(.GET, "greet") { response in #expect(response.status == .ok) }
        }
    }

    @Test func aModuleSwitchedOffAnswers404() async throws {
        try await withModules([GreeterModule.self]) { app, modules in
            let switches = try ModuleSwitches.parse("\(GreeterModule.moduleName) = off", source: "test")
            try await modules.host.reloadModules(switches)
            try await app.testing().test(.GET, "greet") { response in
                #expect(response.status == .notFound)
                #expect(response.body.string.contains("is switched off"))
            }
        }
    }

    @Test func aQuarantinedModuleAnswers503AndTheOthersServe() async throws {
        var configuration = ApplicationHost.Configuration(onUnobservedError: { _ in })
        configuration.quarantine = QuarantinePolicy(failures: 1, within: .seconds(3_600))
        try await withModules([GreeterModule.self, FragileModule.self], configuration: configuration) { app, _ in
            try await app.testing()
                .test(.GET, "fragile") { response in #expect(response.status == .ok) }
                .test(.POST, "lifecycle/background") { response in
                    #expect(response.status == .serviceUnavailable)  // not ready in the background
                    #expect(response.body.string.contains(#""state":"background""#))
                }
                .test(.POST, "lifecycle/foreground") { response in #expect(response.status == .ok) }
                .test(.GET, "fragile") { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(response.body.string.contains("is quarantined"))
                }
                .test(.GET, "greet") { response in #expect(response.status == .ok) }
        }
    }

    @Test func theHealthRoutesFollowTheHost() async throws {
        try await withModules([GreeterModule.self]) { app, modules in
            try await app.testing()
                .test(.GET, "health/live") { response in
                    #expect(response.status == .ok)
                    #expect(response.body.string == "alive\n")
                }
                .test(.GET, "health") { response in #expect(response.status == .ok) }
                .test(.GET, "health/ready") { response in
                    #expect(response.status == .ok)
                    #expect(
                        response.body.string
                            == #"{"degraded":[],"draining":false,"notReady":[],"quarantined":[],"ready":true,"state":"active"}"#
                    )
                }
            modules.readiness.beginDraining()
            try await app.testing().test(.GET, "health/ready") { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.body.string.contains(#""draining":true"#))
            }
        }
    }

    @Test func theSynchronousBootIsRefusedWithTheFix() async throws {
        try await withApp { app in
            try app.useModules(
                ModuleManifest(name: "tests", [GreeterModule.self]),
                launchOptions: LaunchOptions(),
                drainDelay: .zero
            )
            #expect(throws: VaporModulesError.synchronousBoot) { try app.testing() }  // boot(), synchronous
        }
    }

    @Test func aSecondUseModulesIsRefused() async throws {
        try await withApp { app in
            let manifest = ModuleManifest(name: "tests", [GreeterModule.self])
            try app.useModules(manifest, launchOptions: LaunchOptions())
            #expect(throws: VaporModulesError.alreadyConfigured) {
                try app.useModules(manifest, launchOptions: LaunchOptions())
            }
        }
    }

    @Test func aModuleOutsideVaporGetsATypedErrorNamingIt() async throws {
        let context = LifecycleContext(launchOptions: LaunchOptions())
        #expect(throws: VaporModulesError.notInVaporHost(module: GreeterModule.moduleName, event: "setUp")) {
            try context.vapor(for: GreeterModule.self, event: "setUp")
        }
        let error = VaporModulesError.notInVaporHost(module: "App.Users", event: "setUp")
        #expect(error.description.contains("App.Users") && error.description.contains("app.useModules"))
    }
}

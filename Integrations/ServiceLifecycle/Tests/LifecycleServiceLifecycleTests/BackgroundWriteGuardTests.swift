import Foundation
import LifecycleCore
import LifecycleProxy
import LifecycleRouting
import Synchronization
import Testing

@testable import service_lifecycle_example

/// `BackgroundWriteGuard` in a host of the example's own manifest, in this process: a graceful shutdown
/// stops the HTTP server before the host leaves the foreground, so no HTTP request can reach it then.
@Suite("BackgroundWriteGuard, in a host of the example's modules")
struct BackgroundWriteGuardTests {
    /// What a write, opened by value, did in a state.
    struct Attempt: Sendable {
        let state: ApplicationState
        let error: RouteError?
    }

    /// The attempts of ``WritingModule``.
    final class Attempts: Sendable {
        private let attempts = Mutex<[Attempt]>([])
        func append(_ attempt: Attempt) { attempts.withLock { $0.append(attempt) } }
        var all: [Attempt] { attempts.withLock { $0 } }
    }

    enum AttemptsKey: LaunchOptionKey {
        static let defaultValue: Attempts? = nil
    }

    /// Opens a write, `FillStore`, by value in didEnterBackground and in willTerminate, where the host is
    /// in the background and terminating. At a low priority it receives both before `StoreModule`, so the
    /// store is still open: only the guard can refuse the write.
    struct WritingModule: LifecycleModule, DidEnterBackground, WillTerminate {
        static let priority: ModulePriority = .low
        let attempts: Attempts?

        init(context: LifecycleContext) {
            attempts = context.launchOptions[AttemptsKey.self]
        }

        func didEnterBackground(_ context: LifecycleContext) async throws { await write(context) }

        func willTerminate(_ context: LifecycleContext) async throws { await write(context) }

        private func write(_ context: LifecycleContext) async {
            do {
                _ = try await context.router?.open(FillStore(count: 120))
                attempts?.append(Attempt(state: context.applicationState, error: nil))
            } catch {
                attempts?.append(Attempt(state: context.applicationState, error: error))
            }
        }
    }

    @Test("Writes pass in the foreground, and are refused with 503 in the background and while terminating")
    func writesAreRefusedOutsideTheForeground() async throws {
        let lines = Mutex<[String]>([])
        let attempts = Attempts()
        var options = LaunchOptions(arguments: ["--admin-token", "secret"])
        options[ExampleServicesKey.self] = ExampleServices(
            transcript: Transcript { line in lines.withLock { $0.append(line) } }
        )
        options[AttemptsKey.self] = attempts
        let host = try ApplicationHost(
            manifest: ModuleManifest(combining: [.example, ModuleManifest([WritingModule.self])]),
            launchOptions: options
        )
        let router = try #require(host.router)
        #expect(router.interceptors == [AdminTokenInterceptor.interceptorName, BackgroundWriteGuard.interceptorName])
        try await host.launch()

        // Active, then inactive: writes pass, by URL with the token and by value.
        let fill = try #require(URL(string: "/admin/store/fill?count=110&token=secret"))
        let report = try #require(try await router.open(url: fill) as? StoreReport)
        #expect(report.items == 110)
        try await host.resignActive()
        #expect(host.state == .inactive)
        #expect(try await router.open(FillStore(count: 111)).items == 111)

        // Background: the write is refused by the guard, and answered 503; a read still passes.
        try await host.enterBackground()
        #expect(host.state == .background)
        let refused = await #expect(throws: RouteError.self) { try await router.open(url: fill) }
        #expect(refused?.code == .rejected)
        #expect(refused?.interceptor == BackgroundWriteGuard.interceptorName)
        let reason = refused?.underlying as? BackgroundWriteGuard.HostNotAcceptingWrites
        #expect(reason?.state == .background)
        #expect(refused.map { AdminFailure($0).status } == 503)
        let item = try await router.open(url: try #require(URL(string: "/admin/items/111?token=secret")))
        #expect((item as? ItemReport)?.value == "value-111")

        // The token still comes first: a write without it is refused by AdminTokenInterceptor, with 401.
        let anonymous = await #expect(throws: RouteError.self) {
            try await router.open(url: try #require(URL(string: "/admin/store/fill")))
        }
        #expect(anonymous?.interceptor == AdminTokenInterceptor.interceptorName)
        #expect(anonymous.map { AdminFailure($0).status } == 401)

        try await host.terminate()
        // WritingModule's writes, by value (no token needed), in the background and while terminating.
        let seen = attempts.all
        #expect(seen.map(\.state) == [.background, .terminating])
        for attempt in seen {
            #expect(attempt.error?.code == .rejected, "\(attempt.state): \(String(describing: attempt.error))")
            #expect(attempt.error?.interceptor == BackgroundWriteGuard.interceptorName)
        }
        // No refused write ran: the store closed with the 111 items the foreground writes left.
        #expect(lines.withLock { $0 }.contains("store: closed with 111 items\n"))
    }
}

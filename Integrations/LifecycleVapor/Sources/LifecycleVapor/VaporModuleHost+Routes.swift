import Foundation
import LifecycleCore
import LifecycleHosting
import Vapor

extension VaporModuleHost {
    /// Registers the health probes on `routes`, the same contract as the Hummingbird example
    /// (`Docs/Hosting.md`, "Health"):
    ///
    /// - `GET health/live` and `GET health`: liveness, from ``liveness``: `200 alive` while the probe has
    ///   seen the host handle its requests within the tolerance, `503 not responsive` once a hook has held
    ///   it longer.
    /// - `GET health/ready`: readiness, from ``readiness``: the `HostHealth` JSON, 200 while the host is
    ///   active or inactive with every module ready, 503 in the background, from the moment shutdown begins
    ///   (draining, before the server stops accepting), and while terminating.
    ///
    /// Register them on `app` itself, not behind an authentication middleware: a load balancer asks them.
    public func registerHealthRoutes(on routes: any RoutesBuilder) {
        let liveness = self.liveness
        let readiness = self.readiness
        let live: @Sendable (Request) -> Response = { _ in
            let alive = liveness.isAlive
            return Response(
                status: alive ? .ok : .serviceUnavailable,
                headers: ["content-type": "text/plain; charset=utf-8"],
                body: .init(string: alive ? "alive\n" : "not responsive\n")
            )
        }
        routes.get("health", "live", use: live)
        routes.get("health", use: live)
        routes.get("health", "ready") { _ async in
            Self.json(await readiness.health())
        }
    }

    /// Registers the operator's routes on `routes`: put them behind your authentication middleware
    /// (`app.grouped(auth)`), they change the whole application's state.
    ///
    /// - `POST lifecycle/background`: ``enterBackground()``, then the `HostHealth` JSON (503: not ready).
    /// - `POST lifecycle/foreground`: ``enterForeground()``, then the `HostHealth` JSON.
    ///
    /// A change the host refuses in its state (background while terminating, say) answers 409 with the
    /// `LifecycleError`'s description. Hooks that threw during the change do not undo it: the route logs
    /// them and answers the new state.
    public func registerAdminRoutes(on routes: any RoutesBuilder) {
        routes.post("lifecycle", "background") { [self] req async throws in
            try await change(req) { (host) async throws(LifecycleError) in try await host.enterBackground() }
        }
        routes.post("lifecycle", "foreground") { [self] req async throws in
            try await change(req) { (host) async throws(LifecycleError) in try await host.enterForeground() }
        }
    }

    /// Runs `change`, then answers the health.
    private func change(
        _ request: Request,
        _ change: (VaporModuleHost) async throws(LifecycleError) -> Void
    ) async throws -> Response {
        do {
            try await change(self)
        } catch {
            guard error.code == .hookFailed else { throw Abort(.conflict, reason: error.description) }
            request.logger.error("modules: hooks failed in \(request.url.path): \(error)")
        }
        return Self.json(await readiness.health())
    }

    /// `health` as JSON with sorted keys; 200 when ready, else 503.
    static func json(_ health: HostHealth) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(health)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return Response(
            status: health.isReady ? .ok : .serviceUnavailable,
            headers: ["content-type": "application/json; charset=utf-8"],
            body: .init(string: body)
        )
    }
}

import Hummingbird
import LifecycleCore

/// Answers `503 launching` (with `Retry-After: 1`) to every request while the host has not finished
/// launching: the server listens from the start, so that `/health/ready` can say it is not ready, but the
/// routes need the modules. Added after the health routes, before every other middleware and route.
struct LaunchGate<Context: RequestContext>: RouterMiddleware {
    let host: ApplicationHost

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        switch host.state {
        case .notRunning, .launching:
            return Response(
                status: .serviceUnavailable,
                headers: [.contentType: "text/plain; charset=utf-8", .retryAfter: "1"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "launching\n"))
            )
        case .active, .inactive, .background, .terminating, .terminated:
            return try await next(request, context)
        }
    }
}

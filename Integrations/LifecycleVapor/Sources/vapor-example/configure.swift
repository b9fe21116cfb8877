import ExampleFeatures
import LifecycleCore
import LifecycleVapor
import Vapor

// README: vapor-configure
/// The whole of the app's configuration: the modules bring their own routes, services and work.
func configure(_ app: Application, transcript: Transcript) throws {
    var options = LaunchOptions.current
    options[TranscriptKey.self] = transcript  // per host, never a global
    let modules = try app.useModules(.discovered, launchOptions: options)
    modules.registerHealthRoutes(on: app)  // GET /health, /health/live, /health/ready
    modules.registerAdminRoutes(on: app.grouped(AdminToken(Environment.get("ADMIN_TOKEN"))))  // POST /lifecycle/...
}
// README: end

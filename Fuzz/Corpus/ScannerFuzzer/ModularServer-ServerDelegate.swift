import LifecycleCore

/// The program's own participant. It receives every reverse event after every module, so its
/// `willTerminate` is the last word of a termination.
struct ServerDelegate: ApplicationDelegate, WillTerminate {
    let log: ServerLog

    func willTerminate(_ context: LifecycleContext) {
        log.write("server: stopped, after every module")
    }
}

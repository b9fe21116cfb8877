import ArgumentParser
import LifecycleArgumentParser
import LifecycleCore
import LifecycleHosting

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the shop's reports, and contributes `report` and `watch`. With `SHOP_FAIL_SETUP` set, its set-up
/// throws: what the process tests use for a failing launch. Says when a signal moves the host (SIGUSR1,
/// SIGUSR2) or asks for a reload (SIGHUP, `ReloadRequested`) while a command runs.
struct ReportsModule: LifecycleModule, CommandContributing, SetupStage, DidFinishLaunching, DidEnterBackground,
    WillEnterForeground, CustomEventHandling, WillTerminate
{
    static let priority: ModulePriority = .normal
    static let commands: [any HostedCommand.Type] = [Report.self, Watch.self]

    init(context: LifecycleContext) {}

    func setUp(_ context: LifecycleContext) throws {
        if let reason = context.launchOptions.environment["SHOP_FAIL_SETUP"] {
            throw ReportsUnavailable(reason: reason)
        }
    }

    func didFinishLaunching(_ context: LifecycleContext) -> Bool {
        let command = context.launchOptions[HostedCommandName.self] ?? "none"
        report("reports: launched for \(command)")
        return true
    }

    func didEnterBackground(_ context: LifecycleContext) { report("reports: background") }

    func willEnterForeground(_ context: LifecycleContext) { report("reports: foreground") }

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(ReloadRequested.self) { _, event, _ in
            report("reports: reloaded on \(event.signal)")
            return false  // nothing to re-read: the example keeps its reports in memory
        }
    }

    func willTerminate(_ context: LifecycleContext) { report("reports: terminated") }
}

/// The reports' store could not be opened.
struct ReportsUnavailable: Error, CustomStringConvertible {
    let reason: String
    var description: String { "ReportsModule: the reports' store is unavailable (\(reason)); unset SHOP_FAIL_SETUP" }
}

/// `shop report --day n`.
struct Report: HostedCommand {
    static let configuration = CommandConfiguration(abstract: "Prints one day's totals.")

    @Option(help: "The day of the month.") var day: Int

    func validate() throws {
        guard (1...31).contains(day) else { throw ValidationError("--day must be 1 to 31, not \(day)") }
    }

    func run(on host: ApplicationHost) async throws {
        report("report: day \(day): 0 sales")
    }
}

/// `shop watch`: runs until it is stopped (a signal cancels it), or for `--seconds`.
struct Watch: HostedCommand {
    static let configuration = CommandConfiguration(abstract: "Watches the sales until stopped.")

    @Option(help: "How long to watch, in seconds.") var seconds = 3_600

    func run(on host: ApplicationHost) async throws {
        report("watch: started")
        do {
            try await Task.sleep(for: .seconds(seconds))
        } catch {
            report("watch: cancelled")
            throw error
        }
        report("watch: done")
    }
}

/// Writes `line` to standard output at once (unbuffered), so a reader of a pipe sees it before the process ends.
func report(_ line: String) {
    var line = line + "\n"
    line.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
}

import ArgumentParser
import LifecycleCore
import LifecycleHosting
import LifecycleProxy
import Synchronization
import Testing

@testable import LifecycleArgumentParser

/// What a test's module and commands did, in order: per host, under a launch option (no global).
final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }

    /// Returns once `entry` was logged (the test waits for a step, not for a time).
    func waitFor(_ entry: String) async {
        while !all.contains(entry) { try? await Task.sleep(for: .milliseconds(1)) }
    }
}

enum LogKey: LaunchOptionKey {
    static let defaultValue: Log? = nil
}

struct SetupFailed: Error, CustomStringConvertible {
    var description: String { "RecordingModule: set-up failed on purpose (FAIL is set)" }
}

/// Logs its launch and termination; fails its set-up when the environment has `FAIL`.
struct RecordingModule: LifecycleModule, CommandContributing, SetupStage, DidFinishLaunching, WillTerminate {
    static let priority: ModulePriority = .normal
    static let commands: [any HostedCommand.Type] = [Record.self, Sleep.self]
    let log: Log?

    init(context: LifecycleContext) { log = context.launchOptions[LogKey.self] }

    func setUp(_ context: LifecycleContext) throws {
        if context.launchOptions.environment["FAIL"] != nil { throw SetupFailed() }
    }

    func didFinishLaunching(_ context: LifecycleContext) -> Bool {
        log?.append("launched for \(context.launchOptions[HostedCommandName.self] ?? "none")")
        return true
    }

    func willTerminate(_ context: LifecycleContext) { log?.append("terminated") }
}

/// Contributes a command whose name `RecordingModule` already contributes.
struct CopycatModule: LifecycleModule, CommandContributing {
    static let priority: ModulePriority = .normal
    static let commands: [any HostedCommand.Type] = [Record.self]
    init(context: LifecycleContext) {}
}

struct Record: HostedCommand {
    @Option var exitCode: Int32?

    func run(on host: ApplicationHost) async throws {
        host.context.launchOptions[LogKey.self]?.append("command")
        if let exitCode { throw ExitCode(exitCode) }
    }
}

struct Sleep: HostedCommand {
    func run(on host: ApplicationHost) async throws {
        let log = host.context.launchOptions[LogKey.self]
        log?.append("started")
        do {
            try await Task.sleep(for: .seconds(3_600))
        } catch {
            log?.append("cancelled")
            throw error
        }
    }
}

/// Asks the host to terminate, as a module may, then waits to be cancelled.
struct Quit: HostedCommand {
    func run(on host: ApplicationHost) async throws {
        let log = host.context.launchOptions[LogKey.self]
        host.context.events.post(.terminate)
        do {
            try await Task.sleep(for: .seconds(3_600))
        } catch {
            log?.append("cancelled")
            throw error
        }
    }
}

struct TestRoot: HostCommand {
    static let configuration = CommandConfiguration(subcommands: manifest.commands)
    static var manifest: ModuleManifest { ModuleManifest(name: "Test", [RecordingModule.self]) }
}

@Suite struct CommandSessionTests {
    private func session(
        _ log: Log,
        environment: [String: String] = [:],
        command: String
    ) throws -> CommandSession {
        var options = LaunchOptions(environment: environment)
        options[LogKey.self] = log
        options[HostedCommandName.self] = command
        let configuration = ApplicationHost.Configuration(launchFailurePolicy: .abort, onUnobservedError: { _ in })
        let host = try ApplicationHost(
            manifest: TestRoot.manifest,
            launchOptions: options,
            configuration: configuration
        )
        return CommandSession(host: host) { TestRoot.exitCode(for: $0).rawValue }
    }

    @Test func launchThenTheCommandThenTerminate() async throws {
        let log = Log()
        let exit = try await session(log, command: "record").run(try Record.parse([]), signals: AsyncStream { _ in })
        #expect(exit.reason == .completed)
        #expect(log.all == ["launched for record", "command", "terminated"])
    }

    @Test func aThrownExitCodeIsTheExitAfterTerminateRan() async throws {
        let log = Log()
        let command = try Record.parse(["--exit-code", "7"])
        let exit = try await session(log, command: "record").run(command, signals: AsyncStream { _ in })
        #expect(exit.reason == .commandFailed(7))
        #expect(log.all == ["launched for record", "command", "terminated"])
    }

    @Test(arguments: [UnixSignal.sigint, .sigterm])
    func aSignalCancelsTheCommandBeforeTerminate(signal: UnixSignal) async throws {
        let log = Log()
        let (signals, send) = AsyncStream<UnixSignal>.makeStream()
        let session = try session(log, command: "sleep")
        let command = try Sleep.parse([])
        let run = Task { await session.run(command, signals: signals) }
        await log.waitFor("started")
        send.yield(signal)
        let exit = await run.value
        #expect(exit.reason == .signalled(signal))
        #expect(exit.code == 128 + signal.rawValue)
        #expect(log.all == ["launched for sleep", "started", "cancelled", "terminated"])
        #expect(session.host.state == .terminated)
    }

    @Test func aSecondSignalCutsTerminationShort() async throws {
        let log = Log()
        let (signals, send) = AsyncStream<UnixSignal>.makeStream()
        send.yield(.sigterm)  // stops the command, or skips it if launch is not through yet
        send.yield(.sigint)  // then no willTerminate hook starts
        let exit = try await session(log, command: "sleep").run(try Sleep.parse([]), signals: signals)
        #expect(exit.reason == .signalled(.sigint))
        #expect(exit.code == 130)
        #expect((exit.error as? LifecycleError)?.code == .interrupted)
        #expect(!log.all.contains("terminated"))
    }

    @Test func aHostThatTerminatesItselfCancelsTheCommandAfterTerminate() async throws {
        let log = Log()
        let session = try session(log, command: "quit")
        let exit = await session.run(try Quit.parse([]), signals: AsyncStream { _ in })
        // No work failed: the exit is what the cancelled command threw, as ArgumentParser maps it.
        #expect(exit.reason == .commandFailed(1))
        #expect(exit.error is CancellationError)
        // The host terminated by itself, so its modules' willTerminate ran before the command was cancelled.
        #expect(log.all == ["launched for quit", "terminated", "cancelled"])
        #expect(session.host.state == .terminated)
    }

    @Test func anAbortedLaunchNeverRunsTheCommand() async throws {
        let log = Log()
        let session = try session(log, environment: ["FAIL": "1"], command: "record")
        let exit = await session.run(try Record.parse([]), signals: AsyncStream { _ in })
        #expect(exit.reason == .launchFailed)
        #expect(exit.code == 3)
        #expect(!log.all.contains("command"))
        #expect("\(exit)".contains("RecordingModule"))
    }

    @Test func theManifestListsEachContributedCommand() {
        #expect(TestRoot.manifest.commands.map { $0._commandName } == ["record", "sleep"])
        #expect(ModuleManifest(name: "None", []).commands.isEmpty)
    }

    @Test func twoModulesWithOneCommandNameAreRefusedNamingBoth() throws {
        let manifest = ModuleManifest(name: "Twice", [RecordingModule.self, CopycatModule.self])
        let error = try #require(throws: CommandHostingError.self) { try manifest.checkCommandNames() }
        #expect(error.code == .duplicateCommand)
        #expect(error.command == "record")
        #expect(error.modules.count == 2)
        #expect(error.description.contains("RecordingModule") && error.description.contains("CopycatModule"))
        #expect(error.description.contains("CommandConfiguration(commandName:)"))
    }

    @Test func aHostedCommandRunWithoutAHostSaysWhatToFix() async throws {
        let parsed = try Record.parse([])
        let error = await #expect(throws: CommandHostingError.self) {
            var command = parsed
            try await command.run()
        }
        #expect(error?.code == .runWithoutHost)
        #expect(error?.description.contains("HostCommand") == true)
    }
}

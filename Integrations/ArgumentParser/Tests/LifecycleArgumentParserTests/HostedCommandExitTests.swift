import ArgumentParser
import Foundation
import LifecycleCore
import LifecycleHosting
import Testing

@testable import LifecycleArgumentParser

/// The exit-code table of `HostedCommandExit` (Docs/Hosting.md, "With swift-argument-parser"), row by row.
@Suite struct HostedCommandExitTests {
    private struct Failed: Error {}

    private func decide(
        launchAborted: Bool = false,
        signal: UnixSignal? = nil,
        interruptedBy: UnixSignal? = nil,
        command: (any Error, Int32)? = nil,
        termination: LifecycleError.Code? = nil,
        workFailed: Bool = false
    ) -> HostedCommandExit {
        HostedCommandExit.decide(
            launchAborted: launchAborted ? Failed() : nil,
            signal: signal,
            interruptedBy: interruptedBy,
            command: command.map { (error: $0.0, code: $0.1) },
            termination: termination.map { (error: Failed(), code: $0) },
            workFailure: workFailed ? Failed() : nil
        )
    }

    @Test func eachReasonHasItsCode() {
        #expect(HostedCommandExit(.completed).code == 0)
        #expect(HostedCommandExit(.commandFailed(1)).code == 1)
        #expect(HostedCommandExit(.commandFailed(64)).code == 64)
        #expect(HostedCommandExit(.hostNotBuilt).code == 1)
        #expect(HostedCommandExit(.launchFailed).code == 3)
        #expect(HostedCommandExit(.deadlineExceeded).code == 4)
        #expect(HostedCommandExit(.workFailed).code == 6)
        #expect(HostedCommandExit(.terminateFailed).code == 1)
        #expect(HostedCommandExit(.signalled(.sigint)).code == 130)
        #expect(HostedCommandExit(.signalled(.sigterm)).code == 143)
    }

    @Test func theHostsCodesAreHostRunnersWhereBothHaveOne() {
        #expect(HostedCommandExit(.launchFailed).code == 3)  // HostRunner.Exit.Reason.launchFailed
        #expect(HostedCommandExit(.deadlineExceeded).code == 4)  // .deadlineExceeded
        #expect(HostedCommandExit(.workFailed).code == 6)  // .workFailed
        #expect(HostedCommandExit(.terminateFailed).code == 1)  // .terminateFailed
    }

    @Test func nothingWrongIsCompleted() {
        #expect(decide().reason == .completed)
    }

    @Test func anAbortedLaunchComesFirst() {
        let exit = decide(launchAborted: true, signal: .sigint, command: (Failed(), 1))
        #expect(exit.reason == .launchFailed)
    }

    @Test func aTerminationPastItsDeadlineComesBeforeTheSignal() {
        #expect(decide(signal: .sigterm, termination: .deadlineExceeded).reason == .deadlineExceeded)
        #expect(decide(termination: .timedOut).reason == .deadlineExceeded)
    }

    @Test func aSignalComesBeforeWhatTheCancelledCommandThrew() {
        let exit = decide(signal: .sigterm, command: (CancellationError(), 1))
        #expect(exit.reason == .signalled(.sigterm))
        #expect(exit.code == 143)
    }

    @Test func theSignalThatCutTerminationShortWins() {
        let exit = decide(signal: .sigterm, interruptedBy: .sigint, termination: .interrupted)
        #expect(exit.reason == .signalled(.sigint))
    }

    @Test func failedWorkComesBeforeTheCommandsError() {
        #expect(decide(command: (CancellationError(), 1), workFailed: true).reason == .workFailed)
    }

    @Test func theCommandsErrorKeepsArgumentParsersCode() {
        #expect(decide(command: (ExitCode(7), 7)).code == 7)
        // The command's failure is what the user asked about.
        #expect(decide(command: (Failed(), 1), termination: .hookFailed).reason == .commandFailed(1))
    }

    @Test func failingWillTerminateHooksAfterASuccessfulCommandExit1() {
        let exit = decide(termination: .hookFailed)
        #expect(exit.reason == .terminateFailed)
        #expect(exit.code == 1)
    }

    /// Docs/Hosting.md's table, "With swift-argument-parser", says the same codes as the type.
    @Test func theTableInHostingMdHasTheSameCodes() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let hosting = try String(contentsOf: root.appendingPathComponent("Docs/Hosting.md"), encoding: .utf8)
        let rows: [(name: String, exit: HostedCommandExit)] = [
            ("hostNotBuilt", HostedCommandExit(.hostNotBuilt)), ("launchFailed", HostedCommandExit(.launchFailed)),
            ("deadlineExceeded", HostedCommandExit(.deadlineExceeded)), ("workFailed", HostedCommandExit(.workFailed)),
            ("terminateFailed", HostedCommandExit(.terminateFailed)), ("completed", HostedCommandExit(.completed)),
        ]
        for row in rows {
            #expect(
                hosting.contains("| \(row.exit.code) | `\(row.name)` |"),
                "no row `\(row.name)` with \(row.exit.code)"
            )
        }
        #expect(hosting.contains("| 128 + n | `signalled(_:)` |"))
        #expect(hosting.contains("| 64 | (ArgumentParser) |"))
    }
}

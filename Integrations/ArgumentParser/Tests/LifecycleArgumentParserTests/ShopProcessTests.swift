import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The example `shop` as a real process: its subcommands come from modules in two targets, discovered.
@Suite struct ShopProcessTests {
    @Test func helpListsEveryModulesSubcommands() async throws {
        let run = try await ShopProcess.run(["--help"])
        #expect(run.status == 0)
        let help = run.output.joined(separator: "\n")
        for (command, abstract) in [
            ("stock", "Lists what is in stock."), ("restock", "Adds items to the stock, then lists it."),
            ("report", "Prints one day's totals."), ("watch", "Watches the sales until stopped."),
        ] {
            #expect(help.contains(command) && help.contains(abstract), "\(command) missing from:\n\(help)")
        }
        // Nothing was launched for help.
        #expect(!run.output.contains { $0.hasSuffix(": launched") || $0.contains("launched for") })
    }

    @Test func subcommandHelpComesFromArgumentParser() async throws {
        let run = try await ShopProcess.run(["restock", "--help"])
        #expect(run.status == 0)
        #expect(run.output.joined(separator: "\n").contains("--count <count>"))
    }

    @Test func unknownSubcommandExits64WithArgumentParsersMessage() async throws {
        let run = try await ShopProcess.run(["nosuch"])
        #expect(run.status == 64)
        #expect(run.error.contains("Error: Unexpected argument 'nosuch'"), "\(run.error)")
        #expect(run.output.isEmpty)  // no host was built: no module printed
    }

    @Test func unknownFlagExits64WithArgumentParsersMessage() async throws {
        let run = try await ShopProcess.run(["stock", "--no-such-flag"])
        #expect(run.status == 64)
        #expect(run.error.contains("Error: Unknown option '--no-such-flag'"), "\(run.error)")
        #expect(run.output.isEmpty)
    }

    @Test func validationErrorExits64BeforeAnythingLaunches() async throws {
        let run = try await ShopProcess.run(["report", "--day", "40"])
        #expect(run.status == 64)
        #expect(run.error.contains("--day must be 1 to 31, not 40"), "\(run.error)")
        #expect(run.output.isEmpty)
    }

    @Test func completionScriptListsTheContributedCommands() async throws {
        let run = try await ShopProcess.run(["--generate-completion-script", "bash"])
        #expect(run.status == 0)
        let script = run.output.joined(separator: "\n")
        for command in ["stock", "restock", "report", "watch"] { #expect(script.contains(command)) }
    }

    @Test func outputComesBetweenLaunchAndTerminate() async throws {
        let run = try await ShopProcess.run(["restock", "figs", "--count", "2"])
        #expect(run.status == 0, "\(run.error)")
        // Inventory has priority .high: launched first, terminated last (reverse delivery order).
        #expect(
            run.output == [
                "inventory: launched", "reports: launched for restock",
                "stock: apples 3", "stock: figs 2", "stock: pears 0", "stock: plums 12",
                "reports: terminated", "inventory: terminated",
            ]
        )
    }

    @Test func failingLaunchExits3AndTheCommandNeverRuns() async throws {
        let run = try await ShopProcess.run(["report", "--day", "3"], environment: ["SHOP_FAIL_SETUP": "disk full"])
        #expect(run.status == 3, "\(run.error)")
        #expect(!run.output.contains { $0.hasPrefix("report:") })
        #expect(run.error.contains("exit 3 (launch failed)"), "\(run.error)")
        #expect(run.error.contains("ReportsModule"), "\(run.error)")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func signalCancelsTheCommandThenTerminateRunsThenExits128PlusN(signal: Int32) async throws {
        let shop = try ShopProcess(["watch"])
        #expect(await shop.waitFor("watch: started"))
        shop.send(signal)
        let status = await shop.exitStatus()
        #expect(status == 128 + signal, "\(shop.standardError)")
        #expect(
            shop.transcript == [
                "inventory: launched", "reports: launched for watch", "watch: started", "watch: cancelled",
                "reports: terminated", "inventory: terminated",
            ]
        )
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func otherSignalsReachTheHostWhileTheCommandRuns(stop: Int32) async throws {
        let shop = try ShopProcess(["watch"])
        #expect(await shop.waitFor("watch: started"))
        for (signal, line) in [(SIGUSR1, "reports: background"), (SIGUSR2, "reports: foreground")] {
            shop.send(signal)
            #expect(await shop.waitFor(line), "\(shop.transcript) \(shop.standardError)")
        }
        shop.send(SIGHUP)  // a reload, not the end of the command
        #expect(await shop.waitFor("reports: reloaded on SIGHUP"), "\(shop.standardError)")
        shop.send(stop)
        let status = await shop.exitStatus()
        #expect(status == 128 + stop, "\(shop.standardError)")
        #expect(
            shop.transcript == [
                "inventory: launched", "reports: launched for watch", "watch: started", "reports: background",
                "reports: foreground", "reports: reloaded on SIGHUP", "watch: cancelled", "reports: terminated",
                "inventory: terminated",
            ]
        )
        for line in ["handled SIGUSR1: background", "handled SIGUSR2: foreground", "handled SIGHUP: reload"] {
            #expect(shop.standardError.contains("lifecycle: \(line)"), "\(shop.standardError)")
        }
    }
}

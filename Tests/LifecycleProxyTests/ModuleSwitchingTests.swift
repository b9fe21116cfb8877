import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

/// Builds a host over `modules` whose launch options carry `arguments` and `environment`.
private func makeSwitchedHost(
    _ modules: [any LifecycleModule.Type],
    script: Script,
    arguments: [String] = [],
    environment: [String: String] = [:]
) throws -> ApplicationHost {
    var options = LaunchOptions(arguments: ["test"] + arguments, environment: environment)
    options[ScriptKey.self] = script
    return try ApplicationHost(manifest: ModuleManifest(name: "Tests", modules), launchOptions: options)
}

/// A modules file in a fresh directory, rewritten by `write`.
private struct ModulesFile {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("modules-\(UUID()).conf").path
    }

    func write(_ text: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }
}

@Suite("Module switches: reading them", .timeLimit(.minutes(1)))
struct ModuleSwitchesParsingTests {
    @Test("A modules file: NAME = on|off per line, comments and blank lines skipped, the last line wins")
    func parsesFile() throws {
        let switches = try ModuleSwitches.parse(
            """
            # the modules of this host
            Database = off   # for now

            DemoModules.Cache = on
            Low = no
            Low = yes
            """,
            source: "modules.conf"
        )
        #expect(switches.switches["Database"] == .init(isOn: false, source: "modules.conf:2"))
        #expect(switches.switches["DemoModules.Cache"] == .init(isOn: true, source: "modules.conf:4"))
        #expect(switches.switches["Low"] == .init(isOn: true, source: "modules.conf:6"))
        #expect(switches.switches.count == 3)
        // Qualified beats plain; plain matches a qualified module.
        #expect(switches.switch(forModule: "DemoModules.Cache")?.source == "modules.conf:4")
        #expect(switches.switch(forModule: "Tests.Database")?.isOn == false)
    }

    @Test("Windows line endings (CRLF) read as Unix ones, with the same line numbers; a bare CR is no line break")
    func windowsLineEndings() throws {
        let text = "# the modules of this host\r\nDatabase = off   # for now\r\n\r\nLow = yes\r\n"
        let switches = try ModuleSwitches.parse(text, source: "modules.conf")
        #expect(switches.switches["Database"] == .init(isOn: false, source: "modules.conf:2"))
        #expect(switches.switches["Low"] == .init(isOn: true, source: "modules.conf:4"))
        #expect(switches.switches.count == 2)
        #expect(
            try ModuleSwitches.parse(text.replacingOccurrences(of: "\r\n", with: "\n"), source: "modules.conf")
                == switches
        )
        #expect(throws: ModuleSwitchesError.self) { try ModuleSwitches.parse("Low = on\rHigh = off", source: "m") }
    }

    @Test(
        "A line that is not a switch is a typed error naming the file, the line and the fix",
        arguments: [
            ("Database off", "modules.conf:2", "is not a switch"),
            ("Database = maybe", "modules.conf:2", "neither on nor off"),
            ("Data base = on", "modules.conf:2", "is not a module name"),
            (" = on", "modules.conf:2", "is not a switch"),
        ]
    )
    func rejectsBadLines(line: String, source: String, problem: String) {
        #expect {
            try ModuleSwitches.parse("Low = on\n\(line)\n", source: "modules.conf")
        } throws: { error in
            guard let error = error as? ModuleSwitchesError else { return false }
            return error.source == source && error.problem.contains(problem) && !error.fix.isEmpty
        }
    }

    @Test("An unreadable modules file is a typed error naming the path")
    func unreadableFile() {
        let path = "/nonexistent/\(UUID())/modules.conf"
        #expect {
            try ModuleSwitches.load(from: LaunchOptions(arguments: ["test", "--modules-file", path]))
        } throws: { error in
            (error as? ModuleSwitchesError)?.source == path
        }
    }

    @Test("Arguments win over the environment, which wins over the file")
    func precedence() throws {
        let file = ModulesFile()
        try file.write("Low = off\nHigh = off\nDatabase = off\n")
        let options = LaunchOptions(
            arguments: ["test", "--enable-module", "Low", "--disable-module=NormalA"],
            environment: [
                "LIFECYCLE_MODULES_FILE": file.path,
                "LIFECYCLE_ENABLE_MODULES": "High, Low",
                "LIFECYCLE_DISABLE_MODULES": "NormalB",
            ]
        )
        let switches = try ModuleSwitches.load(from: options)
        #expect(switches.switches["Low"] == .init(isOn: true, source: "--enable-module"))
        #expect(switches.switches["High"] == .init(isOn: true, source: "LIFECYCLE_ENABLE_MODULES"))
        #expect(switches.switches["NormalA"] == .init(isOn: false, source: "--disable-module"))
        #expect(switches.switches["NormalB"] == .init(isOn: false, source: "LIFECYCLE_DISABLE_MODULES"))
        #expect(switches.switches["Database"] == .init(isOn: false, source: "\(file.path):3"))
    }
}

@Suite("Module switches: a host built with them, and reloads", .timeLimit(.minutes(1)))
struct ModuleSwitchingTests {
    @Test("Switched off at launch: the module and its dependents are off, with why; the rest launch")
    func offAtLaunch() async throws {
        let script = Script()
        let host = try makeSwitchedHost(
            [Cache.self, Database.self, High.self],
            script: script,
            arguments: ["--disable-module", "Database"]
        )
        #expect(host.participants.map(\.name) == [High.moduleName])
        #expect(host.disabledModules.map(\.name) == [Cache.moduleName, Database.moduleName])
        #expect(
            host.disabledModules.map(\.reason) == [
                "depends on `\(Database.moduleName)`, which is off", "switched off by --disable-module",
            ]
        )
        try await host.launch()
        #expect(script.journal.receivers(of: "didBecomeActive") == ["High"])
    }

    @Test("A switch naming no module fails the host's build with a typed error naming the source")
    func unknownNameAtBuild() {
        #expect {
            try makeSwitchedHost([High.self], script: Script(), environment: ["LIFECYCLE_DISABLE_MODULES": "Hihg"])
        } throws: { error in
            guard let error = error as? ManifestError, error.code == .invalidModuleSwitches else { return false }
            return error.description.contains("LIFECYCLE_DISABLE_MODULES")
                && error.description.contains("no module of this host is named `Hihg`")
        }
    }

    @Test("A reload turns a module off (teardown, dependents first) and back on (catch-up, dependencies first)")
    func reloadOffAndOn() async throws {
        let script = Script()
        let file = ModulesFile()
        try file.write("# nothing off\n")
        let host = try makeSwitchedHost(
            [Cache.self, Database.self, High.self],
            script: script,
            arguments: ["--modules-file", file.path]
        )
        try await host.launch()
        // An unchanged file changes nothing and delivers nothing.
        let entries = script.journal.entries.count
        #expect(try await host.reloadModules().isEmpty)
        #expect(script.journal.entries.count == entries)

        try file.write("Database = off\n")
        var before = script.journal.entries.count
        let off = try await host.reloadModules()
        #expect(off.turnedOff.map(\.module) == [Cache.moduleName, Database.moduleName])
        #expect(off.turnedOn.isEmpty && off.refused.isEmpty)
        #expect(
            Array(script.journal.entries.dropFirst(before)) == [
                "willResignActive Cache", "didEnterBackground Cache", "willTerminate Cache",
                "willResignActive Database", "didEnterBackground Database", "willTerminate Database",
            ]
        )
        #expect(host.participants.map(\.name) == [High.moduleName])
        #expect(host.participant(for: Database.self) == nil && host.participant(for: Cache.self) == nil)
        #expect(
            host.disabledModules.map(\.reason) == [
                "depends on `\(Database.moduleName)`, which is off", "switched off by \(file.path):1",
            ]
        )
        // Off modules receive nothing more.
        before = script.journal.entries.count
        try await host.receiveMemoryWarning()
        #expect(Array(script.journal.entries.dropFirst(before)) == ["didReceiveMemoryWarning High"])

        try file.write("Database = on\n")
        before = script.journal.entries.count
        let on = try await host.reloadModules()
        #expect(on.turnedOn == [Database.moduleName, Cache.moduleName])
        #expect(
            Array(script.journal.entries.dropFirst(before)) == [
                "willFinishLaunching Database", "didFinishLaunching Database", "didBecomeActive Database",
                "willFinishLaunching Cache", "didFinishLaunching Cache", "didBecomeActive Cache",
            ]
        )
        #expect(host.disabledModules.isEmpty)
        // Back in their places: dependencies before dependents, then priority.
        #expect(host.participants.map(\.name) == [High.moduleName, Database.moduleName, Cache.moduleName])
        #expect(host.participant(for: Cache.self) == host.participants[2])

        // The journal says why each module went off and came back.
        let notes = (host.journal?.entries ?? []).filter { $0.note != nil }.map { "\($0.event) \($0.participant)" }
        #expect(
            notes == [
                "switchedOff \(Cache.moduleName)", "switchedOff \(Database.moduleName)",
                "switchedOn \(Database.moduleName)", "switchedOn \(Cache.moduleName)",
            ]
        )
    }

    @Test("A broken modules file on reload is a typed error, and the running set is untouched")
    func brokenFileChangesNothing() async throws {
        let script = Script()
        let file = ModulesFile()
        try file.write("Low = off\n")
        let host = try makeSwitchedHost(
            [High.self, Low.self],
            script: script,
            arguments: ["--modules-file", file.path]
        )
        try await host.launch()
        #expect(host.participants.map(\.name) == [High.moduleName])

        for broken in ["Low = on\nHigh off\n", "Low = on\nNoSuchModule = off\n"] {
            try file.write(broken)
            let before = script.journal.entries.count
            await #expect {
                try await host.reloadModules()
            } throws: { error in
                guard let error = error as? LifecycleError, error.code == .reconfigurationFailed else { return false }
                return error.underlyingError is ModuleSwitchesError && error.description.contains(file.path)
            }
            #expect(script.journal.entries.count == before)
            #expect(host.participants.map(\.name) == [High.moduleName])
            #expect(host.disabledModules.map(\.reason) == ["switched off by \(file.path):1"])
        }
        try FileManager.default.removeItem(atPath: file.path)
        await #expect(throws: LifecycleError.self) { try await host.reloadModules() }
        #expect(host.participants.map(\.name) == [High.moduleName])
    }

    @Test("register(_:) refuses a module a switch keeps off")
    func registerRespectsSwitches() async throws {
        let host = try makeSwitchedHost(
            [High.self, Late.self],
            script: Script(),
            arguments: ["--disable-module", "Late"]
        )
        try await host.launch()
        await #expect {
            try await host.register(Late.self)
        } throws: { error in
            guard let error = error as? LifecycleError, error.code == .registrationFailed else { return false }
            return (error.underlyingError as? ManifestError)?.code == .moduleDisabled
                && error.description.contains("switched off by --disable-module")
        }
    }

    @Test("Switches passed in: before launch, a reload only changes the set; the plan follows")
    func reloadBeforeLaunch() async throws {
        let script = Script()
        let host = try makeSwitchedHost([High.self, Low.self], script: script)
        let changes = try await host.reloadModules(
            ModuleSwitches(switches: ["Low": .init(isOn: false, source: "test")])
        )
        #expect(changes.turnedOff.map(\.module) == [Low.moduleName])
        #expect(script.journal.entries.isEmpty)
        #expect(host.plan(for: .didBecomeActive).map(\.name) == [High.moduleName])
        #expect(host.moduleSwitches.switches["Low"]?.isOn == false)
        try await host.launch()
        #expect(script.journal.receivers(of: "didBecomeActive") == ["High"])
    }
}

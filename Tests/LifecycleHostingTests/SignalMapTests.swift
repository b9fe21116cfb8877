import LifecycleCore
import LifecycleHosting
import Testing

@Suite("Signal maps: parsing, printing, defaults; exit codes")
struct SignalMapTests {
    @Test("The standard map: TERM and INT terminate, HUP reloads, USR1 and USR2 move the host")
    func standard() {
        #expect(
            SignalMap.standard.description == "HUP=reload INT=interrupt USR1=background USR2=foreground TERM=terminate"
        )
        #expect(SignalMap.jobControl[.sigtstp] == .enterBackground)
        #expect(SignalMap.jobControl[.sigcont] == .enterForeground)
        #expect(SignalMap.jobControl[.sigusr1] == nil)
    }

    @Test("Text parses with SIG or without, in any case, separated by commas or spaces, and prints back")
    func parsing() throws {
        let map = try SignalMap(parsing: "sigterm=terminate, INT=Interrupt  HUP=reload,TSTP=background CONT=foreground")
        #expect(
            map.actions == [
                .sigterm: .terminate, .sigint: .interrupt, .sighup: .reload, .sigtstp: .enterBackground,
                .sigcont: .enterForeground,
            ]
        )
        #expect(try SignalMap(parsing: map.description) == map)
        #expect(try SignalMap(parsing: SignalMap.standard.description) == .standard)
        #expect(try SignalMap(parsing: "QUIT=memory-warning USR1=ignore")[.sigquit] == .memoryWarning)
        // One entry per line, with Unix or Windows line endings ("\r\n" is one Character in Swift).
        #expect(
            try SignalMap(parsing: "TERM=terminate\r\nHUP=reload\r\n")
                == SignalMap(parsing: "TERM=terminate HUP=reload")
        )
        #expect(
            try SignalMap(parsing: "TERM=terminate\nHUP=reload\n") == SignalMap(parsing: "TERM=terminate HUP=reload")
        )
    }

    @Test(
        "Bad text is a typed error naming the entry, the problem and what is accepted",
        arguments: [
            ("", SignalMapError.Problem.empty, "it has no entries"),
            ("TERM", .notAnAssignment, "an entry must be SIGNAL=action"),
            ("KILL=terminate", .unknownSignal("KILL"), "\"KILL\" is not a signal a runner can handle (HUP, INT, QUIT"),
            ("TERM=stop", .unknownAction("stop"), "\"stop\" is not an action (terminate, interrupt, background"),
            ("TERM=terminate SIGTERM=interrupt", .duplicateSignal(.sigterm), "TERM is mapped twice"),
        ]
    )
    func errors(text: String, problem: SignalMapError.Problem, message: String) {
        let error = #expect(throws: SignalMapError.self) { try SignalMap(parsing: text) }
        #expect(error?.problem == problem)
        #expect(error?.description.contains(message) == true)
        #expect(error?.description.contains("Example: \"HUP=reload INT=interrupt") == true)
    }

    @Test("Signal names: short or with SIG, any case; KILL and STOP cannot be handled")
    func names() {
        #expect(UnixSignal(name: "term") == .sigterm)
        #expect(UnixSignal(name: "SIGUSR2") == .sigusr2)
        #expect(UnixSignal(name: "KILL") == nil)
        #expect(UnixSignal(name: "STOP") == nil)
        #expect(UnixSignal.sigint.description == "SIGINT")
        #expect(UnixSignal.all.count == 8)
    }

    @Test("Exit codes: 0 clean, 1 terminate failed, 3 launch failed, 4 deadline exceeded, 128 + n interrupted")
    func exitCodes() {
        #expect(HostRunner.Exit(.clean).code == 0)
        #expect(HostRunner.Exit(.terminateFailed).code == 1)
        #expect(HostRunner.Exit(.launchFailed).code == 3)
        #expect(HostRunner.Exit(.deadlineExceeded).code == 4)
        #expect(HostRunner.Exit(.interrupted(.sigint)).code == 130)
        #expect(HostRunner.Exit(.interrupted(.sigterm)).code == 143)
        #expect(HostRunner.Exit(.interrupted(.sigint)).description == "exit 130 (interrupted by SIGINT)")
    }
}

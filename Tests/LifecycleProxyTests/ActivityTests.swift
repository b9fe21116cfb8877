import LifecycleCore
import LifecycleProxy
import Testing

@Suite("What the host is doing: activity", .timeLimit(.minutes(1)))
struct ActivityTests {
    @Test("While a hook runs, activity names the state, the event and the module, with its time; then nothing")
    func namesTheModuleInProgress() async throws {
        let gate = HangGate()
        var options = LaunchOptions(arguments: ["test"])
        options[HangGateKey.self] = gate
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", [HangsOnMemoryWarning.self]),
            launchOptions: options
        )
        try await host.launch()
        #expect(host.activity == HostActivity(state: .active, event: nil, waitingOn: []))
        #expect(host.activity.description == "active")

        let warning = Task { try await host.receiveMemoryWarning() }
        while host.activity.waitingOn.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
        let activity = host.activity
        #expect(activity.state == .active)
        #expect(activity.event == .didReceiveMemoryWarning)
        #expect(activity.waitingOn.map(\.module) == [HangsOnMemoryWarning.moduleName])
        #expect(activity.waitingOn[0].elapsed >= .zero)
        #expect(activity.description.hasPrefix("active: didReceiveMemoryWarning, waiting on HangsOnMemoryWarning ("))

        gate.open()
        try await warning.value
        #expect(host.activity.waitingOn.isEmpty && host.activity.event == nil)
    }
}

extension ApplicationHost {
    /// A snapshot of the host's health, for a readiness or status endpoint: its state, whether it should
    /// receive traffic (``HostHealth/isReady``), the modules not ready yet, the degraded ones and the
    /// quarantined ones.
    ///
    /// The state and readiness are read without waiting. The degraded modules are the actor's, so this
    /// hops onto the host: while a hook blocks the actor's thread, the answer waits for it. It never waits
    /// for the host's queue of requests. ``HostHealth/isDraining`` is always `false` here: only the
    /// hosting layer knows it is about to stop the host (`HostReadiness` in `LifecycleHosting` sets it).
    ///
    /// Safe to call from anywhere, including a hook of this host.
    public nonisolated func health() async -> HostHealth {
        let state = self.state
        let modules = participants.filter { !$0.isDelegate }
        let waiting = Set(readiness.notReady(among: modules.map(\.id)))
        let degraded = await degradedModules
        return HostHealth(
            state: state,
            notReady: modules.filter { waiting.contains($0.id) }.map(\.name),
            degraded: degraded.map(\.name),
            quarantined: quarantineLedger.records.map(\.module)
        )
    }
}

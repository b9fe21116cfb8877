extension ManifestGenerator {
    /// The `hooks.<event>(…)` call of one event, with the `#if` conditions under which each form is: with a
    /// closure that calls the module's synchronous function where the scan found one (``SynchronousHook``);
    /// else through the deprecated synchronous protocol where the module adopts it (code written before,
    /// whose function the scan did not find); else awaited.
    func hookCalls(
        for event: CapabilityScan.Event,
        _ capabilities: [DiscoveredCapability],
        synchronous: [SynchronousHook],
        indent: String
    ) -> [String] {
        if let hook = event.hook, let function = synchronous.first(where: { $0.event == event.method }) {
            let arguments = hook.labels.indices.map { index in
                hook.labels[index] == "_" ? "$\(index)" : "\(hook.labels[index]): $\(index)"
            }
            let call = "\(function.throwing ? "try " : "")module.\(hook.name)(\(arguments.joined(separator: ", ")))"
            return ["\(indent)hooks.\(event.method)(module, synchronously: { \(call) })"]
        }
        let syncConditions = capabilities.filter { $0.name == event.sync }.map(\.conditions)
        // The synchronous protocol refines the asynchronous one: adopting it adopts both.
        let asyncConditions = capabilities.filter { $0.name == event.async }.map(\.conditions) + syncConditions
        let syncCall = "\(indent)hooks.\(event.method)(sync: module)"
        let asyncCall = "\(indent)hooks.\(event.method)(module)"
        func condition(_ sets: [[String]]) -> String {
            sets.count == 1 && sets[0].count == 1
                ? sets[0][0] : sets.map { "(\($0.joined(separator: " && ")))" }.joined(separator: " || ")
        }
        if syncConditions.contains(where: \.isEmpty) { return [syncCall] }
        if !syncConditions.isEmpty {
            if asyncConditions.contains(where: \.isEmpty) {
                return ["#if \(condition(syncConditions))", syncCall, "#else", asyncCall, "#endif"]
            }
            let asyncOnly = asyncConditions.filter { !syncConditions.contains($0) }
            return ["#if \(condition(syncConditions))", syncCall]
                + (asyncOnly.isEmpty ? [] : ["#elseif \(condition(asyncOnly))", asyncCall]) + ["#endif"]
        }
        if asyncConditions.isEmpty { return [] }
        if asyncConditions.contains(where: \.isEmpty) { return [asyncCall] }
        return ["#if \(condition(asyncConditions))", asyncCall, "#endif"]
    }
}

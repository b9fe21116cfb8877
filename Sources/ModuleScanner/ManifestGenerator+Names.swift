extension ManifestGenerator {
    // The names of the functions a generated manifest declares, and the calls that hand their lists to the
    // manifest (`.withServices`, `.withMessages`, `.withRouting`). Each name ends in the target's module
    // name, so the manifests of several targets linked together never clash.

    /// The name of the generated function that lists the target's modules.
    var listFunctionName: String { "_lifecycleModules_\(module)" }

    func serviceFunctionName(_ list: String) -> String {
        "_lifecycleService\(list.prefix(1).uppercased())\(list.dropFirst())_\(module)"
    }

    /// `.withServices(providers: …, requirers: …)`, after the manifest of a target whose modules have
    /// service roles.
    var servicesCall: String {
        ".withServices(providers: \(serviceFunctionName("providers"))(), requirers: \(serviceFunctionName("requirers"))())"
    }

    func messageFunctionName(_ list: String) -> String {
        "_lifecycleMessage\(list.prefix(1).uppercased())\(list.dropFirst())_\(module)"
    }

    /// `.withMessages(receivers: …)`, after the manifest of a target whose modules receive messages.
    var messagesCall: String {
        ".withMessages(receivers: \(messageFunctionName("receivers"))())"
    }

    func workFunctionName(_ list: String) -> String {
        "_lifecycleWork\(list.prefix(1).uppercased())\(list.dropFirst())_\(module)"
    }

    /// `.withWork(workers: …)`, after the manifest of a target whose modules run work.
    var workCall: String {
        ".withWork(workers: \(workFunctionName("workers"))())"
    }

    func routingFunctionName(_ list: String) -> String {
        "_lifecycleRoute\(list.prefix(1).uppercased())\(list.dropFirst())_\(module)"
    }

    /// `.withRouting(servers: …, interceptors: …)`, after the manifest of a target with route servers or
    /// global interceptors.
    var routingCall: String {
        ".withRouting(servers: \(routingFunctionName("servers"))(), interceptors: \(routingFunctionName("interceptors"))())"
    }
}

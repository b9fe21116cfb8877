import LifecycleCore

/// The accounts a host knows, by id: a launch option, so each host, and each test, can have its own.
public enum AccountNamesKey: LaunchOptionKey {
    public static let defaultValue: [Int: String] = [7: "Grace", 42: "Ada"]
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LifecycleCore

/// Why the payments client could not start.
enum PaymentsError: Error, CustomStringConvertible {
    case missingAPIKey

    var description: String { "PAYMENTS_API_KEY is not set: the payment gateway refuses the sign-in" }
}

/// Signs in to the payment gateway once the shop has launched, and handles the gateway's return links.
///
/// A shop that cannot take payments must not serve, so a failed sign-in aborts the launch, whatever the
/// host's policy.
struct PaymentsModule: LifecycleModule, FailurePolicyModule, DidFinishLaunching, OpenURL {
    static let priority: ModulePriority = .normal
    static let failurePolicy: ModuleFailurePolicy = .abort
    let apiKey: String?

    init(context: LifecycleContext) {
        apiKey = context.launchOptions.environment["PAYMENTS_API_KEY"]
    }

    func didFinishLaunching(_ context: LifecycleContext) throws -> Bool {
        guard let apiKey, !apiKey.isEmpty else { throw PaymentsError.missingAPIKey }
        return true
    }

    /// `shop://payments/return?order=…`: the customer is back from the payment page.
    func open(_ url: URL, context: LifecycleContext) -> Bool {
        url.scheme == "shop" && url.host == "payments"
    }
}

import Testing

@testable import ModuleScanner

@Suite("Service mentions")
struct ServiceMentionScanTests {
    @Test("Singleton, scoped and transient provisions are all seen as provided, with their lines")
    func everyLifetimeIsAProvision() {
        let text = """
            struct Web: LifecycleModule, ServiceProvidingModule, ServiceRequiringModule {
                static let requiredServices = ServiceRequirements((any Database).self)
                static func provideServices(_ services: inout ServiceProvisions) {
                    services.singleton((any Metrics).self) { _ in Metrics() }
                    services.scoped((any RequestLog).self) { _ in RequestLog() } shutdown: { $0.flush() }
                    services.transient(Clock.self) { _ in Clock() }
                }
                func scoped(_ x: Int) {}
            }
            """
        let mentions = ServiceMentionScan.scan(Lexer.tokenize(text), file: "/p/Web.swift")
        #expect(
            mentions.map { "\($0.type) \($0.role) \($0.service) :\($0.line)" } == [
                "Web requires Database :2",
                "Web provides Metrics :4",
                "Web provides RequestLog :5",
                "Web provides Clock :6",
            ]
        )
    }
}

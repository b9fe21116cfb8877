import Foundation
import Testing

@_spi(Validation) @testable import ModuleScanner

/// LifecycleRouting's and LifecycleServices' protocols, as the libraries declare them.
private let libraries = [
    SourceFile(
        path: "/p/LifecycleRouting/Routing.swift",
        text: """
            public protocol Route: Sendable {
                static var pattern: RoutePattern? { get }
            }
            public struct RoutePattern: Sendable, ExpressibleByStringLiteral {
                public init(_ text: String) {}
            }
            public protocol RouteInterceptor: Sendable {
                init(context: LifecycleContext)
            }
            """
    ),
    SourceFile(
        path: "/p/LifecycleServices/Services.swift",
        text: "public protocol ServiceProvidingModule: LifecycleModule {}\n"
            + "public protocol ServiceRequiringModule: LifecycleModule {}"
    ),
]

/// Generates the manifest of the test target `AppTests` (aggregate: what a test target's plugin does) from
/// `files` (name → text, under `/p/AppTests/`), with the libraries as dependencies.
private func generate(_ files: [String: String]) -> ManifestGenerator.Output {
    let own = files.map { SourceFile(path: "/p/AppTests/\($0.key)", text: $0.value) }
    return ManifestGenerator(
        module: "AppTests",
        mode: .aggregate,
        paths: own.map(\.path),
        dependencies: [
            .init(module: "LifecycleRouting", paths: [libraries[0].path]),
            .init(module: "LifecycleServices", paths: [libraries[1].path]),
        ],
        locationComments: false
    ).generate(ParsedSources(own + libraries))
}

@Suite("Scanner: `// module-discovery: ignore` keeps a fixture out of discovery")
struct DiscoveryDirectiveTests {
    @Test("The comment applies to the declaration directly below it, past doc comments and attributes")
    func whichLines() {
        let text = """
            // module-discovery: ignore
            struct A: LifecycleModule {}
            // module-discovery: ignore
            /// A fixture.
            @available(macOS 15, *)
            final class B: LifecycleModule {}
            // module-discovery: ignore

            struct C: LifecycleModule {}
                // module-discovery: ignore
                struct D: LifecycleModule {}
            // module-discovery: ignore please
            struct E: LifecycleModule {}
            """
        // A blank line ends its reach (C); it must be the whole comment (E); indentation does not matter (D).
        #expect(DiscoveryDirective.ignoredLines(in: text) == [2, 6, 11])
    }

    @Test("An ignored module is in no manifest; the scan says so in a note; its neighbours are found")
    func skippedWithANote() throws {
        let result = scan([
            "/p/A.swift": """
            struct Real: LifecycleModule {}
            // module-discovery: ignore
            struct Fixture: LifecycleModule {}
            struct Helper {}
            // module-discovery: ignore
            extension Helper: LifecycleModule {}
            // module-discovery: ignore
            struct Later {}
            extension Later: LifecycleModule {}
            struct NotAModule {}
            """
        ])
        #expect(result.names == ["Real"])
        let notes = result.warnings.filter { $0.severity == .note }
        #expect(notes.map(\.line) == [3, 6, 9])
        #expect(result.warnings.count == 3)
        let note = try #require(notes.first)
        #expect(
            note.description
                == "/p/A.swift:3: note: `Fixture` conforms to LifecycleModule but is skipped: "
                + "`// module-discovery: ignore` is directly above it, so no generated manifest lists it and the "
                + "build checks nothing about it. List it in a hand-written manifest where a test needs it."
        )
    }

    @Test("Ignored bad-input fixtures break nothing: a cycle, a second provider, a clashing or invalid route")
    func fixturesBreakNothing() {
        let fixtures = """
            struct Real: LifecycleModule, ServiceProvidingModule {
                static func provideServices(_ services: inout ServiceProvisions) {
                    services.singleton((any Store).self) { _ in MemoryStore() }
                }
            }
            // module-discovery: ignore
            struct SecondProvider: LifecycleModule, ServiceProvidingModule {
                static func provideServices(_ services: inout ServiceProvisions) {
                    services.singleton((any Store).self) { _ in MemoryStore() }
                }
            }
            // module-discovery: ignore
            struct CycleA: LifecycleModule, DependentModule {
                static let dependencies: [any LifecycleModule.Type] = [CycleB.self]
            }
            // module-discovery: ignore
            struct CycleB: LifecycleModule, DependentModule {
                static let dependencies: [any LifecycleModule.Type] = [CycleA.self]
            }
            // module-discovery: ignore
            struct BrokenRoute: Route {
                static let pattern: RoutePattern? = "/a/**/b"
            }
            // module-discovery: ignore
            struct Refuser: RouteInterceptor {}
            """
        let output = generate(["Fixtures.swift": fixtures])
        #expect(output.diagnostics.filter { $0.severity != .note }.map(\.description) == [])
        #expect(output.modules.map(\.name) == ["Real"])
        #expect(output.interceptors.isEmpty)
        // Each skip is told, as a note at the type.
        #expect(
            output.diagnostics.map { "\($0.line) \($0.severity)" } == [
                "7 note", "13 note", "17 note", "21 note", "25 note",
            ]
        )
        #expect(!output.text.contains("SecondProvider"))

        // Without the comments, the same file stops the build or warns.
        let unmarked = generate([
            "Fixtures.swift": fixtures.replacingOccurrences(of: "// module-discovery: ignore", with: "")
        ])
        #expect(unmarked.diagnostics.contains { $0.severity == .error && $0.message.hasPrefix("dependency cycle") })
        #expect(unmarked.diagnostics.contains { $0.severity == .error && $0.message.contains("/a/**/b") })
        #expect(unmarked.diagnostics.contains { $0.message.contains("duplicateServiceProvider") })
        #expect(unmarked.interceptors.map(\.name) == ["Refuser"])
    }

    @Test("The declarations themselves are scanned as before, so the swift-syntax comparison is unchanged")
    func declarationsUnchanged() {
        let marked = "// module-discovery: ignore\nstruct Fixture: LifecycleModule {}\n"
        let plain = "\nstruct Fixture: LifecycleModule {}\n"
        #expect(ScannedDeclaration.scan(marked, file: "A.swift") == ScannedDeclaration.scan(plain, file: "A.swift"))
        #expect(ScannedDeclaration.scan(marked, file: "A.swift").map(\.qualifiedName) == ["Fixture"])
    }
}

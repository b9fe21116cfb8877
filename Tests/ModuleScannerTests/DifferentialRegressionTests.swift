import Testing

@testable import ModuleScanner

/// Disagreements the differential check against swift-syntax found (`Validation/`, Docs/Discovery.md), each
/// fixed in the scanner and kept fixed here.
@Suite("Scanner: regressions found against swift-syntax")
struct DifferentialRegressionTests {
    private func declarations(_ text: String) -> [Declaration] {
        DeclarationParser.parse(text, file: "A.swift")
    }

    @Test("`import typealias M.T` imports a symbol and declares nothing")
    func importKindIsNotADeclaration() {
        let found = declarations("import typealias WinSDK.DWORD\nimport struct Foundation.Date\nstruct A {}")
        #expect(found.map(\.name) == ["A"])
    }

    @Test("A raw string holding one quote (#\"\"\"#) is not a multi-line string")
    func rawStringOfOneQuote() {
        let found = declarations("let quote = #\"\"\"#\nstruct A: LifecycleModule {}\nenum B {}")
        #expect(found.map(\.name) == ["A", "B"])
        #expect(found.first?.inherits == ["LifecycleModule"])
    }

    @Test("A backticked keyword is a name: enum case `extension` declares nothing")
    func escapedKeywordIsAName() {
        let found = declarations("enum Keyword {\n  case `extension`\n  case `typealias`\n}\nstruct A {}")
        #expect(found.map(\.qualifiedName) == ["Keyword", "A"])
    }

    @Test("A typealias's `where` clause ends with its line: the declarations after it are found")
    func typealiasWhereClause() {
        let found = declarations(
            """
            extension Buffer: Collection {
                typealias RangeType<Bound> = Range<Bound> where Bound: Strideable, Bound.Stride: SignedInteger
                typealias SubSequence = Buffer<Element>
                struct Inner: LifecycleModule {}
            }
            """
        )
        #expect(found.map(\.qualifiedName) == ["Buffer", "Buffer.RangeType", "Buffer.SubSequence", "Buffer.Inner"])
        #expect(found.last?.inherits == ["LifecycleModule"])
    }

    @Test("A typealias's generic arguments may span lines, and hold function types whose `->` closes nothing")
    func typealiasOverSeveralLines() {
        let found = declarations(
            """
            typealias Source = Producer<
                Element,
                Strategy
            >.Source
            typealias Box = ReplaceOnceBox<
                @Sendable (String) -> any LogHandler
            >
            struct A: Source {}
            """
        )
        #expect(found.map(\.inherits) == [["Source"], ["ReplaceOnceBox"], ["Source"]])
    }

    @Test("A typealias in a protocol is named by the protocol, like a member of any type")
    func typealiasInProtocol() {
        let found = declarations("protocol Application<Context> {\n  typealias Responder = Handler\n}")
        #expect(found.map(\.qualifiedName) == ["Application", "Application.Responder"])
        #expect(found.last?.isInGenericScope == true)
        #expect(found.last?.isLocal == false)
    }

    @Test("An extension of sugar extends the generic standard library type: [T], [K: V], T?")
    func sugaredExtensions() {
        let found = declarations(
            "extension [Stack]: P {}\nextension [String: (Int) -> Void] {}\nextension Module?: LifecycleModule {}"
        )
        #expect(found.map(\.name) == ["Array", "Dictionary", "Optional"])
        #expect(found.allSatisfy { $0.isGeneric })
        #expect(found.map(\.inherits) == [["P"], [], ["LifecycleModule"]])
    }

    @Test("`extension Module?: LifecycleModule` is a generic conformer, not the module `Module`")
    func optionalExtensionIsNotTheWrappedType() {
        let result = scan(["A.swift": "struct Module {}\nextension Module?: LifecycleModule {}"])
        #expect(result.names.isEmpty)
    }

    @Test("A numeric character that is no digit (½, ²) does not stall the lexer")
    func numericCharacterOutsideANumber() {
        let found = declarations("let half = ½\nlet squared = x²\nstruct A: LifecycleModule {}")
        #expect(found.map(\.name) == ["A"])
    }

    @Test("An emoji is an identifier: struct 🏃 is found")
    func emojiIdentifier() {
        let found = declarations("struct 🏃: Error {}\nstruct A {}")
        #expect(found.map(\.name) == ["🏃", "A"])
    }

    @Test("Prefix `/` operators are no regex: a closing `/` after a space, or an unbalanced `)`, rules it out")
    func prefixSlashOperators() {
        let found = declarations(
            """
            final class Tests {
              func a() { _ = (/Foo.foo .. /Foo.bar).extract(from: x) }
              func b() { _ = xs.prefix(while: { /Result.success ~= $0 }).compactMap(/Result.success) }
            }
            private class TestObject {}
            """
        )
        #expect(found.map(\.qualifiedName) == ["Tests", "TestObject"])
    }

    @Test("A typealias of a function, tuple, collection, optional or metatype names no protocol or class")
    func structuralTypealiases() {
        let found = declarations(
            """
            typealias Handler = (Request) -> Response
            typealias Callback = @Sendable (Int) async throws -> Void
            typealias Pair = (Module, Module)
            typealias List = [Module]
            typealias Maybe = Module?
            typealias Kind = any Module.Type
            typealias Module = LifecycleModule & Sendable
            typealias Box = ReplaceOnceBox<(Int) -> Void>
            typealias Long =
                @Sendable (Request, Body?) async throws
                -> (Response, Body?)
            struct A: Module {}
            """
        )
        #expect(
            found.map(\.inherits) == [
                [], [], [], [], [], [], ["LifecycleModule", "Sendable"], ["ReplaceOnceBox"], [], ["Module"],
            ]
        )
    }
}

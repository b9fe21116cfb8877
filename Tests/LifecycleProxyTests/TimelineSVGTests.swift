import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Collects the text of every `<text>` element of a document.
private final class TextCollector: NSObject, XMLParserDelegate {
    var texts: [String] = []
    var rectangles = 0
    private var current: String?

    func parser(
        _ parser: XMLParser,
        didStartElement name: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if name == "text" { current = "" }
        if name == "rect" { rectangles += 1 }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let current { texts.append(current) }
        if name == "text" { current = nil }
    }
}

@Suite("The launch as an SVG timeline", .timeLimit(.minutes(1)))
struct TimelineSVGTests {
    @Test("Well-formed XML, a row for every participant with a launch call, the slowest labelled, text escaped")
    func wellFormed() async throws {
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Timeline", [SlowWarmUpA.self, SlowWarmUpB.self, High.self]),
            configuration: .init(onUnobservedError: { _ in })
        )
        _ = try? await host.launch()
        let svg = try #require(host.journal?.launchTimelineSVG(title: "A <launch> & more", labelled: 1))
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = TextCollector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(collector.texts.first == "A <launch> & more")
        // Every module with a launch hook has a row.
        #expect(["High", "SlowWarmUpA", "SlowWarmUpB"].allSatisfy(collector.texts.contains))
        // One label of a total, for the one slowest module: at least its 30 ms warm-up.
        let labels = collector.texts.filter { $0.hasSuffix(" ms") && !$0.hasPrefix("0.0") }
        #expect(labels.contains { Double($0.dropLast(3)).map { $0 >= 29 } == true })
        #expect(collector.rectangles >= 3, "the background and two warm-ups")
        try await host.terminate()
    }

    @Test("A journal with no launch call is still a document, which says so")
    func empty() throws {
        let journal = DeliveryJournal(capacity: 8)
        let parser = XMLParser(data: Data(journal.launchTimelineSVG().utf8))
        let collector = TextCollector()
        parser.delegate = collector
        #expect(parser.parse())
        #expect(
            collector.texts == [
                "Launch timeline", "No launch call in the journal.", "0.0 ms", "0.0 ms", "0.0 ms", "0.0 ms", "0.0 ms",
            ]
        )
    }
}

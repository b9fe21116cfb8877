import FuzzerEntry
@_spi(Validation) import ModuleScanner

/// The discovery scanner on arbitrary Swift source text: the declarations it reads
/// (`ScannedDeclaration.scan(_:file:)`, the SPI `Validation/` uses) and the whole generation of a library's
/// manifest and summary (`ParsedSources`, `ManifestGenerator.generate(_:)`), as the build plugin runs them on
/// every target's sources. `Tests/ModuleScannerTests/ScannerFuzzTests.swift` does the same from random token
/// soups; this follows coverage instead.
///
/// Oracle: the same text gives the same declarations, manifest, modules, diagnostics and summary bytes twice;
/// each declaration's line lies within the text; the summary encodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let declarations = ScannedDeclaration.scan(text, file: "Fuzz.swift")
    precondition(ScannedDeclaration.scan(text, file: "Fuzz.swift") == declarations, "\(text.debugDescription)")
    for declaration in declarations {
        precondition(
            (1...(text.utf8.count + 1)).contains(declaration.line),
            "\(declaration) in \(text.debugDescription)"
        )
    }
    let first = generate(text)
    precondition(generate(text) == first, "\(text.debugDescription): two manifests")
    return 0
}

/// The manifest, modules, diagnostics and summary bytes of a library whose one file is `text`.
private func generate(_ text: String) -> String {
    let sources = ParsedSources([SourceFile(path: "Fuzz.swift", text: text)])
    let generator = ManifestGenerator(module: "Fuzz", mode: .library, paths: ["Fuzz.swift"], dependencies: [])
    let output = generator.generate(sources)
    guard let summary = try? output.summary.encoded() else {
        preconditionFailure("the summary of \(text.debugDescription) does not encode")
    }
    return "\(output.text)\n\(output.modules)\n\(output.diagnostics)\n\(String(decoding: summary, as: UTF8.self))"
}

@_cdecl("ScannerFuzzer_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzerRunDriver(argc, argv)
}

import Foundation
import LifecycleCore
import Synchronization

/// Where the example writes what happens, one line at a time, on standard output, flushed: the process tests
/// read the order of these lines. One per host, in its launch options under ``TranscriptKey``; never a
/// global.
public final class Transcript: Sendable {
    private let lines = Mutex<[String]>([])
    private let echoes: Bool

    /// A transcript; `echoes`: also print each line (the example does, the in-process tests do not).
    public init(echoes: Bool = true) {
        self.echoes = echoes
    }

    /// Writes `line`.
    public func write(_ line: String) {
        lines.withLock { lines in
            lines.append(line)
            if echoes { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }  // unbuffered
        }
    }

    /// Every line so far.
    public var written: [String] { lines.withLock { $0 } }
}

/// Where the modules find the host's ``Transcript``.
public enum TranscriptKey: LaunchOptionKey {
    public static let defaultValue: Transcript? = nil
}

/// Thrown by a module created without a ``Transcript`` in its launch options.
public struct MissingTranscript: Error, CustomStringConvertible {
    /// The module that needed it.
    public let module: String

    public var description: String {
        "\(module) needs a Transcript in its launch options, for init(context:): set "
            + "launchOptions[TranscriptKey.self] before app.useModules(_:launchOptions:)."
    }
}

extension LifecycleContext {
    /// The host's ``Transcript``, for `module`'s `init(context:)`.
    public func transcript(for module: any LifecycleModule.Type) throws(MissingTranscript) -> Transcript {
        guard let transcript = launchOptions[TranscriptKey.self] else {
            throw MissingTranscript(module: module.moduleName)
        }
        return transcript
    }
}

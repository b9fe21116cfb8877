import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import Testing

/// Random sequences of sends, registrations and removals, checked against a model of who receives what.
@Suite("Messages: model-based random sequences")
struct MessagingModelTests {
    /// The model: the receivers of `HowMany` present, in delivery order, and what each answers.
    struct Model {
        static let answers = ["Alpha": 1, "Beta": 2, "Gamma": 3]
        static let tags = ["Alpha": ["cache"], "Beta": ["cache", "beta"], "Gamma": [String]()]
        var present: Set<String> = ["Alpha"]

        /// Delivery order: Alpha (high), Gamma (low, but Beta depends on it), Beta.
        var order: [String] { ["Alpha", "Gamma", "Beta"].filter(present.contains) }
        func replies(tag: String?) -> [Int] {
            order.filter { tag == nil || Model.tags[$0]!.contains(tag!) }.map { Model.answers[$0]! }
        }
    }

    enum Step: CaseIterable {
        case toAll, toTag, toOne, register, remove
    }

    @Test("Every step agrees with the model", arguments: 0..<20)
    func randomSequence(seed: UInt64) async throws {
        var generator = SplitMix(seed: seed)
        let (host, _) = try await launchedHost([Alpha.self])
        var model = Model()
        let types: [String: any LifecycleModule.Type] = ["Beta": Beta.self, "Gamma": Gamma.self]
        for _ in 0..<40 {
            let messages = host.context.messages
            switch Step.allCases[Int(generator.next() % UInt64(Step.allCases.count))] {
            case .toAll:
                #expect(try await messages.broadcast(HowMany(), combining: .collect) == model.replies(tag: nil))
            case .toTag:
                let tag = ["cache", "beta"][Int(generator.next() % 2)]
                #expect(
                    try await messages.broadcast(HowMany(), to: .tagged(MessageTag(tag)), combining: .collect)
                        == model.replies(tag: tag)
                )
            case .toOne:
                if model.present.contains("Gamma") {
                    #expect(try await messages.send(HowMany(), to: Gamma.self) == 3)
                } else {
                    let error = await #expect(throws: MessageError.self) {
                        try await messages.send(HowMany(), to: Gamma.self)
                    }
                    #expect(error?.code == .noReceiver)
                }
            case .register:
                // Beta needs Gamma: register Gamma first, then Beta.
                let name = model.present.contains("Gamma") ? "Beta" : "Gamma"
                guard !model.present.contains(name) else { continue }
                _ = try await host.register(types[name]!)
                model.present.insert(name)
            case .remove:
                // Beta first: Gamma cannot go while Beta depends on it.
                let name = model.present.contains("Beta") ? "Beta" : "Gamma"
                guard model.present.contains(name) else { continue }
                _ = try await host.remove(types[name]!)
                model.present.remove(name)
            }
        }
    }
}

/// A small deterministic generator, so a failing seed replays.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

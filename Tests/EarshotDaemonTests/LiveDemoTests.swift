import EarshotTestSupport
import Foundation
import Testing

/// `make demo`: the bundled conversation, narrated from the daemon's events, as a person
/// running it would read it.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveDemoTests {
    static let conversation = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/conversation")

    @Test func theDemoNarratesTheWholeConversationBargeInIncluded() async throws {
        let outcome = try await onDedicatedThread {
            try BuiltProduct.run("earshot-bench", [
                "demo",
                Self.conversation.appendingPathComponent("barge_in.wav").path,
                Self.conversation.appendingPathComponent("responder.sh").path,
            ])
        }
        let text = outcome.stdoutText
        #expect(outcome.status == 0, "\(outcome.stderr)\n\(text)")
        let lines = text.split(separator: "\n").map { String($0.drop { $0 == " " }) }
        func index(_ fragment: String) -> Int? {
            lines.firstIndex { $0.contains(fragment) }
        }
        // The order a person hears it in: the question, the answer spoken (its text as a
        // caption), the interruption, the second request and its answer, back to listening.
        let milestones = [
            "heard: \"what is the weather like tomorrow\"",
            "earshot says: \"Tomorrow will be sunny",
            "you start talking over the reply",
            "the reply stops: you interrupted",
            "heard: \"turn on the kitchen lights\"",
            "earshot says: \"Okay, the kitchen lights are on.\"",
            "earshotd stopped cleanly.",
        ]
        let positions = milestones.map(index)
        #expect(positions.allSatisfy { $0 != nil }, "missing milestones in:\n\(text)")
        let found = positions.compactMap { $0 }
        #expect(found == found.sorted(), "out of order:\n\(text)")
        #expect(text.contains("The speaker played 2 stretches of speech"), "\(text)")
    }
}

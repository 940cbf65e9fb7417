import EarshotTestSupport
import Foundation
import Testing

/// A hands-free conversation with no front end: the person speaks, the responder command
/// answers, and the answer is spoken.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveResponderTests {
    static let request = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/one_request_slt.wav").path

    struct Conversation: Sendable {
        var timeline: [String]
        var loudSeconds: Double
    }

    static func converse() throws -> Conversation {
        let responder = #"read line; echo "You asked me to $line. Done.""#
        let session = try LiveSession(arguments: ["--listen", "--stt", "embedded", "--tts", "embedded", "--responder", responder])
        let client = try session.subscribedClient(topics: ["state", "transcript"])
        let speaker = try session.sound.record()
        let player = try session.sound.play(request)
        var events = client.events(timeout: 30) { event in
            event["event"] as? String == "state" && event["state"] as? String == "speaking"
        }
        events += client.events(timeout: 30) { event in
            event["event"] as? String == "state" && event["state"] as? String == "listening"
        }
        _ = player.wait()
        let spoken = speaker.stop()
        let timeline = events.compactMap { event -> String? in
            switch event["event"] as? String {
            case "state": event["state"] as? String
            case "transcript" where event["final"] as? Bool == true: "final: \(event["text"] as? String ?? "")"
            default: nil
            }
        }
        return Conversation(timeline: timeline, loudSeconds: Double(spoken.filter { abs($0) > 0.02 }.count) / 16_000)
    }

    @Test func theResponderAnswersWhatThePersonSaidAloud() async throws {
        let run = try await onDedicatedThread { try Self.converse() }
        #expect(
            run.timeline.suffix(5) == ["hearing", "thinking", "final: turn on the kitchen lights", "speaking", "listening"],
            "\(run.timeline)"
        )
        #expect(run.loudSeconds > 1, "the answer was not heard: \(run.loudSeconds) s of sound")
    }
}

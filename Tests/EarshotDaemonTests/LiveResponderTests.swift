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
        // The final comes at the eager end, while still hearing, unless the end is confirmed first.
        let turn = Array(run.timeline.suffix(5))
        #expect(turn.first == "hearing" && turn.suffix(2) == ["speaking", "listening"], "\(run.timeline)")
        #expect(Set(turn.dropFirst().prefix(2)) == ["thinking", "final: turn on the kitchen lights"], "\(run.timeline)")
        #expect(run.loudSeconds > 1, "the answer was not heard: \(run.loudSeconds) s of sound")
    }

    static let midSentencePause = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/endpointer/mid_sentence_pause.wav").path

    /// "move my dentist appointment to … next tuesday": the pause is an eager end whose reply is
    /// prepared, then dropped unheard when the person goes on; the whole utterance is answered.
    /// What the test reads of the conversation: the speech phases, the final transcripts and the
    /// first sentence of each reply that started playing.
    struct Heard: Sendable {
        var phases: [String]
        var finals: [String]
        var started: [String]
    }

    @Test func aResumedTurnDropsItsPreparedReplyUnheardAndTheWholeUtteranceIsAnswered() async throws {
        let heard = try await onDedicatedThread { () throws -> Heard in
            let session = try LiveSession(arguments: [
                "--listen", "--stt", "embedded", "--tts", "embedded", "--responder", #"read line; echo "You said $line.""#,
            ])
            let client = try session.subscribedClient(topics: ["state", "speech", "transcript", "speaker"])
            let player = try session.sound.play(Self.midSentencePause)
            var events = client.events(timeout: 30) { event in
                event["event"] as? String == "state" && event["state"] as? String == "speaking"
            }
            events += client.events(timeout: 30) { event in
                event["event"] as? String == "state" && event["state"] as? String == "listening"
            }
            _ = player.wait()
            func texts(_ event: String, phase: String? = nil, final: Bool? = nil) -> [String] {
                events.filter { $0["event"] as? String == event && (phase == nil || $0["phase"] as? String == phase) }
                    .filter { final == nil || $0["final"] as? Bool == final }
                    .map { $0["text"] as? String ?? "" }
            }
            return Heard(
                phases: events.filter { $0["event"] as? String == "speech" }.compactMap { $0["phase"] as? String },
                finals: texts("transcript", final: true),
                started: texts("speaker", phase: "start")
            )
        }
        #expect(heard.phases.contains("resumed"), "\(heard.phases)")
        let whole = try #require(heard.finals.last)
        #expect(whole.contains("dentist") && whole.hasSuffix("tuesday"), "\(heard.finals)")
        // Only the answer to the whole utterance was heard: the one prepared at the pause never started.
        #expect(heard.started.count == 1 && heard.started.first?.contains("tuesday") == true, "\(heard.started)")
    }
}

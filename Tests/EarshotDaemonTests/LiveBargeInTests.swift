import EarshotTestSupport
import Foundation
import Testing

/// Talking over the assistant through a real (private, headless) sound server: the person's
/// speech silences the reply and becomes the next turn; the assistant's own voice, looped back
/// into the microphone, never does, with or without the server's echo canceller (on PulseAudio
/// and on PipeWire).
@Suite(.serialized, .enabled(if: TestPeers.soundServers, "needs pulseaudio or pipewire-pulse (make deps installs both)"), .tags(.live))
struct LiveBargeInTests {
    static let request = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/two_requests_slt.wav").path
    static let longReply = Array(repeating: "This sentence keeps the speaker busy for a good while.", count: 12).joined(separator: " ")

    struct BargeIn: Sendable {
        var states: [String]
        var finals: [String]
        /// The `speaker` events' phases, in order.
        var speaker: [String]
        /// Seconds from the person's onset (in the microphone) to the speaker's last sound.
        var silencedAfter: Double?
        /// Seconds from the person's onset to the end of their first sentence (the first pause
        /// of 300 ms in the microphone).
        var firstSentence: Double?
        var spokeBeforeOnset: Bool
    }

    static func state(_ event: [String: Any]) -> String? {
        event["event"] as? String == "state" ? event["state"] as? String : nil
    }

    static func firstLoud(_ samples: ArraySlice<Float>, threshold: Float = 0.02) -> Int? {
        samples.firstIndex { abs($0) > threshold }
    }

    /// The index where the first 300 ms without a loud sample begins, at or after `start`.
    static func firstPause(_ samples: [Float], from start: Int, threshold: Float = 0.02) -> Int? {
        let frame = 160
        var quietFrames = 0
        for frameStart in stride(from: start, to: samples.count - frame, by: frame) {
            let loud = samples[frameStart..<frameStart + frame].contains { abs($0) > threshold }
            quietFrames = loud ? 0 : quietFrames + 1
            if quietFrames == 30 { return frameStart - 29 * frame }
        }
        return nil
    }

    static func bargeIn() throws -> BargeIn {
        let session = try LiveSession(arguments: ["--listen", "--tts", "embedded", "--stt", "embedded"])
        let client = try session.subscribedClient(topics: ["state", "transcript", "speaker"])
        // Both recordings start together, so their sample indices line up (within a few ms).
        let speaker = try session.sound.record()
        let microphone = try session.sound.record(from: "mic")
        var events: [[String: Any]] = []
        _ = try client.request(#"{"id":"say","cmd":"speak","text":"\#(longReply)"}"#, events: &events)
        events += client.events(timeout: 20) { Self.state($0) == "speaking" }
        Thread.sleep(forTimeInterval: 1.0)
        let player = try session.sound.play(request)
        events += client.events(timeout: 20) { event in
            event["event"] as? String == "transcript" && event["final"] as? Bool == true
        }
        _ = player.wait()
        let spoken = speaker.stop()
        let heard = microphone.stop()
        // The fixture's first 0.8 s are silent: the first loud microphone sample after the reply
        // began is the person's onset.
        let replyStart = firstLoud(spoken[...]) ?? 0
        let onset = firstLoud(heard[min(replyStart, heard.count)...])
        let lastSpoken = onset.flatMap { onset in spoken[min(onset, spoken.count)...].lastIndex { abs($0) > 0.02 } }
        let finals = events.filter { $0["event"] as? String == "transcript" && $0["final"] as? Bool == true }
            .compactMap { $0["text"] as? String }
        return BargeIn(
            states: events.compactMap(Self.state), finals: finals,
            speaker: events.filter { $0["event"] as? String == "speaker" }.compactMap { $0["phase"] as? String },
            silencedAfter: zip(onset.map { [$0] } ?? [], lastSpoken.map { [$0] } ?? [0]).map { Double($1 - $0) / 16_000 }.first,
            firstSentence: onset.flatMap { onset in firstPause(heard, from: onset).map { Double($0 - onset) / 16_000 } },
            spokeBeforeOnset: onset.map { spoken[replyStart..<min($0, spoken.count)].contains { abs($0) > 0.02 } } ?? false
        )
    }

    @Test(.enabled(if: TestPeers.pulseAudio))
    func thePersonTalkingOverTheReplySilencesItAndIsTranscribedAsTheNextTurn() async throws {
        let run = try await onDedicatedThread { try Self.bargeIn() }
        print("barge-in: speaker silent \(run.silencedAfter.map { String(format: "%.3f s", $0) } ?? "?") after the onset, first sentence \(run.firstSentence.map { String(format: "%.3f s", $0) } ?? "?"); states \(run.states); finals \(run.finals)")
        #expect(run.spokeBeforeOnset, "the reply was playing when the person spoke")
        let silenced = try #require(run.silencedAfter)
        let firstSentence = try #require(run.firstSentence)
        // How fast is `earshot-bench speech`'s figure; here the reply must stop while the person
        // is still saying their first sentence.
        #expect(silenced < firstSentence, "the speaker went on for \(silenced) s after the person's onset, past their first sentence (\(firstSentence) s)")
        #expect(run.states.contains("hearing"), "\(run.states)")
        #expect(run.finals.first?.contains("kitchen lights") == true, "\(run.finals)")
        // The captions follow: the reply starts, is paused at the person's onset, then stopped.
        #expect(run.speaker.first == "start", "\(run.speaker)")
        let paused = run.speaker.firstIndex(of: "pause")
        let stopped = run.speaker.lastIndex(of: "stop")
        #expect(paused != nil && stopped != nil && paused! < stopped!, "\(run.speaker)")
    }

    static func loopback(
        on kind: SoundServerKind = .pulseAudio, echoCancel: Bool = false
    ) throws -> (states: [String], speech: Int, loud: Int, timeline: String, echoCancellation: String) {
        let session = try LiveSession(on: kind, arguments: ["--listen", "--tts", "embedded"] + (echoCancel ? ["--echo-cancel"] : []))
        // The assistant's voice goes back into the microphone, as from speakers beside it.
        _ = try session.sound.pactl(
            "load-module", "module-loopback", "source=speaker.monitor", "sink=micfeed", "latency_msec=40", "adjust_time=0"
        )
        let audio = try session.connectedStatus(echoCancellation: echoCancel)["audio"] as? [String: Any]
        let client = try session.subscribedClient(topics: ["state", "speech"])
        let microphone = try session.sound.record(from: "mic")
        var events: [[String: Any]] = []
        _ = try client.request(#"{"id":"say","cmd":"speak","text":"\#(longReply)"}"#, events: &events)
        events += client.events(timeout: 90) { Self.state($0) == "listening" }
        let heard = microphone.stop()
        let timeline = events.compactMap { event -> String? in
            guard let name = event["event"] as? String, name != "level" else { return nil }
            return "\(name):\(event["state"] as? String ?? event["phase"] as? String ?? "")@\(event["t"] as? Double ?? -1)"
        }.joined(separator: " ")
        return (
            events.compactMap(Self.state), events.filter { $0["event"] as? String == "speech" }.count,
            heard.filter { abs($0) > 0.02 }.count, timeline, audio?["echo_cancellation"] as? String ?? "?"
        )
    }

    @Test(.enabled(if: TestPeers.pulseAudio))
    func theAssistantsOwnVoiceLoopedIntoTheMicrophoneNeverInterruptsIt() async throws {
        let run = try await onDedicatedThread { try Self.loopback() }
        #expect(Double(run.loud) / 16_000 > 2, "the reply did reach the microphone (\(run.loud) loud samples)")
        #expect(run.states.suffix(3) == ["thinking", "speaking", "listening"], "\(run.states)")
        #expect(run.speech == 0, "the assistant's voice was taken for the person's: \(run.timeline)")
    }

    @Test(arguments: SoundServerKind.testable)
    func withTheServersEchoCancellerTheLoopedBackVoiceNeverInterruptsEither(on kind: SoundServerKind) async throws {
        let run = try await onDedicatedThread { try Self.loopback(on: kind, echoCancel: true) }
        #expect(run.echoCancellation.hasPrefix("active"), "\(run.echoCancellation)")
        #expect(Double(run.loud) / 16_000 > 2, "the reply did reach the raw microphone (\(run.loud) loud samples)")
        #expect(run.states.suffix(3) == ["thinking", "speaking", "listening"], "\(run.states)")
        #expect(run.speech == 0, "the assistant's voice was taken for the person's: \(run.timeline)")
    }
}

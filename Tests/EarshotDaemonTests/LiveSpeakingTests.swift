import EarshotTestSupport
import Foundation
import Testing

/// The daemon speaking through a real (private, headless) sound server, PulseAudio and PipeWire:
/// what reaches the speaker's monitor, and how fast `stop` silences it.
@Suite(.serialized, .enabled(if: TestPeers.soundServers, "needs pulseaudio or pipewire-pulse (make deps installs both)"), .tags(.live))
struct LiveSpeakingTests {
    struct Spoken: Sendable {
        var states: [String]
        var speakerLevels: Int
        var recorded: [Float]
        var accepted: Bool
        var response: String
        var log: String
    }

    static func state(_ event: [String: Any]) -> String? {
        event["event"] as? String == "state" ? event["state"] as? String : nil
    }

    static func speak(_ text: String, on kind: SoundServerKind) throws -> Spoken {
        let session = try LiveSession(on: kind, arguments: ["--listen", "--tts", "embedded", "--voice", "cove"])
        let client = try session.subscribedClient(topics: ["state", "level"], levelHz: 30)
        let recording = try session.sound.record()
        var events: [[String: Any]] = []
        let response = try client.request(#"{"id":"say","cmd":"speak","text":"\#(text)"}"#, events: &events)
        events += client.events(timeout: 30) { Self.state($0) == "listening" }
        Thread.sleep(forTimeInterval: 0.2)
        let recorded = recording.stop()
        let speaker = events.filter { $0["event"] as? String == "level" && $0["source"] as? String == "speaker" }
        return Spoken(
            states: events.compactMap(Self.state), speakerLevels: speaker.count, recorded: recorded,
            accepted: response["ok"] as? Bool == true, response: "\(response)", log: session.daemon.log
        )
    }

    @Test(arguments: SoundServerKind.testable)
    func aReplyIsSpokenThroughTheSpeakerAndTheTurnReturnsToListening(on kind: SoundServerKind) async throws {
        let spoken = try await onDedicatedThread { try Self.speak("Hello there. This is Earshot, speaking in the voice called Cove.", on: kind) }
        #expect(spoken.accepted, "\(spoken.response)")
        #expect(spoken.states.suffix(3) == ["thinking", "speaking", "listening"], "\(spoken.states)\n\(spoken.log)")
        let loud = spoken.recorded.filter { abs($0) > 0.02 }.count
        #expect(Double(loud) / 16_000 > 0.5, "only \(loud) loud samples reached the speaker monitor")
        #expect(spoken.speakerLevels >= 30, "the blob follows the assistant's voice: \(spoken.speakerLevels) speaker levels")
    }

    static func stopMidReply(on kind: SoundServerKind) throws -> (silentAfter: Double?, sinceStop: Double, states: [String]) {
        let session = try LiveSession(on: kind, arguments: ["--listen", "--tts", "embedded"])
        let client = try session.subscribedClient(topics: ["state"])
        let recording = try session.sound.record()
        var events: [[String: Any]] = []
        let long = Array(repeating: "This sentence keeps the speaker busy for a good while.", count: 12).joined(separator: " ")
        _ = try client.request(#"{"id":"say","cmd":"speak","text":"\#(long)"}"#, events: &events)
        events += client.events(timeout: 20) { Self.state($0) == "speaking" }
        Thread.sleep(forTimeInterval: 1.0)
        let beforeStop = recording.sampleCount
        _ = try client.request(#"{"id":"stop","cmd":"stop"}"#, events: &events)
        events += client.events(timeout: 1)
        let recorded = recording.stop()
        // The last loud sample after the stop was sent, in seconds after it.
        let tail = recorded[min(beforeStop, recorded.count)...]
        let lastLoud = tail.lastIndex { abs($0) > 0.02 }
        let silentAfter = lastLoud.map { Double($0 - beforeStop) / 16_000 }
        return (silentAfter, Double(recorded.count - beforeStop) / 16_000, events.compactMap(Self.state))
    }

    /// How fast is `earshot-bench speech`'s figure; here the reply, which had half a minute to go,
    /// must fall silent at once, with room for a sanitizer's slowdown.
    @Test(arguments: SoundServerKind.testable)
    func stopSilencesTheSpeakerAtOnce(on kind: SoundServerKind) async throws {
        let run = try await onDedicatedThread { try Self.stopMidReply(on: kind) }
        #expect(run.states.suffix(2) == ["speaking", "listening"], "\(run.states)")
        #expect(run.sinceStop > 0.8, "the recording ran on after the stop")
        #expect((run.silentAfter ?? 0) <= 0.3, "sound went on \(run.silentAfter ?? 0) s after stop")
    }

    @Test(.enabled(if: TestPeers.pulseAudio))
    func voicesAreListedWithTheCurrentOneMarkedAndCanBeChanged() async throws {
        let result = try await onDedicatedThread { () throws -> (set: String?, listed: [[String: String]], code: String?, message: String?) in
            let session = try LiveSession(arguments: ["--tts", "embedded"])
            let client = try LineSocket(path: session.daemon.socketPath)
            var ignored: [[String: Any]] = []
            let set = try client.request(#"{"id":1,"cmd":"set-voice","voice":"Juniper"}"#, events: &ignored)
            let listed = try client.request(#"{"id":2,"cmd":"voices"}"#, events: &ignored)
            let unknown = try client.request(#"{"id":3,"cmd":"set-voice","voice":"Nova"}"#, events: &ignored)
            let voices = (listed["voices"] as? [[String: Any]] ?? []).map { voice in
                ["id": voice["id"] as? String ?? "", "name": voice["name"] as? String ?? "", "current": "\(voice["current"] as? Bool ?? false)"]
            }
            let error = unknown["error"] as? [String: Any]
            return (set["voice"] as? String, voices, error?["code"] as? String, error?["message"] as? String)
        }
        #expect(result.set == "juniper")
        #expect(result.listed.compactMap { $0["name"] }.sorted() == ["Breeze", "Cove", "Ember", "Juniper", "Sky"])
        #expect(result.listed.filter { $0["current"] == "true" }.compactMap { $0["id"] } == ["juniper"])
        #expect(result.code == "unknown_voice")
        #expect(result.message?.contains("breeze, cove, ember, juniper, sky") == true)
    }
}

/// A real Wyoming text-to-speech server from PyPI speaking the daemon's replies.
@Suite(
    .serialized,
    .tags(.live),
    .enabled(if: TestPeers.pulseAudio && TestPeers.wyoming, "needs pulseaudio and the Wyoming servers (make test installs both)")
)
struct LiveWyomingSpeechTests {
    static func speak() throws -> (states: [String], loudSeconds: Double) {
        let server = try SpeechServerProcess(.textToSpeech)
        defer { server.stop() }
        let session = try LiveSession(arguments: ["--listen", "--tts", server.uri])
        let client = try session.subscribedClient(topics: ["state"])
        let recording = try session.sound.record()
        var events: [[String: Any]] = []
        _ = try client.request(#"{"id":"say","cmd":"speak","text":"The Wyoming server is speaking this reply."}"#, events: &events)
        events += client.events(timeout: 30) { LiveSpeakingTests.state($0) == "listening" }
        let recorded = recording.stop()
        return (events.compactMap(LiveSpeakingTests.state), Double(recorded.filter { abs($0) > 0.02 }.count) / 16_000)
    }

    @Test func aReplyIsSpokenByTheWyomingServer() async throws {
        let run = try await onDedicatedThread { try Self.speak() }
        #expect(run.states.suffix(3) == ["thinking", "speaking", "listening"], "\(run.states)")
        #expect(run.loudSeconds > 0.5, "only \(run.loudSeconds) s of sound reached the speaker")
    }
}

/// earshotd with both backends on the OpenAI-compatible test server: a fixture said into the
/// microphone comes back as a transcript, a reply is spoken through the speaker, and `status`
/// names the servers.
@Suite(
    .serialized,
    .tags(.live),
    .enabled(if: TestPeers.pulseAudio && TestPeers.openAI, "needs pulseaudio and the OpenAI-compatible test server (make test installs both)")
)
struct LiveOpenAISpeechTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/one_request_slt.wav").path

    struct Run {
        var backends: [String: String]
        var transcript: String?
        var states: [String]
        var loudSeconds: Double
        var log: String
    }

    static func converse() throws -> Run {
        let server = try SpeechServerProcess(.openAI([]))
        defer { server.stop() }
        let session = try LiveSession(arguments: ["--listen", "--stt", server.uri, "--tts", server.uri])
        let client = try session.subscribedClient(topics: ["state", "transcript", "error", "speech"])
        var events: [[String: Any]] = []
        let status = try client.request(#"{"id":"status","cmd":"status"}"#, events: &events)
        _ = try session.sound.play(fixture).wait()
        events += client.events(timeout: 30) { $0["event"] as? String == "transcript" && $0["final"] as? Bool == true }
        let transcript = events.last { $0["event"] as? String == "transcript" && $0["final"] as? Bool == true }?["text"] as? String
        let recording = try session.sound.record()
        events = []
        let spoken = try client.request(#"{"id":"say","cmd":"speak","text":"The OpenAI server is speaking this reply.","turn":1}"#, events: &events)
        events += client.events(timeout: 30) { LiveSpeakingTests.state($0) == "listening" }
        let recorded = recording.stop()
        events.append(spoken)
        return Run(
            backends: status["backends"] as? [String: String] ?? [:], transcript: transcript,
            states: events.compactMap(LiveSpeakingTests.state), loudSeconds: Double(recorded.filter { abs($0) > 0.02 }.count) / 16_000,
            log: events.map { "\($0)" }.joined(separator: "\n") + "\n" + server.logTail
        )
    }

    @Test func transcribesAndSpeaksThroughTheServer() async throws {
        let run = try await onDedicatedThread { try Self.converse() }
        let transcription = run.backends["transcription"] ?? ""
        #expect(transcription.hasPrefix("OpenAI-compatible speech-to-text at http://127.0.0.1:"), "\(run.backends)")
        #expect(transcription.hasSuffix("/v1 (model whisper-1)"), "\(run.backends)")
        #expect((run.backends["speech"] ?? "").hasPrefix("OpenAI-compatible text-to-speech at http://127.0.0.1:"), "\(run.backends)")
        #expect(run.transcript?.contains("kitchen") == true, "\(String(describing: run.transcript))")
        #expect(run.states.suffix(2) == ["speaking", "listening"], "\(run.states)\n\(run.log)")
        #expect(run.loudSeconds > 0.5, "only \(run.loudSeconds) s of sound reached the speaker")
    }
}

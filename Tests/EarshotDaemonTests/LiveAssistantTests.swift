import EarshotAudio
import EarshotTestSupport
import Foundation
import Testing

/// A hands-free conversation with the built-in assistant: the person speaks, the OpenAI-compatible
/// chat test server (`Tests/Peers/openai_chat_server.py`) answers at a set pace, and the answer is
/// spoken while it is still being written; a reply talked over is remembered only as far as it
/// was heard.
@Suite(
    .serialized,
    .enabled(if: TestPeers.pulseAudio && TestPeers.openAI, "needs pulseaudio and the OpenAI-compatible test server's packages"),
    .tags(.live)
)
struct LiveAssistantTests {
    static let request = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/one_request_slt.wav").path
    static let longReply = Array(repeating: "This sentence keeps the speaker busy for a good while.", count: 8).joined(separator: " ")

    struct Conversation: Sendable {
        var timeline: [String]
        var said: [String]
        var loudSeconds: Double
        /// From the person's last sound in the microphone to the reply's first at the speaker.
        var voiceToVoice: Double?
        /// From the server's first token (its wall clock) to the reply's first audio handed to the
        /// sound server (the `speaker` start event's wall clock); the sink's buffer (40 ms) follows.
        var tokenToQueued: Double?
        /// What `status` says answers transcripts.
        var replies: String?
    }

    static func isState(_ event: [String: Any], _ state: String) -> Bool {
        event["event"] as? String == "state" && event["state"] as? String == state
    }

    static func firstTokenWall(_ log: String) -> Double? {
        fileText(log).split(separator: "\n").first { $0.hasPrefix("first token at ") }.flatMap { Double($0.dropFirst(15)) }
    }

    static func converse(_ peerOptions: [String]) throws -> Conversation {
        let peer = try SpeechServerProcess(.openAIChat(["--reply", "You asked me to {question}. Done."] + peerOptions))
        defer { peer.stop() }
        let session = try LiveSession(arguments: [
            "--listen", "--stt", "embedded", "--tts", "embedded", "--assistant", peer.uri, "--assistant-model", "earshot-test",
        ])
        let client = try session.subscribedClient(topics: ["state", "transcript", "speaker"])
        let replies = (try session.status()["backends"] as? [String: Any])?["replies"] as? String
        let speaker = try session.sound.record()
        let microphone = try session.sound.record(from: "mic")
        let player = try session.sound.play(request)
        var events = client.events(timeout: 30) { isState($0, "speaking") }
        events += client.events(timeout: 30) { isState($0, "listening") }
        _ = player.wait()
        let spoken = speaker.stop()
        let heard = microphone.stop()
        let timeline = events.compactMap { event -> String? in
            switch event["event"] as? String {
            case "state": event["state"] as? String
            case "transcript" where event["final"] as? Bool == true: "final: \(event["text"] as? String ?? "")"
            default: nil
            }
        }
        let said = events.filter { $0["event"] as? String == "speaker" }.compactMap { $0["text"] as? String }
        let personEnd = heard.lastIndex { abs($0) > 0.02 }
        let replyStart = personEnd.flatMap { end in spoken[min(end, spoken.count)...].firstIndex { abs($0) > 0.02 } }
        let firstToken = firstTokenWall(peer.logPath)
        let queuedWall = events.first { $0["event"] as? String == "speaker" && $0["phase"] as? String == "start" }?["wall"] as? Double
        return Conversation(
            timeline: timeline, said: said, loudSeconds: Double(spoken.filter { abs($0) > 0.02 }.count) / 16_000,
            voiceToVoice: zip([personEnd].compactMap { $0 }, [replyStart].compactMap { $0 }).map { Double($1 - $0) / 16_000 }.first,
            tokenToQueued: zip([firstToken].compactMap { $0 }, [queuedWall].compactMap { $0 }).map { $1 - $0 }.first,
            replies: replies
        )
    }

    static func report(_ name: String, _ run: Conversation) {
        func ms(_ seconds: Double?) -> String { seconds.map { String(format: "%.0f ms", $0 * 1000) } ?? "?" }
        print("assistant \(name): voice to voice \(ms(run.voiceToVoice)); first token → first audio queued \(ms(run.tokenToQueued))")
    }

    @Test(arguments: [("at 200 ms to the first token, 30 tokens/s", ["--first-token-ms", "200", "--tokens-per-second", "30"]),
                      ("at once", [])])
    func aSpokenQuestionIsAnsweredInTheVoice(_ name: String, _ options: [String]) async throws {
        let run = try await onDedicatedThread { try Self.converse(options) }
        Self.report(name, run)
        // The final transcript comes at the eager end (still hearing) or after the end is
        // confirmed (thinking), whichever the transcriber's speed makes first.
        let ending = Array(run.timeline.suffix(5))
        #expect(ending.first == "hearing" && ending.suffix(2) == ["speaking", "listening"], "\(run.timeline)")
        #expect(Set(ending.dropFirst().prefix(2)) == ["thinking", "final: turn on the kitchen lights"], "\(run.timeline)")
        #expect(run.said.first == "You asked me to turn on the kitchen lights.", "\(run.said)")
        #expect(run.loudSeconds > 1, "the answer was not heard: \(run.loudSeconds) s of sound")
        #expect(run.replies?.hasPrefix("assistant at http://127.0.0.1:") == true, "\(String(describing: run.replies))")
        #expect(run.replies?.hasSuffix("/v1 (model earshot-test)") == true, "\(String(describing: run.replies))")
    }

    /// The person talks over a long reply; the next request carries only what was played.
    /// The roles and contents of the last request's messages, and the final transcripts.
    static func bargeIn(log: String) throws -> (roles: [String], contents: [String], finals: [String]) {
        let peer = try SpeechServerProcess(.openAIChat(["--reply", longReply, "--reply", "Fine.", "--requests-log", log]))
        defer { peer.stop() }
        let session = try LiveSession(arguments: [
            "--listen", "--stt", "embedded", "--tts", "embedded", "--assistant", peer.uri, "--assistant-model", "earshot-test",
        ])
        let client = try session.subscribedClient(topics: ["state", "transcript"])
        var events: [[String: Any]] = []
        var player = try session.sound.play(request)
        events += client.events(timeout: 30) { isState($0, "speaking") }
        _ = player.wait()
        Thread.sleep(forTimeInterval: 1.5)
        player = try session.sound.play(request)
        events += client.events(timeout: 30) { event in
            event["event"] as? String == "transcript" && event["final"] as? Bool == true
        }
        events += client.events(timeout: 30) { isState($0, "listening") }
        _ = player.wait()
        let requests = fileText(log).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let finals = events.filter { $0["event"] as? String == "transcript" && $0["final"] as? Bool == true }.compactMap { $0["text"] as? String }
        let messages = (requests.last?["messages"] as? [[String: Any]]) ?? []
        return (messages.map { $0["role"] as? String ?? "" }, messages.map { $0["content"] as? String ?? "" }, finals)
    }

    /// "what is the weather like tomorrow" from `two_requests_slt.wav`, from 50 ms before its first
    /// sound: said right after the end of a turn was decided, it goes on with that turn.
    static func continuation() throws -> String {
        let path = URL(fileURLWithPath: request).deletingLastPathComponent().appendingPathComponent("two_requests_slt.wav").path
        let samples = try WAVFile.read(path).samples
        let second = 52_800  // 3.3 s: where `one_request_slt.wav` ends
        let onset = (second..<samples.count).first { abs(samples[$0]) > 0.02 } ?? second
        let out = NSTemporaryDirectory() + "earshot-continuation-\(UUID().uuidString.prefix(8)).wav"
        try WAVFile.write(AudioClip(samples: Array(samples[max(second, onset - 800)...])), to: out)
        return out
    }

    /// The person goes on as soon as the end of their turn is decided, while the answer is awaited:
    /// the turn is rejoined. The speech events, the roles and contents of the last request's
    /// messages, and the final transcripts.
    static func rejoined(log: String) throws -> (speech: [String], roles: [String], contents: [String], finals: [String]) {
        // The answer takes a while to begin, so the person goes on while it is awaited.
        let peer = try SpeechServerProcess(.openAIChat([
            "--reply", longReply, "--reply", "Fine.", "--requests-log", log, "--first-token-ms", "1500",
        ]))
        defer { peer.stop() }
        let session = try LiveSession(arguments: [
            "--listen", "--stt", "embedded", "--tts", "embedded", "--assistant", peer.uri, "--assistant-model", "earshot-test",
        ])
        let more = try continuation()
        defer { try? FileManager.default.removeItem(atPath: more) }
        let client = try session.subscribedClient(topics: ["state", "transcript", "speech"])
        var events: [[String: Any]] = []
        let first = try session.sound.play(request)
        events += client.events(timeout: 30) { isState($0, "thinking") }
        let player = try session.sound.play(more)
        _ = first.wait()
        events += client.events(timeout: 30) { event in
            event["event"] as? String == "transcript" && event["final"] as? Bool == true && (event["turn"] as? Int ?? 0) >= 2
        }
        events += client.events(timeout: 30) { isState($0, "speaking") }
        _ = player.wait()
        let requests = fileText(log).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let finals = events.filter { $0["event"] as? String == "transcript" && $0["final"] as? Bool == true }.compactMap { $0["text"] as? String }
        let messages = (requests.last?["messages"] as? [[String: Any]]) ?? []
        let speech = events.filter { $0["event"] as? String == "speech" }.map { "\($0["phase"] as? String ?? "") \($0["turn"] as? Int ?? 0)" }
        return (speech, messages.map { $0["role"] as? String ?? "" }, messages.map { $0["content"] as? String ?? "" }, finals)
    }

    /// Two turns with a `dismiss` and a `start` between them: the second request has no memory.
    static func dismissed(log: String) throws -> [[String]] {
        let peer = try SpeechServerProcess(.openAIChat(["--reply", "Okay.", "--requests-log", log]))
        defer { peer.stop() }
        let session = try LiveSession(arguments: [
            "--listen", "--stt", "embedded", "--tts", "embedded", "--assistant", peer.uri, "--assistant-model", "earshot-test",
        ])
        let client = try session.subscribedClient(topics: ["state"])
        var events: [[String: Any]] = []
        for round in 0..<3 {
            if round == 2 {
                _ = try client.request(#"{"id":"d","cmd":"dismiss"}"#, events: &events)
                _ = try client.request(#"{"id":"s","cmd":"start"}"#, events: &events)
                events += client.events(timeout: 10) { isState($0, "listening") }
            }
            let player = try session.sound.play(request)
            events += client.events(timeout: 30) { isState($0, "speaking") }
            events += client.events(timeout: 30) { isState($0, "listening") }
            _ = player.wait()
        }
        return fileText(log).split(separator: "\n").map { line in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            return ((object?["messages"] as? [[String: Any]]) ?? []).map { $0["role"] as? String ?? "" }
        }
    }

    @Test func dismissForgetsTheConversation() async throws {
        let log = NSTemporaryDirectory() + "earshot-chat-requests-\(UUID().uuidString.prefix(8)).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let roles = try await onDedicatedThread { try Self.dismissed(log: log) }
        #expect(roles == [
            ["system", "user"], ["system", "user", "assistant", "user"],
            ["system", "user"],
        ], "\(roles)")
    }

    @Test func speechAsAReplyBeginsGoesOnWithTheTurnAndTheAssistantForgetsTheCutOffExchange() async throws {
        let log = NSTemporaryDirectory() + "earshot-chat-requests-\(UUID().uuidString.prefix(8)).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try await onDedicatedThread { try Self.rejoined(log: log) }
        let speech = run.speech
        let ended = speech.firstIndex(of: "end 1"), resumed = speech.firstIndex(of: "resumed 1")
        #expect(ended != nil && resumed != nil && ended! < resumed!, "\(speech)")
        print("rejoined turn: finals \(run.finals), last request \(run.contents)")
        #expect(run.roles == ["system", "user"], "the cut-off exchange was withdrawn: \(run.contents)")
        let asked = run.contents.last ?? ""
        #expect(["turn", "kitchen", "lights"].contains { asked.contains($0) }, "the first part is in the question: \(asked)")
        #expect(["weather", "tomorrow"].contains { asked.contains($0) }, "the second part is in the question: \(asked)")
    }

    @Test func aReplyTalkedOverIsRememberedOnlyAsFarAsItWasHeard() async throws {
        let log = NSTemporaryDirectory() + "earshot-chat-requests-\(UUID().uuidString.prefix(8)).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try await onDedicatedThread { try Self.bargeIn(log: log) }
        #expect(run.finals.count == 2, "\(run.finals)")
        #expect(run.roles == ["system", "user", "assistant", "user"], "\(run.contents)")
        let heard = run.roles.count == 4 ? run.contents[2] : ""
        print("assistant barge-in: heard \"\(heard)\"")
        #expect(!heard.isEmpty, "something was played before the person spoke")
        #expect(Self.longReply.hasPrefix(heard), "\(heard)")
        #expect(heard.count < Self.longReply.count / 2, "the whole reply was kept: \(heard)")
    }
}

import EarshotSpeech
import EarshotTestSupport
import Foundation
import Testing

/// The assistant's server failing under a live conversation: the person hears, in the current
/// voice, what went wrong, front ends get an `assistant_failed` error, and the daemon goes on; the
/// next turn asks again.
@Suite(
    .serialized,
    .enabled(if: TestPeers.pulseAudio && TestPeers.openAI, "needs pulseaudio and the OpenAI-compatible test server's packages"),
    .tags(.live)
)
struct LiveAssistantFaultTests {
    static let request = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/one_request_slt.wav").path

    struct Turn: Sendable {
        var said: [String]
        var errors: [String]
        var states: [String]
    }

    static func isState(_ event: [String: Any], _ state: String) -> Bool {
        event["event"] as? String == "state" && event["state"] as? String == state
    }

    /// Plays the question, runs `whileSpeaking` once the reply (or the notice) starts, and
    /// collects the turn until the daemon listens again.
    static func ask(_ session: LiveSession, _ client: LineSocket, whileSpeaking: () -> Void = {}) throws -> Turn {
        let player = try session.sound.play(request)
        var events = client.events(timeout: 30) { isState($0, "speaking") }
        whileSpeaking()
        events += client.events(timeout: 30) { isState($0, "listening") }
        _ = player.wait()
        return Turn(
            said: events.filter { $0["event"] as? String == "speaker" }.compactMap { $0["text"] as? String },
            errors: events.filter { $0["event"] as? String == "error" }.compactMap { $0["code"] as? String },
            states: events.compactMap { $0["event"] as? String == "state" ? $0["state"] as? String : nil }
        )
    }

    static func serverKilledMidReply(log: String) throws -> (killed: Turn, again: Turn, remembered: String?) {
        let peer = try SpeechServerProcess(.openAIChat([
            "--reply", "The kitchen lights are on. I will tell you more about them, one slow word after another, until you stop me.",
            "--tokens-per-second", "4", "--requests-log", log,
        ]))
        defer { peer.stop() }
        let session = try LiveSession(arguments: [
            "--listen", "--stt", "embedded", "--tts", "embedded", "--assistant", peer.uri, "--assistant-model", "earshot-test",
        ])
        let client = try session.subscribedClient(topics: ["state", "transcript", "speaker", "error"])
        let killed = try ask(session, client) { peer.kill() }
        try peer.restart()
        let again = try ask(session, client)
        let last = fileText(log).split(separator: "\n").last.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let remembered = (last?["messages"] as? [[String: Any]])?.first { $0["role"] as? String == "assistant" }?["content"] as? String
        return (killed, again, remembered)
    }

    @Test func aServerKilledMidReplyIsSaidAloudAndTheNextTurnIsAnswered() async throws {
        let log = NSTemporaryDirectory() + "earshot-chat-requests-\(UUID().uuidString.prefix(8)).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try await onDedicatedThread { try Self.serverKilledMidReply(log: log) }
        #expect(run.killed.said.first == "The kitchen lights are on.", "\(run.killed.said)")
        #expect(run.killed.said.last == "The assistant's answer was cut off.", "\(run.killed.said)")
        #expect(run.killed.errors == ["assistant_failed"], "\(run.killed.errors)")
        #expect(run.again.said.first == "The kitchen lights are on.", "\(run.again.said)")
        #expect(run.again.errors.isEmpty, "\(run.again.errors)")
        #expect(run.again.states.last == "listening")
        // The next request remembers what the assistant said, not the daemon's notice after it.
        #expect(run.remembered?.hasPrefix("The kitchen lights are on.") == true, "\(String(describing: run.remembered))")
        #expect(run.remembered?.contains("cut off") == false, "\(String(describing: run.remembered))")
    }

    static func serverSilent() throws -> (turn: Turn, port: Int) {
        let peer = try SpeechServerProcess(.openAIChat(["--first-token-ms", "60000"]))
        defer { peer.stop() }
        let session = try LiveSession(arguments: [
            "--listen", "--stt", "embedded", "--tts", "embedded", "--assistant", peer.uri, "--assistant-model", "earshot-test",
        ])
        let client = try session.subscribedClient(topics: ["state", "transcript", "speaker", "error"])
        return (try ask(session, client), try OpenAIEndpoint(parsing: peer.uri).port)
    }

    /// Silent for longer than the assistant waits (10 s) but not `thinking`'s reply timeout
    /// (15 s): the person hears why no answer came.
    @Test func aServerThatSaysNothingIsSaidAloudBeforeTheReplyTimesOut() async throws {
        let run = try await onDedicatedThread { try Self.serverSilent() }
        #expect(run.turn.said == ["The assistant at 127.0.0.1:\(run.port) is not answering."], "\(run.turn.said)")
        #expect(run.turn.errors == ["assistant_failed"], "\(run.turn.errors)")
    }

    static func serverDown() throws -> Turn {
        let port = try SocketProbe.freeLoopbackPort()
        let session = try LiveSession(arguments: [
            "--listen", "--stt", "embedded", "--tts", "embedded", "--assistant", "openai+http://127.0.0.1:\(port)/v1",
        ])
        let client = try session.subscribedClient(topics: ["state", "transcript", "speaker", "error"])
        var turn = try ask(session, client)
        turn.said = turn.said.map { $0.replacingOccurrences(of: "\(port)", with: "PORT") }
        return turn
    }

    @Test func aServerThatIsDownIsNamedAloud() async throws {
        let run = try await onDedicatedThread { try Self.serverDown() }
        #expect(run.said == ["I can't reach the assistant at 127.0.0.1:PORT."], "\(run.said)")
        #expect(run.errors == ["assistant_failed"], "\(run.errors)")
        #expect(run.states.suffix(2) == ["speaking", "listening"], "\(run.states)")
    }
}

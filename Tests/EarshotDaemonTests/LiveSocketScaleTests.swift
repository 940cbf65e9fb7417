import EarshotAudio
import EarshotConversation
import EarshotTestSupport
import Foundation
import Testing

/// The socket at scale (issue 14): while speech plays into the live daemon's microphone, 64
/// clients take levels at 60 Hz (one of them never reads) and another floods it with random and
/// mutated requests. The audio path must not notice, the stalled client must go (and be logged),
/// every other client must see the whole conversation, and every request must be answered.
/// `earshot-bench sockets --requests 1000000` runs the full flood and prints its figures.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveSocketScaleTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Requests in the test's flood (EARSHOT_FLOOD_REQUESTS to change it); the bench sends 1,000,000.
    static var requests: Int {
        ProcessInfo.processInfo.environment["EARSHOT_FLOOD_REQUESTS"].flatMap(Int.init) ?? 40_000
    }

    /// About 40 s of speech: turns of every length, pauses inside and between them.
    static func conversation() throws -> AudioClip {
        let names = [
            "endpointer/two_phrases_long_pause.wav", "endpointer/utterance_after_silence.wav", "speech/one_request_slt.wav",
            "speech/two_requests_slt.wav", "endpointer/two_phrases_short_pause.wav", "endpointer/real_utterance_in_white_noise.wav",
            "speech/one_request_slt.wav", "endpointer/two_phrases_long_pause.wav",
        ]
        let gap = [Float](repeating: 0, count: 24_000)
        return AudioClip(samples: try names.flatMap { try WAVFile.read(fixtures.appendingPathComponent($0).path).samples + gap })
    }

    /// The state changes replay gives for `clip`, less the two every stream starts with.
    static func replayedStates(_ clip: AudioClip) -> [String] {
        var replay = Replay(detector: SpectralVAD(), configuration: .init())
        var output: [UInt8] = []
        replay.run(clip) { output += $0 }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let event = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  event["event"] as? String == "state", let state = event["state"] as? String, let turn = event["turn"] as? Int,
                  turn > 0 else { return nil }
            return "\(state)-\(turn)"
        }
    }

    struct Run: Sendable {
        var flood: RequestFlood.Outcome
        var expectedStates: [String]
        var readers: [SocketCrowd.ReaderLog]
        var playerStatus: Int32
        var stalledDisconnectedAfter: Double?
        var stalledClosed: [Bool]
        var counters: [String: Int]
        var framesCaptured: Int
        var wallSeconds: Double
        var stateAfter: String?
        var log: String
    }

    static func counters(_ status: [String: Any]) -> [String: Int] {
        (status["counters"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
    }

    static func crowdAndFlood(requests: Int) throws -> Run {
        let session = try LiveSession()
        let clip = try conversation()
        let path = session.directory + "/conversation.wav"
        try WAVFile.write(clip, to: path)
        let crowd = try SocketCrowd(socketPath: session.daemon.socketPath, readers: 63, stalled: 1, levelHz: 60)
        let framesBefore = counters(try session.status())["frames"] ?? 0
        let start = Date()
        let player = try session.sound.play(path)
        let flood = try RequestFlood.run(socketPath: session.daemon.socketPath, requests: requests, seed: 14)
        let playerStatus = player.wait()
        // The last turn ends 0.6 s after its speech; the stalled client may need longer to go
        // (its socket, the daemon's buffers and its queue fill first, then 10 s of audio).
        var stalledAfter: Double?
        let patience = Date().addingTimeInterval(40)
        repeat {
            if counters(try session.status())["disconnected_slow_clients"] ?? 0 > 0 {
                stalledAfter = Date().timeIntervalSince(start)
                break
            }
            Thread.sleep(forTimeInterval: 0.5)
        } while Date() < patience
        Thread.sleep(forTimeInterval: 1.5)
        let stalledClosed = crowd.stalledClientsClosed(timeout: 5)
        let readers = crowd.finish()
        let status = try session.status()
        let counters = counters(status)
        return Run(
            flood: flood, expectedStates: replayedStates(clip), readers: readers, playerStatus: playerStatus,
            stalledDisconnectedAfter: stalledAfter, stalledClosed: stalledClosed, counters: counters,
            framesCaptured: (counters["frames"] ?? 0) - framesBefore, wallSeconds: Date().timeIntervalSince(start),
            stateAfter: (status["state"] as? [String: Any])?["state"] as? String, log: session.daemon.log
        )
    }

    @Test func sixtyFourClientsAndAFloodOfBadRequestsLeaveTheAudioPathAndTheConversationWhole() async throws {
        let requests = Self.requests
        let run = try await onDedicatedThread { try Self.crowdAndFlood(requests: requests) }
        print(
            "flood: \(run.flood.responses) of \(requests) answered in \(String(format: "%.1f", run.flood.seconds)) s",
            "(\(Int(run.flood.requestsPerSecond))/s, \(run.flood.bytesSent) bytes, \(run.flood.succeeded) ok, \(run.flood.events) events);",
            "counters \(run.counters); stalled client gone after \(run.stalledDisconnectedAfter.map { String(format: "%.1f", $0) } ?? "never") s"
        )
        #expect(run.playerStatus == 0)

        // Every line answered once, in words the protocol knows, and the daemon still serves.
        #expect(run.flood.failure == nil, "\(run.flood.failure ?? "")")
        #expect(run.flood.responses == requests)
        #expect(run.flood.malformed.isEmpty, "\(run.flood.malformed)")
        let known: Set = ["line_too_long", "invalid_utf8", "invalid_json", "not_an_object", "missing_cmd", "unknown_cmd", "invalid_argument", "unknown_device", "unknown_voice", "confirmation_required"]
        #expect(Set(run.flood.errorCodes.keys).isSubset(of: known), "\(run.flood.errorCodes)")
        #expect(run.flood.errorCodes["line_too_long"] ?? 0 > 0 && run.flood.errorCodes["invalid_utf8"] ?? 0 > 0, "\(run.flood.errorCodes)")
        #expect(run.stateAfter == "listening")

        // The audio path never fell behind: nothing lost by the server or the ring, every 10 ms
        // of the run captured, no wait between fragments near what would lose audio.
        #expect(run.counters["holes"] == 0)
        #expect(run.counters["overflows"] == 0)
        #expect(Double(run.framesCaptured) >= run.wallSeconds * 100 * 0.9, "\(run.framesCaptured) frames in \(run.wallSeconds) s")
        let gap = try #require(run.counters["longest_fragment_gap_ms"])
        #expect(gap < 1000, "a fragment came \(gap) ms after the one before")

        // The client that never read was dropped, and the log says so in words.
        #expect(run.stalledDisconnectedAfter != nil)
        #expect(run.stalledClosed == [true])
        #expect(run.counters["disconnected_slow_clients"] == 1)
        #expect(run.log.contains("Disconnecting a client that stopped reading events"), "\(run.log.suffix(2000))")

        // Every other client saw the whole conversation, in order, the same as every other.
        #expect(run.expectedStates.count >= 24, "\(run.expectedStates)")
        #expect(run.readers.count == 63)
        let first = try #require(run.readers.first)
        #expect(first.states.map { "\($0.state)-\($0.turn)" } == run.expectedStates, "live \(first.states)\nreplay \(run.expectedStates)")
        for (index, reader) in run.readers.enumerated() {
            #expect(reader.states == first.states, "client \(index) saw \(reader.states)")
            #expect(!reader.closed, "client \(index) was disconnected")
            #expect(reader.malformed == 0)
            #expect(reader.levels > 0)
        }
    }
}

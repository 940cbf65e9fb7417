import EarshotAudio
import EarshotConversation
import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Foundation
import Testing

/// The real Wyoming speech-to-text server from PyPI killed mid-utterance and started again:
/// nothing the person said is lost.
@Suite(.serialized, .enabled(if: TestPeers.wyoming, "needs the Wyoming servers (make peers)"), .tags(.live))
struct WyomingOutageTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/two_requests_slt.wav").path

    /// The second request of the fixture ("what is the weather like tomorrow"), 10 ms chunks.
    static func utteranceChunks() throws -> [[Int16]] {
        let clip = try WAVFile.read(fixture)
        let frames = clip.frames.filter { $0.index >= 370 && $0.index < 660 }
        return frames.map { PCM16.samples(of: $0) }
    }

    @Test func anUtteranceCutOffByTheServerDyingIsTranscribedAfterItsRestart() async throws {
        let server = try await onDedicatedThread { try SpeechServerProcess(.speechToText) }
        defer { server.stop() }
        let endpoint = try WyomingEndpoint(parsing: server.uri)
        let log = ReportLog()
        let queue = TranscriptionQueue(
            transcriber: WyomingTranscriber(endpoint: endpoint, timeouts: WyomingTimeouts(connect: .seconds(2), response: .seconds(20))),
            configuration: .init(firstRetryDelay: .milliseconds(200), maximumRetryDelay: .seconds(1)),
            report: log.record
        )
        defer { queue.close() }
        let chunks = try Self.utteranceChunks()
        queue.begin(turn: 1, samples: chunks[0])
        for chunk in chunks[1..<100] {
            queue.append(turn: 1, samples: chunk)
            try await Task.sleep(for: .milliseconds(10))
        }
        // Mid-utterance, the server dies.
        server.kill()
        for chunk in chunks[100...] { queue.append(turn: 1, samples: chunk) }
        queue.end(turn: 1)
        let failure = await log.wait { if case .failed(1, _, _) = $0 { true } else { false } }
        guard case .failed(_, let message, _) = failure else {
            Issue.record("the outage was not reported: \(log.all)")
            return
        }
        #expect(message.contains(server.uri))
        try await onDedicatedThread { try server.restart() }
        let final = await log.wait(seconds: 90) { if case .final(1, _) = $0 { true } else { false } }
        guard case .final(_, let text) = final else {
            Issue.record("no transcript after the restart: \(log.all)\n\(server.logTail)")
            return
        }
        #expect(text.contains("weather"), "\(text)")
        #expect(text.contains("tomorrow"), "\(text)")
    }
}

import EarshotAudio
import EarshotConversation
import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Foundation
import Testing

/// The OpenAI-compatible test server killed mid-utterance and started again, or turning
/// requests away with 429: nothing the person said is lost, and the server's Retry-After is kept.
@Suite(.serialized, .enabled(if: TestPeers.openAI, "needs the OpenAI-compatible test server's packages (make peers)"), .tags(.live))
struct OpenAIOutageTests {
    @Test func anUtteranceCutOffByTheServerDyingIsTranscribedAfterItsRestart() async throws {
        let server = try await onDedicatedThread { try SpeechServerProcess(.openAI([])) }
        defer { server.stop() }
        let endpoint = try OpenAIEndpoint(parsing: server.uri)
        let log = ReportLog()
        let queue = TranscriptionQueue(
            transcriber: OpenAITranscriber(endpoint: endpoint),
            configuration: .init(firstRetryDelay: .milliseconds(200), maximumRetryDelay: .seconds(1)),
            report: log.record
        )
        defer { queue.close() }
        let chunks = try WyomingOutageTests.utteranceChunks()
        queue.begin(turn: 1, samples: chunks[0])
        for chunk in chunks[1..<100] { queue.append(turn: 1, samples: chunk) }
        // Mid-utterance, the server dies; the utterance ends while it is gone.
        server.kill()
        for chunk in chunks[100...] { queue.append(turn: 1, samples: chunk) }
        queue.end(turn: 1)
        let failure = await log.wait { if case .failed(1, _, _) = $0 { true } else { false } }
        guard case .failed(_, let message, _) = failure else {
            Issue.record("the outage was not reported: \(log.all)")
            return
        }
        #expect(message.hasPrefix("The OpenAI-compatible speech-to-text server at \(endpoint.baseURL) is not answering"), "\(message)")
        #expect(message.hasSuffix("What you said is kept and will be transcribed when it is back."), "\(message)")
        try await onDedicatedThread { try server.restart() }
        let final = await log.wait(seconds: 60) { if case .final(1, _) = $0 { true } else { false } }
        guard case .final(_, let text) = final else {
            Issue.record("no transcript after the restart: \(log.all)\n\(server.logTail)")
            return
        }
        #expect(text.contains("weather"), "\(text)")
        #expect(text.contains("tomorrow"), "\(text)")
    }

    @Test func twentyUtterancesEachCutOffByTheServerDyingAreAllTranscribed() async throws {
        let server = try await onDedicatedThread { try SpeechServerProcess(.openAI([])) }
        defer { server.stop() }
        let log = ReportLog()
        let queue = TranscriptionQueue(
            transcriber: OpenAITranscriber(endpoint: try OpenAIEndpoint(parsing: server.uri)),
            configuration: .init(capacity: 32, firstRetryDelay: .milliseconds(100), maximumRetryDelay: .milliseconds(400)),
            report: log.record
        )
        defer { queue.close() }
        let chunks = try WyomingOutageTests.utteranceChunks()
        for turn in 1...20 {
            queue.begin(turn: turn, samples: chunks[0])
            for chunk in chunks[1..<100] { queue.append(turn: turn, samples: chunk) }
            server.kill()
            for chunk in chunks[100...] { queue.append(turn: turn, samples: chunk) }
            queue.end(turn: turn)
            _ = await log.wait { if case .failed(turn, _, _) = $0 { true } else { false } }
            try await onDedicatedThread { try server.restart() }
            let final = await log.wait(seconds: 30) { if case .final(turn, _) = $0 { true } else { false } }
            guard case .final(_, let text) = final else {
                Issue.record("turn \(turn) was not transcribed after the restart: \(log.all)\n\(server.logTail)")
                return
            }
            #expect(text.contains("weather"), "turn \(turn): \(text)")
        }
        let dropped = log.all.filter { if case .dropped = $0 { true } else { false } }
        #expect(dropped.isEmpty, "\(dropped)")
    }

    @Test func aRateLimitedUtteranceWaitsForRetryAfterThenIsTranscribed() async throws {
        let server = try await onDedicatedThread { try SpeechServerProcess(.openAI(["--rate-limited-requests", "2", "--retry-after", "2"])) }
        defer { server.stop() }
        let log = ReportLog()
        // The queue's own backoff (0.1 s, then 0.2 s) is shorter than what the server asks for.
        let queue = TranscriptionQueue(
            transcriber: OpenAITranscriber(endpoint: try OpenAIEndpoint(parsing: server.uri)),
            configuration: .init(firstRetryDelay: .milliseconds(100), maximumRetryDelay: .milliseconds(400)),
            report: log.record
        )
        defer { queue.close() }
        let chunks = try WyomingOutageTests.utteranceChunks()
        let started = ContinuousClock.now
        queue.begin(turn: 1, samples: chunks[0])
        for chunk in chunks.dropFirst() { queue.append(turn: 1, samples: chunk) }
        queue.end(turn: 1)
        let failure = await log.wait { if case .failed(1, _, _) = $0 { true } else { false } }
        guard case .failed(_, let message, let retryIn) = failure else {
            Issue.record("the rate limit was not reported: \(log.all)")
            return
        }
        #expect(message.contains("asked to slow down (429 Too Many Requests"), "\(message)")
        #expect(retryIn >= 1.9, "the report promised a retry in \(retryIn) s, sooner than the server's Retry-After of 2 s")
        let final = await log.wait(seconds: 30) { if case .final(1, _) = $0 { true } else { false } }
        guard case .final(_, let text) = final else {
            Issue.record("no transcript after the rate limit: \(log.all)\n\(server.logTail)")
            return
        }
        #expect(text.contains("weather"), "\(text)")
        // Two refusals, each followed by the 2 s the server asked for.
        #expect(ContinuousClock.now - started >= .seconds(4), "retried before Retry-After had passed")
    }
}

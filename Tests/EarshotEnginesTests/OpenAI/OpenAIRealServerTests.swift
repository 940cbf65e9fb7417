import EarshotAudio
import EarshotBase
import EarshotConversation
import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Foundation
import Testing

/// The OpenAI clients against a real OpenAI-compatible server on loopback
/// (`Tests/Peers/openai_speech_server.py`: pocketsphinx and espeak-ng behind the API's shapes,
/// which the official `openai` client checks in `officialClientAgreesWithTheServer`).
@Suite(.serialized, .enabled(if: TestPeers.openAI, "needs the OpenAI-compatible test server's packages (make peers)"), .tags(.live))
struct OpenAIRealServerTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech").path
    static let oneRequest = fixtures + "/one_request_slt.wav"

    /// "turn on the kitchen lights" in 10 ms chunks, as the pipeline hands them over.
    static func utterance() throws -> UtteranceAudio {
        let clip = try WAVFile.read(oneRequest)
        return UtteranceAudio(chunks: clip.frames.map { PCM16.samples(of: $0) })
    }

    static func start(_ options: [String] = []) async throws -> (SpeechServerProcess, OpenAIEndpoint) {
        let server = try await onDedicatedThread { try SpeechServerProcess(.openAI(options)) }
        return (server, try OpenAIEndpoint(parsing: server.uri))
    }

    @Test func officialClientAgreesWithTheServer() async throws {
        let (server, endpoint) = try await Self.start(["--api-key", "test-key", "--rate-limited-requests", "1", "--retry-after", "1"])
        defer { server.stop() }
        let checker = URL(fileURLWithPath: SpeechServerProcess.openAIServerScript).deletingLastPathComponent()
            .appendingPathComponent("check_openai_peer.py").path
        let outputPath = server.directory + "/checker.log"
        let status = try await onDedicatedThread {
            try ChildProcess(
                SpeechServerProcess.venvPath + "/bin/python", [checker, endpoint.baseURL, "test-key", Self.oneRequest, "kitchen"],
                environment: ProcessInfo.processInfo.environment, outputPath: outputPath
            ).wait()
        }
        let output = fileText(outputPath)
        #expect(status == 0, "\(output)\n\(server.logTail)")
        #expect(output.contains("all checks passed"), "\(output)")
    }

    @Test func transcribesWithoutStreaming() async throws {
        let (server, endpoint) = try await Self.start(["--ignore-stream"])
        defer { server.stop() }
        let partials = Locked<[String]>([])
        let text = try await OpenAITranscriber(endpoint: endpoint).transcribe(try Self.utterance(), language: "en-US") { partial in
            partials.withLock { $0.append(partial.text) }
        }
        #expect(text.contains("kitchen"), "\(text)")
        #expect(text.contains("lights"), "\(text)")
        #expect(partials.withLock { $0 }.isEmpty)
    }

    @Test func streamedDeltasArrivePartialsThenTheFinalText() async throws {
        let (server, endpoint) = try await Self.start()
        defer { server.stop() }
        let partials = Locked<[String]>([])
        let text = try await OpenAITranscriber(endpoint: endpoint).transcribe(try Self.utterance(), language: "en-US") { partial in
            partials.withLock { $0.append(partial.text) }
        }
        let seen = partials.withLock { $0 }
        #expect(text.contains("kitchen lights"), "\(text)")
        #expect(!seen.isEmpty, "no partial transcript")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $1.hasPrefix($0) }, "partials do not grow: \(seen)")
        #expect(seen.last == text, "\(seen) then \(text)")
    }

    @Test func aWrongKeyIsRefusedInWordsNamingTheServer() async throws {
        let (server, endpoint) = try await Self.start(["--api-key", "right"])
        defer { server.stop() }
        let refused = await #expect(throws: SpeechError.self) {
            try await OpenAITranscriber(endpoint: endpoint, apiKey: OpenAIAPIKey("wrong")).transcribe(try Self.utterance(), language: "en") { _ in }
        }
        #expect(refused?.kind == .misconfigured)
        #expect(refused?.message == "The OpenAI-compatible speech-to-text server at \(endpoint.baseURL) refused the API key (401 Unauthorized: Incorrect API key provided.). Set OPENAI_API_KEY or [transcription] api_key_file to a key it accepts.")
        #expect(refused.map { !$0.message.contains("wrong") } == true, "the key must not be shown")
        let text = try await OpenAITranscriber(endpoint: endpoint, apiKey: OpenAIAPIKey("right")).transcribe(try Self.utterance(), language: "en") { _ in }
        #expect(text.contains("kitchen"), "\(text)")
    }

    @Test func rateLimitedCarriesRetryAfter() async throws {
        let (server, endpoint) = try await Self.start(["--rate-limited-requests", "1", "--retry-after", "3"])
        defer { server.stop() }
        let limited = await #expect(throws: SpeechError.self) {
            try await OpenAITranscriber(endpoint: endpoint).transcribe(try Self.utterance(), language: "en") { _ in }
        }
        #expect(limited?.kind == .unavailable)
        #expect(limited?.retryAfter == .seconds(3))
        #expect(limited?.message.contains("asked to slow down (429 Too Many Requests: Rate limit reached") == true, "\(String(describing: limited))")
    }

    @Test func aStalledServerTimesOut() async throws {
        let (server, endpoint) = try await Self.start(["--stall-seconds", "5"])
        defer { server.stop() }
        let transcriber = OpenAITranscriber(endpoint: endpoint, timeouts: OpenAITimeouts(response: .milliseconds(500)))
        let started = ContinuousClock.now
        let stalled = await #expect(throws: SpeechError.self) {
            try await transcriber.transcribe(try Self.utterance(), language: "en") { _ in }
        }
        #expect(stalled?.kind == .timedOut)
        #expect(stalled?.message == "The OpenAI-compatible speech-to-text server at \(endpoint.baseURL) did not answer within 0.5 s (waiting for the transcript).")
        #expect(ContinuousClock.now - started < .seconds(5), "gave up only when the server answered")
    }

    @Test func anUnreachableServerSaysSo() async throws {
        let port = try SocketProbe.freeLoopbackPort()
        let endpoint = try OpenAIEndpoint(parsing: "openai+http://127.0.0.1:\(port)/v1")
        let failure = await #expect(throws: SpeechError.self) {
            try await OpenAITranscriber(endpoint: endpoint).transcribe(try Self.utterance(), language: "en") { _ in }
        }
        #expect(failure?.kind == .unavailable)
        #expect(failure?.message == "The OpenAI-compatible speech-to-text server at http://127.0.0.1:\(port)/v1 is not answering (connection refused).")
    }

    @Test func speechStreamsInPiecesAtTheServersRate() async throws {
        let (server, endpoint) = try await Self.start()
        defer { server.stop() }
        let voice = Voice(id: "sky", displayName: "Sky", summary: "", language: "en-US", openAI: .init(voice: "nova"))
        var chunks: [SpeechChunk] = []
        for try await chunk in OpenAISynthesizer(endpoint: endpoint).synthesize("Hello there. This is the second sentence.", voice: voice) {
            chunks.append(chunk)
        }
        #expect(chunks.count > 2, "the audio came in \(chunks.count) piece(s), not as it was made")
        #expect(chunks.allSatisfy { $0.sampleRate == 24_000 })
        let seconds = chunks.reduce(0) { $0 + $1.duration }
        #expect(seconds > 1.5 && seconds < 10, "\(seconds) s")
        let peak = chunks.flatMap(\.samples).map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 3000, "silent audio (peak \(peak))")
    }

    @Test func speechIsAskedAgainAfterRetryAfterBeforeAnyAudio() async throws {
        let (server, endpoint) = try await Self.start(["--rate-limited-requests", "1", "--retry-after", "1"])
        defer { server.stop() }
        let voice = Voice(id: "x", displayName: "X", summary: "", language: "en-US")
        let started = ContinuousClock.now
        var samples = 0
        for try await chunk in OpenAISynthesizer(endpoint: endpoint).synthesize("One moment.", voice: voice) {
            samples += chunk.samples.count
        }
        #expect(samples > 12_000)
        #expect(ContinuousClock.now - started >= .seconds(1), "the retry did not wait for Retry-After")
    }

    @Test func speechWithAWrongKeyFailsTheStreamInWords() async throws {
        let (server, endpoint) = try await Self.start(["--api-key", "right"])
        defer { server.stop() }
        let voice = Voice(id: "x", displayName: "X", summary: "", language: "en-US")
        let refused = await #expect(throws: SpeechError.self) {
            for try await _ in OpenAISynthesizer(endpoint: endpoint).synthesize("Hello.", voice: voice) {}
        }
        #expect(refused?.message.hasPrefix("The OpenAI-compatible text-to-speech server at \(endpoint.baseURL) refused the API key (401") == true)
        #expect(refused?.message.contains("[speech] api_key_file") == true)
    }
}

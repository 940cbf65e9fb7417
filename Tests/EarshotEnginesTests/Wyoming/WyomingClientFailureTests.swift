import EarshotBase
import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Testing

/// The client against fake servers and no server at all: what a person is told when the server
/// is missing, silent, or refuses.
@Suite struct WyomingClientFailureTests {
    static func utterance(chunks: Int = 3) -> UtteranceAudio {
        UtteranceAudio(chunks: (0..<chunks).map { index in [Int16](repeating: Int16(index * 100), count: 320) })
    }

    @Test func connectionRefusedIsUnavailableAndNamesTheAddress() async throws {
        let port = try SocketProbe.freeLoopbackPort()
        let transcriber = WyomingTranscriber(endpoint: .tcp(host: "127.0.0.1", port: port))
        let error = await #expect(throws: SpeechError.self) {
            try await transcriber.transcribe(Self.utterance(), language: "en", partial: { _ in })
        }
        #expect(error?.kind == .unavailable)
        #expect(error?.message == "The Wyoming speech-to-text server at tcp://127.0.0.1:\(port) is not answering (connection refused)")
        #expect(error?.isRetryable == true)
    }

    @Test func missingUnixSocketIsUnavailable() async throws {
        let synthesizer = WyomingSynthesizer(endpoint: .unix(path: "/tmp/earshot-no-such-wyoming.sock"))
        let voice = Voice(id: "test", displayName: "Test", summary: "", language: "en-US")
        let error = await #expect(throws: SpeechError.self) {
            for try await _ in synthesizer.synthesize("Hello.", voice: voice) {}
        }
        #expect(error?.kind == .unavailable)
        #expect(error?.message == "The Wyoming text-to-speech server at unix:///tmp/earshot-no-such-wyoming.sock is not answering (no such file or directory)")
    }

    @Test func aConnectionNobodyAcceptsTimesOutWithinTheConnectTimeout() async throws {
        let wedged = try FullBacklogListener()
        let transcriber = WyomingTranscriber(
            endpoint: .tcp(host: "127.0.0.1", port: wedged.port), timeouts: WyomingTimeouts(connect: .milliseconds(300))
        )
        let started = ContinuousClock.now
        let error = await #expect(throws: SpeechError.self) {
            try await transcriber.transcribe(Self.utterance(), language: "en", partial: { _ in })
        }
        let elapsed = ContinuousClock.now - started
        #expect(error?.kind == .timedOut)
        #expect(error?.message == "The Wyoming speech-to-text server at tcp://127.0.0.1:\(wedged.port) did not accept the connection within 0.3 s")
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }

    @Test func aServerThatNeverAnswersTimesOutWithinTheResponseTimeout() async throws {
        let fake = try FakeWyomingServer.stalling()
        let transcriber = WyomingTranscriber(endpoint: fake.endpoint, timeouts: WyomingTimeouts(connect: .seconds(2), response: .milliseconds(400)))
        let started = ContinuousClock.now
        let error = await #expect(throws: SpeechError.self) {
            try await transcriber.transcribe(Self.utterance(), language: "en", partial: { _ in })
        }
        let elapsed = ContinuousClock.now - started
        #expect(error?.kind == .timedOut)
        #expect(error?.message == "The Wyoming speech-to-text server at \(fake.endpoint) did not answer within 0.4 s (waiting for its info)")
        #expect(elapsed >= .milliseconds(390) && elapsed < .seconds(3), "took \(elapsed)")
        #expect(fake.received.map(\.event.type) == ["describe"])
    }

    @Test func aServerThatNeverSendsTheTranscriptTimesOut() async throws {
        let fake = try FakeWyomingServer.answering(info: WyomingTestInfo.speechToText(), answer: [])
        let transcriber = WyomingTranscriber(endpoint: fake.endpoint, timeouts: WyomingTimeouts(response: .milliseconds(300)))
        let error = await #expect(throws: SpeechError.self) {
            try await transcriber.transcribe(Self.utterance(), language: "en", partial: { _ in })
        }
        #expect(error?.kind == .timedOut)
        #expect(error?.message.hasSuffix("did not answer within 0.3 s (waiting for the transcript)") == true)
        #expect(fake.received.map(\.event.type) == ["describe", "transcribe", "audio-start", "audio-chunk", "audio-chunk", "audio-chunk", "audio-stop"])
    }

    @Test func theServersErrorIsPassedOnAsRejected() async throws {
        let refusal = WyomingErrorMessage(text: "Unsupported language: xx", code: "LanguageError")
        let fake = try FakeWyomingServer.answering(info: WyomingTestInfo.speechToText(), answer: [refusal.event])
        let transcriber = WyomingTranscriber(endpoint: fake.endpoint)
        let error = await #expect(throws: SpeechError.self) {
            try await transcriber.transcribe(Self.utterance(), language: "xx", partial: { _ in })
        }
        #expect(error?.kind == .rejected)
        #expect(error?.message == "The Wyoming speech-to-text server at \(fake.endpoint) refused the request: Unsupported language: xx (LanguageError)")
        #expect(try WyomingTranscribe(fake.received[1].event) == WyomingTranscribe(language: "xx"))
    }

    @Test func streamedPartialsReachTheCallerBeforeTheFinalText() async throws {
        let answer = [
            WyomingTranscriptStart(language: "en").event, WyomingTranscriptChunk(text: "turn on").event,
            WyomingTranscriptChunk(text: " the lights").event, WyomingTranscript(text: "Turn on the lights.").event,
            WyomingTranscriptStop().event,
        ]
        let fake = try FakeWyomingServer.answering(info: WyomingTestInfo.speechToText(streaming: true), answer: answer)
        let partials = PartialLog()
        let text = try await WyomingTranscriber(endpoint: fake.endpoint)
            .transcribe(Self.utterance(), language: "en", partial: { partials.append($0.text) })
        #expect(text == "Turn on the lights.")
        #expect(partials.values == ["turn on", "turn on the lights"])
    }

    @Test func aTextToSpeechServerAskedForATranscriptIsMisconfigured() async throws {
        let fake = try FakeWyomingServer.answering(info: WyomingTestInfo.textToSpeech(), answer: [])
        let error = await #expect(throws: SpeechError.self) {
            try await WyomingTranscriber(endpoint: fake.endpoint).transcribe(Self.utterance(), language: "en", partial: { _ in })
        }
        #expect(error?.kind == .misconfigured)
        #expect(error?.message.hasSuffix("offers no speech-to-text (its info lists only text-to-speech)") == true)
    }

    @Test func cancellingTheCallerThrowsCancellationAndClosesTheConnection() async throws {
        let fake = try FakeWyomingServer.answering(info: WyomingTestInfo.speechToText(), answer: [WyomingTranscript(text: "late").event])
        let audio = UtteranceAudio()
        defer { audio.finish() }
        let transcription = Task { try await WyomingTranscriber(endpoint: fake.endpoint).transcribe(audio, language: "en", partial: { _ in }) }
        audio.append([Int16](repeating: 7, count: 320))
        #expect(await fake.waitUntil { $0.received.contains { $0.event.type == WyomingAudioChunk.eventType } })
        let cancelled = ContinuousClock.now
        transcription.cancel()
        await #expect(throws: CancellationError.self) { try await transcription.value }
        #expect(ContinuousClock.now - cancelled < .seconds(1))
        #expect(await fake.waitUntil { $0.disconnection(of: 0) != nil }, "the connection stayed open")
        #expect(!fake.received.contains { $0.event.type == WyomingAudioStop.eventType })
    }

    @Test func emptyTextIsNotSentToTheServer() async throws {
        let fake = try FakeWyomingServer.stalling()
        let voice = Voice(id: "test", displayName: "Test", summary: "", language: "en-US")
        var chunks = 0
        for try await _ in WyomingSynthesizer(endpoint: fake.endpoint).synthesize(" \n", voice: voice) { chunks += 1 }
        #expect(chunks == 0)
        #expect(fake.received.isEmpty)
    }

    @Test func somethingThatIsNotWyomingIsMisconfigured() async throws {
        let http = try FakeWyomingServer { _ in .raw(Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8)) }
        let error = await #expect(throws: SpeechError.self) {
            try await WyomingTranscriber(endpoint: http.endpoint).transcribe(Self.utterance(), language: "en", partial: { _ in })
        }
        #expect(error?.kind == .misconfigured)
        #expect(error?.message.contains("does not speak the Wyoming protocol: an event header is not valid") == true)
    }
}

/// Collects what a `@Sendable` callback is given, for checking afterwards.
final class PartialLog: Sendable {
    private let storage = Locked<[String]>([])

    func append(_ value: String) {
        storage.withLock { $0.append(value) }
    }

    var values: [String] { storage.withLock { $0 } }
}

import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Foundation
import Testing

/// The client against the real Wyoming servers from the private venv (`make peers`): the
/// OVOS speech-to-text server with pocketsphinx and the OVOS text-to-speech server with espeak-ng.
/// One at a time: each is a Python process that takes a core for a few seconds to start.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct WyomingRealServerTests {
    static func start(_ kind: SpeechServerProcess.Kind, _ transport: SpeechServerProcess.Transport = .tcp) async throws -> SpeechServerProcess {
        try await onDedicatedThread { try SpeechServerProcess(kind, transport: transport) }
    }

    /// Feeds the fixture at four times real time, as capture would (but quicker), then ends it;
    /// returns the text and how long after the end of the audio it came.
    static func transcribe(with transcriber: WyomingTranscriber) async throws -> (text: String, afterEnd: Duration) {
        let audio = UtteranceAudio()
        let transcription = Task { try await transcriber.transcribe(audio, language: "en", partial: { _ in }) }
        for chunk in SpeechFixture.chunks(try SpeechFixture.sevenTimesEight()) {
            audio.append(chunk)
            try await Task.sleep(for: .milliseconds(5))
        }
        let ended = ContinuousClock.now
        audio.finish()
        let text = try await transcription.value
        return (text, ContinuousClock.now - ended)
    }

    @Test func transcribesSpeechOverTCP() async throws {
        let server = try await Self.start(.speechToText)
        defer { server.stop() }
        let transcriber = WyomingTranscriber(endpoint: try WyomingEndpoint(parsing: server.uri))
        let (text, afterEnd) = try await Self.transcribe(with: transcriber)
        #expect(text.contains("seven") && text.contains("eight"), "transcript: \(text)")
        print("Wyoming STT (wyoming-ovos-stt + pocketsphinx, tcp): \"\(text)\" \(afterEnd.milliseconds) ms after audio-stop")
    }

    @Test func transcribesOverAUnixSocketAndConnectsAfreshForTheNextUtterance() async throws {
        let server = try await Self.start(.speechToText, .unixSocket)
        defer { server.stop() }
        let transcriber = WyomingTranscriber(endpoint: try WyomingEndpoint(parsing: server.uri))
        for attempt in 1...2 {
            let (text, afterEnd) = try await Self.transcribe(with: transcriber)
            #expect(text.contains("seven") && text.contains("eight"), "utterance \(attempt): \(text)")
            print("Wyoming STT (wyoming-ovos-stt + pocketsphinx, unix socket), utterance \(attempt): \(afterEnd.milliseconds) ms after audio-stop")
        }
    }

    @Test func aServerKilledMidUtteranceFailsTheCallPromptly() async throws {
        let server = try await Self.start(.speechToText)
        defer { server.stop() }
        let transcriber = WyomingTranscriber(endpoint: try WyomingEndpoint(parsing: server.uri))
        let audio = UtteranceAudio()
        defer { audio.finish() }
        let transcription = Task { try await transcriber.transcribe(audio, language: "en", partial: { _ in }) }
        let chunks = SpeechFixture.chunks(try SpeechFixture.sevenTimesEight())
        for chunk in chunks.prefix(20) {
            audio.append(chunk)
            try await Task.sleep(for: .milliseconds(10))
        }
        await onDedicatedThread { server.kill() }
        let killed = ContinuousClock.now
        // The person is still speaking: the failure must not wait for the end of the utterance.
        let error = await #expect(throws: SpeechError.self) { try await transcription.value }
        let elapsed = ContinuousClock.now - killed
        #expect(!audio.isFinished)
        #expect(error?.kind == .unavailable, "\(String(describing: error))")
        #expect(error?.message.hasPrefix("The Wyoming speech-to-text server at \(server.uri) ") == true)
        #expect(elapsed < .seconds(1), "took \(elapsed)")
        print("Wyoming STT killed mid-utterance: \(error?.message ?? "-") (\(elapsed.milliseconds) ms after the kill)")
    }

    @Test func synthesizesAudibleSpeechOfAPlausibleLength() async throws {
        let server = try await Self.start(.textToSpeech)
        defer { server.stop() }
        let synthesizer = WyomingSynthesizer(endpoint: try WyomingEndpoint(parsing: server.uri))
        let voice = Voice(
            id: "test", displayName: "Test", summary: "", language: "en-US",
            wyoming: Voice.Wyoming(voice: "ovos_tts_plugin_espeakng")
        )
        let text = "The quick brown fox jumps over the lazy dog. Then it runs back home."
        for attempt in 1...2 {
            let started = ContinuousClock.now
            var firstAudio: Duration?
            var samples: [Int16] = []
            var rates: Set<Int> = []
            for try await chunk in synthesizer.synthesize(text, voice: voice) {
                if firstAudio == nil { firstAudio = ContinuousClock.now - started }
                samples += chunk.samples
                rates.insert(chunk.sampleRate)
            }
            let total = ContinuousClock.now - started
            #expect(rates == [22_050])
            let seconds = Double(samples.count) / 22_050
            #expect(seconds > 2 && seconds < 12, "\(seconds) s of audio")
            let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
            #expect(rms > 300, "RMS \(rms)")
            print(
                "Wyoming TTS (wyoming-ovos-tts + espeak-ng), request \(attempt): first audio after \(firstAudio?.milliseconds ?? -1) ms, "
                    + "\(String(format: "%.2f", seconds)) s of audio in \(total.milliseconds) ms"
            )
        }
    }
}

/// Spoken audio from the repository's fixtures for the real servers to transcribe.
enum SpeechFixture {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// "what is seven times eight", spoken by flite's kal16 voice: 4.39–5.87 s of the VAD
    /// fixture `dev_s07_clean.wav` (16 kHz mono 16-bit), with 0.2 s either side.
    static func sevenTimesEight() throws -> [Int16] {
        let samples = try samples(of: "vad/dev_s07_clean.wav")
        return Array(samples[(4_190 * 16)..<(6_070 * 16)])
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The samples of a 16-bit mono WAV file.
    static func samples(of name: String) throws -> [Int16] {
        let bytes = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
        func word(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        func long(_ offset: Int) -> Int { word(offset) | word(offset + 2) << 16 }
        guard bytes.count > 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw Failure(description: "\(name) is not a WAV file")
        }
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = long(offset + 4)
            if bytes[offset..<offset + 4].elementsEqual("fmt ".utf8) {
                guard word(offset + 8) == 1, word(offset + 10) == 1, word(offset + 22) == 16 else {
                    throw Failure(description: "\(name) is not 16-bit mono PCM")
                }
            } else if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
                let end = min(offset + 8 + size, bytes.count)
                return stride(from: offset + 8, to: end - 1, by: 2).map { Int16(bitPattern: UInt16(word($0))) }
            }
            offset += 8 + size + size % 2
        }
        throw Failure(description: "\(name) has no data chunk")
    }

    /// Splits samples into capture-sized chunks (20 ms at 16 kHz).
    static func chunks(_ samples: [Int16], size: Int = 320) -> [[Int16]] {
        stride(from: 0, to: samples.count, by: size).map { Array(samples[$0..<min($0 + size, samples.count)]) }
    }
}

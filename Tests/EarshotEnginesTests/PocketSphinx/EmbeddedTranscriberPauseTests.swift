import EarshotBase
import EarshotEngines
import EarshotSpeech
import Testing

/// An eager end's transcript comes from the running decode, ended at the pause; an utterance the
/// person goes on with after it is transcribed whole, exactly as if it had never paused. Each test
/// has decoders of its own, fresh, so each starts from the same cepstral mean.
@Suite(.serialized)
struct EmbeddedTranscriberPauseTests {
    static let sentence = "please remind me to call the doctor tomorrow morning"
    static let silence = [[Int16]](repeating: [Int16](repeating: 0, count: 160), count: 30)

    /// The whole utterance decoded in one go, by a fresh decoder.
    static func decodedWhole(_ chunks: [[Int16]]) async throws -> String {
        try await EmbeddedTranscriber().transcribe(UtteranceAudio(chunks: chunks), language: "en") { _ in }
    }

    @Test func aPausesTranscriptIsTheUtteranceSoFarAndItsFinalIfThePersonStops() async throws {
        let utterance = try await SpokenUtterance.speak("turn on the kitchen lights", voice: .slt)
        let chunks = utterance.chunks + Self.silence
        let expected = try await Self.decodedWhole(chunks)
        let transcriber = EmbeddedTranscriber()
        let audio = UtteranceAudio()
        let transcription = Task { try await transcriber.transcribe(audio, language: "en") { _ in } }
        for chunk in chunks { audio.append(chunk) }
        audio.markPause()
        let atPause = try await transcriber.transcribeToPause(audio, language: "en")
        // The silence that confirms the end is kept but not decoded: the final is the pause's.
        for chunk in Self.silence { audio.append(chunk) }
        audio.finish()
        let final = try await transcription.value
        #expect(atPause == expected)
        #expect(final == atPause)
    }

    @Test func goingOnAfterAPauseTranscribesTheUtteranceWhole() async throws {
        let utterance = try await SpokenUtterance.speak(Self.sentence, voice: .slt)
        let speech = utterance.chunks
        let cut = speech.count / 2
        let chunks = Array(speech[..<cut]) + Self.silence + Array(speech[cut...])
        let expected = try await Self.decodedWhole(chunks)
        let transcriber = EmbeddedTranscriber()
        let audio = UtteranceAudio()
        let partials = Locked<[PartialTranscript]>([])
        let transcription = Task {
            try await transcriber.transcribe(audio, language: "en") { partial in partials.withLock { $0.append(partial) } }
        }
        for chunk in speech[..<cut] + Self.silence { audio.append(chunk) }
        audio.markPause()
        let atPause = try await transcriber.transcribeToPause(audio, language: "en")
        audio.markResumed()
        for chunk in speech[cut...] {
            audio.append(chunk)
            await audio.consumed(through: audio.chunkCount)
        }
        let last = try #require(partials.withLock { $0.last })
        audio.finish()
        let final = try await transcription.value
        #expect(!atPause.isEmpty && atPause != final, "the pause heard \"\(atPause)\", the whole \"\(final)\"")
        #expect(final == expected)
        #expect(last.coveredSamples == chunks.reduce(0) { $0 + $1.count }, "partials go on after the utterance is decoded again")
    }

    /// The marks are read in the order they were made: a pause the person went on from before the
    /// decoder reached it never ends the decode, and nobody waits for its transcript.
    @Test func aPauseThePersonWentOnFromBeforeTheDecoderGotThereIsNoEnd() async throws {
        let utterance = try await SpokenUtterance.speak(Self.sentence, voice: .kal16)
        let speech = utterance.chunks
        let cut = speech.count / 2
        let expected = try await Self.decodedWhole(speech)
        let transcriber = EmbeddedTranscriber()
        let audio = UtteranceAudio()
        let transcription = Task { try await transcriber.transcribe(audio, language: "en") { _ in } }
        for chunk in speech[..<cut] { audio.append(chunk) }
        audio.markPause()
        let waiting = Task { try await transcriber.transcribeToPause(audio, language: "en") }
        audio.markResumed()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        await #expect(throws: CancellationError.self) { try await transcriber.transcribeToPause(audio, language: "en") }
        for chunk in speech[cut...] { audio.append(chunk) }
        audio.finish()
        #expect(try await transcription.value == expected)
    }
}

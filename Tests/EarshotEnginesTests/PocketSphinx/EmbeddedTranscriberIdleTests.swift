import EarshotBase
import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Testing

/// The model's life: loaded as an utterance begins, freed once idle, loaded again for the next.
/// In the serialized suite, so that no other test loads a model while memory is measured.
extension EmbeddedTranscriberTests {
    static let shortIdle = Duration.milliseconds(200)

    /// A transcriber released after `shortIdle`, and the log of what it reported.
    static func idleTranscriber() -> (EmbeddedTranscriber, EngineMemoryLog) {
        let log = EngineMemoryLog()
        return (EmbeddedTranscriber(unload: log.unload(after: shortIdle)), log)
    }

    @Test func theModelLoadsAsTheUtteranceBeginsAndIsKeptWhileItLasts() async throws {
        let (transcriber, _) = Self.idleTranscriber()
        #expect(!transcriber.isLoaded, "nothing is loaded before the first utterance")
        let utterance = try await SpokenUtterance.speak("turn on the kitchen lights", voice: .slt)
        let chunks = utterance.chunks
        let audio = UtteranceAudio()
        audio.append(chunks[0])
        let transcription = Task { try await transcriber.transcribe(audio, language: "en") { _ in } }
        #expect(await eventually { transcriber.isLoaded }, "the first chunk alone loads the model")
        // Longer than the idle time: an utterance under way is never released under it.
        try await Task.sleep(for: Self.shortIdle * 3)
        #expect(transcriber.isLoaded)
        for chunk in chunks.dropFirst() { audio.append(chunk) }
        audio.finish()
        let heard = try await transcription.value
        #expect(WordErrorRate.of(reference: utterance.text, hypothesis: heard) <= 0.2, "heard \"\(heard)\"")
    }

    @Test func theModelIsFreedWhenIdleAndLoadsAgainForTheNextUtterance() async throws {
        let (transcriber, log) = Self.idleTranscriber()
        let first = try await SpokenUtterance.speak("turn on the kitchen lights", voice: .slt)
        let second = try await SpokenUtterance.speak("read my new messages", voice: .slt)
        let before = try #require(ProcessTable.residentKilobytes())

        let heardFirst = try await transcriber.transcribe(first.audio, language: "en") { _ in }
        let loaded = try #require(ProcessTable.residentKilobytes())
        let heapLoaded = IdleReleaseTimer.heapKilobytesInUse()
        // Reported once the freed memory went back to the system.
        #expect(await eventually { log.lines.count == 2 }, "released after \(Self.shortIdle) idle")
        #expect(!transcriber.isLoaded)
        let released = try #require(ProcessTable.residentKilobytes())
        let heapReleased = IdleReleaseTimer.heapKilobytesInUse()
        let heardSecond = try await transcriber.transcribe(second.audio, language: "en") { _ in }
        #expect(transcriber.isLoaded)

        print("pocketsphinx RSS: \(before / 1024) MB before, \(loaded / 1024) MB loaded, \(released / 1024) MB released; heap in use \(heapLoaded / 1024) → \(heapReleased / 1024) MB")
        #expect(WordErrorRate.of(reference: first.text, hypothesis: heardFirst) <= 0.2, "heard \"\(heardFirst)\"")
        #expect(WordErrorRate.of(reference: second.text, hypothesis: heardSecond) <= 0.34, "heard \"\(heardSecond)\"")
        // The model is about 65 MB: all of it is freed, and the trim hands the freed pages back.
        // How many of them is up to the arenas' fragmentation, which a long test process grows
        // (40 MB of 65 after the whole suite; 60–70 MB alone).
        #expect(heapLoaded - heapReleased > 50_000, "heap in use \(heapLoaded) kB loaded, \(heapReleased) kB released")
        #expect(loaded - released > 25_000, "RSS \(loaded) kB loaded, \(released) kB released")
        #expect(log.lines == [
            "loaded pocketsphinx model", "released pocketsphinx model after \(Self.shortIdle)", "loaded pocketsphinx model",
        ])
    }

    @Test func aPreparedModelUnusedIsFreedToo() async throws {
        let (transcriber, _) = Self.idleTranscriber()
        try await transcriber.prepare()
        #expect(transcriber.isLoaded)
        #expect(await eventually { !transcriber.isLoaded })
    }

    @Test func withoutAnIdleTimeTheModelStays() async throws {
        let transcriber = EmbeddedTranscriber(unload: .never)
        try await transcriber.prepare()
        try await Task.sleep(for: Self.shortIdle * 3)
        #expect(transcriber.isLoaded)
    }
}

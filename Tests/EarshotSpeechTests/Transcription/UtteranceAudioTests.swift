import EarshotSpeech
import Testing

/// Waiting for an utterance's audio to be read: it ends when a reader takes the chunks, and a
/// cancelled wait ends at once (nothing reads an utterance whose transcription was dropped).
@Suite struct UtteranceAudioTests {
    @Test func aWaitEndsWhenAReaderHasTakenTheChunks() async {
        let audio = UtteranceAudio()
        audio.append([1, 2, 3])
        let waiting = Task { await audio.consumed(through: 1) }
        var reader = audio.makeAsyncIterator()
        #expect(await reader.next() == [1, 2, 3])
        audio.finish()
        #expect(await reader.next() == nil)
        await waiting.value
    }

    @Test func aCancelledWaitEndsThoughNothingReads() async {
        let audio = UtteranceAudio()
        audio.append([1, 2, 3])
        let waiting = Task { await audio.consumed(through: 1) }
        waiting.cancel()
        await waiting.value
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await audio.consumed(through: 1)
        }
        await cancelledFirst.value
        #expect(audio.chunkCount == 1)
    }
}

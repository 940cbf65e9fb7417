import EarshotConversation
import EarshotSpeech
import Synchronization
import Testing

/// The language changes (a configuration reload) from the next utterance on; one already begun
/// keeps the language it began in.
@Suite struct TranscriptionLanguageTests {
    /// Answers each utterance with the language it was asked to transcribe it in.
    final class LanguageEcho: Transcriber {
        let name = "language echo (test)"

        func transcribe(_ audio: UtteranceAudio, language: String, partial: @escaping @Sendable (PartialTranscript) -> Void) async throws -> String {
            for await _ in audio {}
            return language
        }
    }

    @Test func aNewLanguageAppliesFromTheNextUtterance() async throws {
        let log = ReportLog()
        let queue = TranscriptionQueue(transcriber: LanguageEcho(), configuration: .init(language: "en-US"), report: log.record)
        #expect(queue.language == "en-US")
        queue.begin(turn: 1, samples: [1, 2, 3])
        queue.language = "de-DE"
        queue.end(turn: 1)
        queue.begin(turn: 2, samples: [1, 2, 3])
        queue.end(turn: 2)
        let first = await log.wait { if case .final(1, _) = $0 { true } else { false } }
        let second = await log.wait { if case .final(2, _) = $0 { true } else { false } }
        #expect(first == .final(turn: 1, text: "en-US"))
        #expect(second == .final(turn: 2, text: "de-DE"))
        queue.close()
    }
}

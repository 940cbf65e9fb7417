import EarshotBase
import EarshotSpeech
import Synchronization

/// A fake transcriber, for the faults a real server cannot be made to show on cue: it fails
/// while `unreachable` is set, and otherwise answers each utterance with its sample count.
final class ScriptedTranscriber: Transcriber {
    let name = "scripted (fake)"
    let unreachable = Atomic<Bool>(false)
    private let attempts = Locked<[Int]>([])

    /// The sample counts of the utterances attempted, in order (one entry per attempt).
    var attemptedSampleCounts: [Int] { attempts.withLock { $0 } }

    func transcribe(_ audio: UtteranceAudio, language: String, partial: @escaping @Sendable (PartialTranscript) -> Void) async throws -> String {
        if unreachable.load(ordering: .relaxed) {
            attempts.withLock { $0.append(-1) }
            throw TranscriptionError(.unavailable, "The scripted server is unreachable.")
        }
        var count = 0
        for await chunk in audio {
            count += chunk.count
            partial(PartialTranscript(text: "\(count)"))
        }
        attempts.withLock { $0.append(count) }
        return "samples \(count)"
    }
}

import EarshotDetection
import EarshotPipeline
import EarshotSpeech

extension Replay {
    /// Reports what the transcriber made of `turn`'s utterance: its last partials, then the
    /// final transcript, or the failure (the turn returns to listening).
    mutating func report(_ outcome: LockstepTranscription.Outcome, turn: Int, work: (SpeechWork) -> Void) {
        for text in outcome.partials { transcript(turn: turn, text: text, final: false) }
        switch outcome.result {
        case .success(let text):
            transcript(turn: turn, text: text, final: true, work: work)
        case .failure(let error):
            let message = (error as? TranscriptionError)?.message ?? "\(error)"
            reportError(code: "transcriber_unavailable", message: message)
            apply({ $0.transcriptionFailed(turn: turn) }, work: work)
        }
    }

    /// Reports partial transcripts of `turn`.
    mutating func reportPartials(_ texts: [String], turn: Int) {
        for text in texts { transcript(turn: turn, text: text, final: false) }
    }
}

/// What the pipeline thread hands the recording writer, in order.
enum RecordingJob: Sendable {
    /// Write a finished utterance's audio and details.
    case utterance(UtteranceCapture.Finished)
    /// `turn`'s final transcript arrived.
    case transcript(turn: Int, text: String, generation: Int)
    /// The reply to `turn` started with `text`.
    case reply(turn: Int, text: String, generation: Int)
}

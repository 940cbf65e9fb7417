/// One utterance of a transcription round and its latencies, in seconds.
struct TranscribedUtterance {
    var turn: Int
    var text: String
    /// End of speech → final transcript.
    var fromSpeech: Double?
    /// `thinking` state → final transcript.
    var fromEndpoint: Double?
}

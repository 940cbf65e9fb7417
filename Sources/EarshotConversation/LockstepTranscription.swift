import EarshotAudio
import EarshotSpeech

/// A transcriber fed a replay's utterances in lockstep: the replay waits for it to take each
/// frame before feeding the next, so every partial transcript belongs to a known frame, and the
/// final transcript is awaited while audio time stands still. One utterance at a time, as the
/// pipeline hands them out.
struct LockstepTranscription {
    private let transcriber: any Transcriber
    private let language: String
    private var active: ActiveUtterance?

    private struct ActiveUtterance {
        let turn: Int
        let audio: UtteranceAudio
        let task: Task<String, any Error>
        let partials: PartialTranscripts
    }

    /// What became of an utterance once it ended: the partials not yet reported, then the final
    /// text or the transcriber's failure.
    struct Outcome {
        var partials: [String]
        var result: Result<String, any Error>
    }

    init(transcriber: any Transcriber, language: String) {
        self.transcriber = transcriber
        self.language = language
    }

    /// Starts transcribing `turn` with the audio so far (a previous utterance still running is dropped).
    mutating func begin(turn: Int, audio frames: [AudioFrame]) {
        active?.task.cancel()
        let audio = UtteranceAudio()
        audio.append(PCM16.samples(of: frames))
        let partials = PartialTranscripts()
        let transcriber = transcriber, language = language
        let task = Task {
            // Once the transcriber is done, even early on a failure, nothing waits for it to read.
            defer { audio.stopConsuming() }
            return try await transcriber.transcribe(audio, language: language) { partials.append($0) }
        }
        active = ActiveUtterance(turn: turn, audio: audio, task: task, partials: partials)
    }

    func append(turn: Int, frame: borrowing AudioFrame) {
        if let active, active.turn == turn { active.audio.append(PCM16.samples(of: frame)) }
    }

    /// Ends `turn`'s utterance and waits for its transcript; nil when `turn` is not being transcribed.
    mutating func end(turn: Int) async -> Outcome? {
        guard let utterance = active, utterance.turn == turn else { return nil }
        active = nil
        utterance.audio.finish()
        let result = await utterance.task.result
        return Outcome(partials: utterance.partials.take(), result: result)
    }

    mutating func discard(turn: Int) {
        guard let utterance = active, utterance.turn == turn else { return }
        utterance.task.cancel()
        utterance.audio.finish()
        active = nil
    }

    /// Waits until the transcriber has taken every chunk so far; returns the partials it made
    /// since the last call, with their turn (nil when no utterance is being transcribed).
    func inStep() async -> (turn: Int, partials: [String])? {
        guard let utterance = active else { return nil }
        await utterance.audio.consumed(through: utterance.audio.chunkCount)
        return (utterance.turn, utterance.partials.take())
    }
}

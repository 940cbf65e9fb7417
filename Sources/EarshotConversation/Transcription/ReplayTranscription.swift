public import EarshotAudio
import EarshotBase
public import EarshotSpeech

/// Runs a recording through ``Replay`` with a real transcriber, deterministically: the replay
/// waits for the transcriber to take each frame before feeding the next, so each partial
/// transcript is stamped with the audio time of the frame that produced it, and audio time stands
/// still while the final transcript is awaited.
///
/// Replay has no front end to answer a transcript: a reply is declined (empty), which returns the
/// turn to listening as it would after a front end's empty `speak`. ``ScriptedReplay`` answers
/// from a conversation script instead.
public struct ReplayTranscription<Detector: VoiceActivityDetector> {
    private var replay: Replay<Detector>
    private var transcription: LockstepTranscription
    /// Hears the wake phrase while voice mode waits for it; nil: no wake phrase.
    private let wake: WakeListening?

    public init(replay: Replay<Detector>, transcriber: any Transcriber, language: String = "en-US", wake: WakeListening? = nil) {
        self.replay = replay
        self.transcription = LockstepTranscription(transcriber: transcriber, language: language)
        self.wake = wake
    }

    /// Replays `clip`; with `realtime`, one frame every 10 ms like a live microphone.
    public mutating func run(_ clip: AudioClip, realtime: Bool = false, write: ([UInt8]) -> Void) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        for frame in clip.frames {
            if realtime { try await clock.sleep(until: start.advanced(by: .milliseconds(10 * (frame.index + 1)))) }
            var work: [SpeechWork] = []
            replay.feed(frame) { work.append($0) }
            await perform(work)
            if let step = await transcription.inStep() { replay.reportPartials(step.partials, turn: step.turn) }
            replay.flush(to: write)
        }
        var work: [SpeechWork] = []
        replay.end { work.append($0) }
        await perform(work)
        replay.flush(to: write)
    }

    private mutating func perform(_ work: [SpeechWork]) async {
        for item in work { await perform(item) }
    }

    private mutating func perform(_ work: SpeechWork) async {
        switch work {
        case .beginUtterance(let turn, let frames):
            transcription.begin(turn: turn, audio: frames)
        case .utteranceAudio(let turn, let frame):
            transcription.append(turn: turn, frame: frame)
        case .effect(.endUtterance(let turn)):
            guard let outcome = await transcription.end(turn: turn) else { return }
            var next: [SpeechWork] = []
            replay.report(outcome, turn: turn) { next.append($0) }
            await perform(next)
        case .effect(.discardUtterance(let turn)):
            transcription.discard(turn: turn)
        case .effect(.finalizeTranscript(let turn)):
            guard let outcome = await transcription.finalize(turn: turn) else { return }
            var next: [SpeechWork] = []
            replay.report(outcome, turn: turn) { next.append($0) }
            await perform(next)
        case .effect(.continueUtterance(let dropped, let turn)):
            transcription.continueUtterance(from: dropped, turn: turn)
        case .effect(.requestReply(let turn, _)):
            var next: [SpeechWork] = []
            replay.apply({ $0.replyRequested(turn: turn, text: "") }) { next.append($0) }
            await perform(next)
        case .beginWakeAudio, .wakeAudio, .endWakeAudio:
            guard let heard = wake?.perform(work) else { return }
            var next: [SpeechWork] = []
            replay.wakePhraseHeard(atFrame: heard) { next.append($0) }
            await perform(next)
        case .effect, .wakeCue, .utterancePaused:
            // A recording has no speaker, its microphone is the file, and its audio is handed
            // on frame by frame.
            break
        }
    }
}

extension Replay {
    /// Reports what the transcriber made of `turn`'s utterance: its last partials, then the
    /// final transcript, or the failure (the turn returns to listening).
    mutating func report(_ outcome: LockstepTranscription.Outcome, turn: Int, work: (SpeechWork) -> Void) {
        reportPartials(outcome.partials, turn: turn)
        switch outcome.result {
        case .success(let text):
            transcript(turn: turn, text: text, final: true, work: work)
        case .failure(let error):
            let message = (error as? TranscriptionError)?.message ?? "\(error)"
            transcriptionFailed(turn: turn, message: message, work: work)
        }
    }

    /// Reports partial transcripts of `turn`.
    mutating func reportPartials(_ partials: [PartialTranscript], turn: Int) {
        for partial in partials {
            transcript(
                turn: turn, text: partial.text, final: false, sentenceEnd: partial.sentenceEnd,
                coveredSamples: partial.coveredSamples, wordsEndSamples: partial.wordsEndSamples
            )
        }
    }
}

/// A transcriber fed a replay's utterances in lockstep: the replay waits for it to take each
/// frame before feeding the next, so every partial transcript belongs to a known frame, and the
/// final transcript is awaited while audio time stands still. One utterance at a time, as the
/// pipeline hands them out.
struct LockstepTranscription {
    private let transcriber: any Transcriber
    private let language: String
    private var active: ActiveUtterance?

    private struct ActiveUtterance {
        /// The turn it is transcribed as; the next one once the person goes on after an eager end.
        var turn: Int
        let audio: UtteranceAudio
        let task: Task<String, any Error>
        let partials: PartialTranscripts
        /// Its transcript was finalised from a snapshot at an eager end: its own final is not reported.
        var finalized = false
    }

    /// What became of an utterance once it ended: the partials not yet reported, then the final
    /// text or the transcriber's failure.
    struct Outcome {
        var partials: [PartialTranscript]
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

    /// Transcribes `turn`'s utterance as it stands (an eager end) and waits for the text, while
    /// its audio goes on coming, to be transcribed whole if the person goes on. Nil when `turn` is not being transcribed.
    mutating func finalize(turn: Int) async -> Outcome? {
        guard let utterance = active, utterance.turn == turn else { return nil }
        active?.finalized = true
        let audio = utterance.audio
        audio.markPause()
        let transcriber = transcriber, language = language
        let result = await Task { try await transcriber.transcribeToPause(audio, language: language) }.result
        // What the transcriber heard on its way to the pause comes first, as it does live.
        return Outcome(partials: utterance.partials.take(), result: result)
    }

    /// The person went on after `dropped` was finalised: the utterance, transcribed whole, goes
    /// on as `turn`, and its own final will be reported.
    mutating func continueUtterance(from dropped: Int, turn: Int) {
        guard active?.turn == dropped else { return }
        active?.audio.markResumed()
        active?.turn = turn
        active?.finalized = false
    }

    /// Ends `turn`'s utterance and waits for its transcript; nil when `turn` is not being
    /// transcribed, or when its transcript was finalised at an eager end (the utterance's own
    /// transcription is still awaited, so the transcriber ends it as it would have).
    mutating func end(turn: Int) async -> Outcome? {
        guard let utterance = active, utterance.turn == turn else { return nil }
        active = nil
        utterance.audio.finish()
        let result = await utterance.task.result
        return utterance.finalized ? nil : Outcome(partials: utterance.partials.take(), result: result)
    }

    mutating func discard(turn: Int) {
        guard let utterance = active, utterance.turn == turn else { return }
        utterance.task.cancel()
        utterance.audio.finish()
        active = nil
    }

    /// Waits until the transcriber has taken every chunk so far; returns the partials it made
    /// since the last call, with their turn (nil when no utterance is being transcribed).
    func inStep() async -> (turn: Int, partials: [PartialTranscript])? {
        guard let utterance = active else { return nil }
        await utterance.audio.consumed(through: utterance.audio.chunkCount)
        return (utterance.turn, utterance.partials.take())
    }
}

/// Partial transcripts reported by a transcriber's thread, collected until the replay takes them.
final class PartialTranscripts: Sendable {
    private let partials = Locked<[PartialTranscript]>([])

    func append(_ partial: PartialTranscript) {
        partials.withLock { $0.append(partial) }
    }

    func take() -> [PartialTranscript] {
        partials.withLock { partials in
            defer { partials.removeAll() }
            return partials
        }
    }
}

/// Converts the pipeline's float frames into the signed 16-bit samples transcribers take.
public enum PCM16 {
    public static func samples(of frames: [AudioFrame]) -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity(frames.count * AudioFrame.sampleCount)
        for frame in frames { append(frame, to: &samples) }
        return samples
    }

    public static func samples(of frame: borrowing AudioFrame) -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity(AudioFrame.sampleCount)
        append(frame, to: &samples)
        return samples
    }

    private static func append(_ frame: borrowing AudioFrame, to samples: inout [Int16]) {
        for index in 0..<AudioFrame.sampleCount {
            let scaled = (frame.samples[index] * 32767).rounded()
            samples.append(Int16(max(-32768, min(32767, scaled))))
        }
    }

    /// Float samples in -1...1, as the player takes them.
    public static func floats(of samples: [Int16]) -> [Float] {
        samples.map { Float($0) / 32768 }
    }
}

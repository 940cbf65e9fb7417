public import EarshotAudio
public import EarshotDetection
public import EarshotPipeline
public import EarshotSpeech

/// Runs a recording through ``Replay`` with a real transcriber, deterministically: the replay
/// waits for the transcriber to take each frame before feeding the next, so each partial
/// transcript is stamped with the audio time of the frame that produced it, and audio time stands
/// still while the final transcript is awaited.
///
/// Replay has no front end to answer a transcript: a reply is declined (empty), which returns the
/// turn to listening as it would after a front end's empty `speak`.
public struct ReplayTranscription<Detector: VoiceActivityDetector> {
    private var replay: Replay<Detector>
    private let transcriber: any Transcriber
    private let language: String
    private var active: ActiveUtterance?

    private struct ActiveUtterance {
        let turn: Int
        let audio: UtteranceAudio
        let task: Task<String, any Error>
        let partials: PartialTranscripts
    }

    public init(replay: Replay<Detector>, transcriber: any Transcriber, language: String = "en-US") {
        self.replay = replay
        self.transcriber = transcriber
        self.language = language
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
            await keepInStep()
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
        case .utteranceAudio(let turn, let frame):
            if let active, active.turn == turn { active.audio.append(PCM16.samples(of: frame)) }
        case .endUtterance(let turn):
            guard let utterance = active, utterance.turn == turn else { return }
            active = nil
            utterance.audio.finish()
            let outcome = await utterance.task.result
            emitPartials(of: utterance)
            var next: [SpeechWork] = []
            switch outcome {
            case .success(let text):
                replay.transcript(turn: turn, text: text, final: true) { next.append($0) }
            case .failure(let error):
                let message = (error as? TranscriptionError)?.message ?? "\(error)"
                replay.reportError(code: "transcriber_unavailable", message: message)
                replay.apply({ $0.transcriptionFailed(turn: turn) }) { next.append($0) }
            }
            await perform(next)
        case .discardUtterance(let turn):
            if let utterance = active, utterance.turn == turn {
                utterance.task.cancel()
                utterance.audio.finish()
                active = nil
            }
        case .requestReply(let turn, _):
            var next: [SpeechWork] = []
            replay.apply({ $0.replyRequested(turn: turn, text: "") }) { next.append($0) }
            await perform(next)
        case .discardReply, .synthesize, .duckPlayback, .resumePlayback, .stopPlayback:
            break
        }
    }

    /// Waits until the transcriber has taken every chunk so far, then reports its new partials.
    private mutating func keepInStep() async {
        guard let utterance = active else { return }
        await utterance.audio.consumed(through: utterance.audio.chunkCount)
        emitPartials(of: utterance)
    }

    private mutating func emitPartials(of utterance: ActiveUtterance) {
        for text in utterance.partials.take() { replay.transcript(turn: utterance.turn, text: text, final: false) }
    }
}

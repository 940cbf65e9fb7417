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
/// turn to listening as it would after a front end's empty `speak`. ``ScriptedReplay`` answers
/// from a conversation script instead.
public struct ReplayTranscription<Detector: VoiceActivityDetector> {
    private var replay: Replay<Detector>
    private var transcription: LockstepTranscription

    public init(replay: Replay<Detector>, transcriber: any Transcriber, language: String = "en-US") {
        self.replay = replay
        self.transcription = LockstepTranscription(transcriber: transcriber, language: language)
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
        case .endUtterance(let turn):
            guard let outcome = await transcription.end(turn: turn) else { return }
            var next: [SpeechWork] = []
            replay.report(outcome, turn: turn) { next.append($0) }
            await perform(next)
        case .discardUtterance(let turn):
            transcription.discard(turn: turn)
        case .requestReply(let turn, _):
            var next: [SpeechWork] = []
            replay.apply({ $0.replyRequested(turn: turn, text: "") }) { next.append($0) }
            await perform(next)
        case .discardReply, .synthesize, .duckPlayback, .resumePlayback, .stopPlayback:
            break
        }
    }
}

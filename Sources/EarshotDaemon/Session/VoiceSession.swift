import EarshotAudio
import EarshotConversation
import EarshotBase
import EarshotProtocol
import EarshotPulse
import EarshotServer
import EarshotSpeech
import EarshotTurns
import Logging

/// The one live pipeline: frames from the capture thread and commands from front ends meet here.
///
/// The pipeline runs where the frames arrive, on libpulse's mainloop thread, under the engine's
/// capture lock; a command takes that lock for one input, so both see the same turn machine and
/// events leave in order. Publishing to the socket never blocks, so the lock is never held
/// across client I/O.
final class VoiceSession: Sendable {
    private let pipeline: CaptureConfined<VoicePipeline<SpectralVAD>>
    /// Utterance audio on its way to the transcriber and the recorder, a batch at a time.
    private let utteranceBatch: CaptureConfined<UtteranceBatch>
    private let errors = Locked(RecentErrors())
    private let relay: EventRelay
    private let engine: PulseAudioEngine
    private let logger: Logger
    /// Where utterances go to be transcribed; nil when transcription is off.
    let transcription: TranscriptionQueue?
    /// Speaks replies; nil when speech is off.
    let player: SpeechPlayer?
    /// Keeps the last turns' audio for bug reports (`--debug-turns`); nil when that is off.
    let recorder: DebugRecorder?
    /// What the player hands the speaker, taken back in step with the microphone.
    let tap: SpeakerTap
    let voices: VoiceCatalog
    private let voiceSetting: Locked<Voice>
    /// Answers transcripts when no front end does; nil without `--responder` (changes on reload).
    private let responderSetting: Locked<ResponderRunner?>
    let startedAt = ContinuousClock.now

    init(
        configuration: DaemonConfiguration, engine: PulseAudioEngine, relay: EventRelay,
        transcription: TranscriptionQueue?, player: SpeechPlayer?, tap: SpeakerTap,
        voices: VoiceCatalog, voice: Voice, responder: ResponderRunner?, recorder: DebugRecorder? = nil, logger: Logger
    ) {
        let pipeline = VoicePipeline(detector: SpectralVAD(configuration: configuration.detector), configuration: .init(
            endpointer: configuration.endpointer,
            levelMeter: LevelMeter.Configuration(readingsPerSecond: LevelMeter.Configuration.maximumReadingsPerSecond),
            turns: Self.turns(replyTimeout: configuration.replyTimeout, playsCues: configuration.playsCues),
            emitsLevels: true,
            startsListening: configuration.startsListening,
            transcribes: transcription != nil,
            emitsUtteranceAudio: recorder != nil
        ))
        self.recorder = recorder
        self.transcription = transcription
        self.player = player
        self.tap = tap
        self.voices = voices
        self.voiceSetting = Locked(voice)
        self.responderSetting = Locked(responder)
        self.pipeline = CaptureConfined(pipeline, engine: engine)
        self.utteranceBatch = CaptureConfined(UtteranceBatch(), engine: engine)
        self.relay = relay
        self.engine = engine
        self.logger = logger
    }

    /// Starts the turns before the first frame: the microphone opens now if voice mode starts
    /// on, and stays closed otherwise.
    func begin() {
        pipeline.withLock { pipeline in
            let wall = WallClock.now()
            pipeline.begin(emit: { deliver($0, wall: wall) }, work: { perform($0, at: 0) })
        }
    }

    /// Runs one captured frame through the pipeline, on the capture thread where it arrived;
    /// `capturedAt` is the wall-clock time the frame reached Earshot, stamped on its events.
    func process(_ frame: AudioFrame, capturedAt: Double) {
        pipeline.withLock { pipeline in
            let time = Double(frame.index + 1) * AudioFrame.duration
            pipeline.process(frame, emit: { deliver($0, wall: capturedAt) }, work: { perform($0, at: time) })
            if let played = tap.nextFrame(index: frame.index) {
                pipeline.played(played) { deliver($0, wall: capturedAt) }
            }
        }
    }

    var responder: ResponderRunner? { responderSetting.withLock { $0 } }

    /// Answers transcripts with `runner` from now on; a reply the previous one was giving stops.
    func replaceResponder(with runner: ResponderRunner?) {
        let previous = responderSetting.withLock { current in
            defer { current = runner }
            return current
        }
        previous?.cancel(turn: nil)
    }

    /// Takes new listening settings and reply timeout between two frames (the frame consumer
    /// waits for the lock), so the very next frame is judged by them.
    func reconfigure(endpointer: Endpointer.Configuration, vadThreshold: Float, replyTimeout: Duration, playsCues: Bool) {
        pipeline.withLock { pipeline in
            pipeline.reconfigure(endpointer: endpointer, turns: Self.turns(replyTimeout: replyTimeout, playsCues: playsCues)) { detector in
                detector.setThreshold(vadThreshold)
            }
        }
    }

    /// Gives the turn machine a front end's input; a rejection becomes the daemon's error.
    func apply(_ input: (inout TurnMachine<StreamClock>) -> TurnAction) -> Result<TurnSnapshot, ProtocolError> {
        pipeline.withLock { pipeline in
            let action = apply(input, to: &pipeline)
            if case .rejected(let rejection) = action { return .failure(ProtocolError(rejection)) }
            return .success(pipeline.machine.snapshot)
        }
    }

    /// Gives the turn machine an input and returns what it decided.
    func applyForAction(_ input: (inout TurnMachine<StreamClock>) -> TurnAction) -> TurnAction {
        pipeline.withLock { apply(input, to: &$0) }
    }

    private func apply(_ input: (inout TurnMachine<StreamClock>) -> TurnAction, to pipeline: inout VoicePipeline<SpectralVAD>) -> TurnAction {
        let wall = WallClock.now()
        let time = pipeline.now
        return pipeline.apply(input, emit: { deliver($0, wall: wall) }, work: { perform($0, at: time) })
    }

    private static func turns(replyTimeout: Duration, playsCues: Bool) -> TurnMachine<StreamClock>.Configuration {
        var turns = TurnMachine<StreamClock>.Configuration.standard
        turns.replyTimeout = replyTimeout
        turns.playsCues = playsCues
        return turns
    }

    /// Gives the pipeline what the transcriber reported.
    func handle(_ report: TranscriptionReport) {
        pipeline.withLock { pipeline in
            let wall = WallClock.now()
            let emit = { (event: PipelineEvent) in self.deliver(event, wall: wall) }
            let time = pipeline.now
            let perform = { (work: SpeechWork) in self.perform(work, at: time) }
            switch report {
            case .partial(let turn, let text):
                pipeline.transcript(turn: turn, text: text, final: false, emit: emit, work: perform)
            case .final(let turn, let text):
                pipeline.transcript(turn: turn, text: text, final: true, emit: emit, work: perform)
            case .failed(let turn, let message, let retryIn):
                pipeline.transcriptionFailed(turn: turn, message: message, retryIn: retryIn, emit: emit, work: perform)
            case .dropped(_, let message):
                pipeline.reportError(code: "transcript_dropped", message: message, emit: emit)
            }
        }
    }

    /// Carries out what the pipeline asks of the backends. Runs inside the pipeline's lock, so
    /// it only hands work on: nothing here waits.
    private func perform(_ work: SpeechWork, at time: Double) {
        switch work {
        case .openMicrophone:
            engine.setMicrophone(.open)
        case .closeMicrophone:
            engine.setMicrophone(.closed)
        case .silenceMicrophone:
            engine.setMicrophone(.silenced)
        case .playCue(let cue):
            engine.play(cue == .voiceModeOn ? Cue.enter : Cue.leave)
        case .beginUtterance(let turn, let audio):
            recorder?.beginUtterance(turn: turn, audio: audio)
            transcription?.begin(turn: turn, samples: PCM16.samples(of: audio))
            utteranceBatch.withLock { $0.begin(turn: turn) }
        case .utteranceAudio(let turn, let frame):
            utteranceBatch.withLock { batch in
                if batch.add(frame, turn: turn) { handOn(&batch) }
            }
        case .endUtterance(let turn):
            utteranceBatch.withLock { handOn(&$0) }
            recorder?.endUtterance(turn: turn)
            transcription?.end(turn: turn)
        case .discardUtterance(let turn):
            utteranceBatch.withLock { $0.begin(turn: nil) }
            recorder?.discardUtterance(turn: turn)
            transcription?.discard(turn: turn)
        case .preview(let text, let voice):
            player?.speak(reply: TurnMachine<StreamClock>.previewReply, text: text, voice: voice.flatMap(voices.voice(named:)) ?? currentVoice)
        case .synthesize(let reply, let text, let voice, let continues):
            recorder?.replyStarted(text: text)
            player?.speak(reply: reply, text: text, voice: voice.flatMap(voices.voice(named:)) ?? currentVoice, more: continues)
        case .stopPlayback(let reply):
            player?.stop(reply: reply)
            responder?.cancel(turn: nil)
        case .duckPlayback(let reply):
            // The person may be interrupting: silence the reply at once, keeping the rest.
            engine.pausePlayback(true)
            tap.setPaused(true)
            publish(.speaker(SpeakerEvent(phase: .pause, reply: reply, time: time)))
        case .resumePlayback(let reply):
            engine.pausePlayback(false)
            tap.setPaused(false)
            publish(.speaker(SpeakerEvent(phase: .resume, reply: reply, time: time)))
        case .requestReply(let turn, let transcript):
            recorder?.replyRequested(turn: turn)
            // Without a responder command, a front end answers with `speak`.
            responder?.answer(turn: turn, transcript: transcript, session: self)
        case .discardReply(let turn):
            responder?.cancel(turn: turn)
        }
    }

    /// Hands the batched utterance audio to the recorder and the transcriber.
    private func handOn(_ batch: inout UtteranceBatch) {
        batch.handOn { turn, frames in
            for frame in frames { recorder?.utteranceAudio(turn: turn, frame: frame) }
            transcription?.append(turn: turn, samples: PCM16.samples(of: frames))
        }
    }

    /// The voice replies are spoken in.
    var currentVoice: Voice {
        get { voiceSetting.withLock { $0 } }
        set { voiceSetting.withLock { $0 = newValue } }
    }

    /// Tells front ends about a failure outside the turn machine.
    func reportError(code: String, message: String) {
        pipeline.withLock { pipeline in
            let wall = WallClock.now()
            pipeline.reportError(code: code, message: message) { self.deliver($0, wall: wall) }
        }
    }

    var snapshot: TurnSnapshot { pipeline.withLock { $0.machine.snapshot } }
    /// Audio time of the latest captured frame, in seconds.
    var audioTime: Double { pipeline.withLock { $0.now } }
    var recentErrors: [DaemonStatus.ReportedError] { errors.withLock { $0.entries } }

    /// Reports something from the daemon itself (the sound server, devices).
    func publish(_ event: SocketEvent) {
        if case .error(let error) = event {
            errors.withLock { $0.record(code: error.code, message: error.message) }
        }
        relay.publish(event)
    }

    private func deliver(_ event: PipelineEvent, wall: Double) {
        switch event {
        case .state(let snapshot, _):
            recorder?.phaseChanged(to: snapshot.phase)
            logger.info("Voice UI state", metadata: [
                "state": "\(snapshot.phase.rawValue)", "turn": "\(snapshot.turn)", "muted": "\(snapshot.muted)",
            ])
        case .error(let code, let message, _, _):
            errors.withLock { $0.record(code: code, message: message) }
            logger.warning("\(message)", metadata: ["code": "\(code)"])
        case .transcript(let turn, let text, true, _):
            recorder?.finalTranscript(turn: turn, text: text)
        case .speechStarted, .speechEnded, .transcript, .level:
            break
        }
        relay.publish(SocketEvent(event), wall: wall)
    }
}

// MARK: Replies and voices

extension VoiceSession {
    /// Gives the turn machine what the speech player reported (it ignores a preview's).
    func handle(_ report: PlaybackReport) {
        switch report {
        case .saying(let reply, let voice, let text, let first):
            publish(.speaker(SpeakerEvent(phase: first ? .start : .say, reply: reply, voice: first ? voice : nil, text: text, time: audioTime)))
        case .stopped(let reply):
            publish(.speaker(SpeakerEvent(phase: .stop, reply: reply, time: audioTime)))
        case .started(let reply):
            _ = apply { $0.playbackStarted(reply: reply) }
        case .finished(let reply):
            publish(.speaker(SpeakerEvent(phase: .end, reply: reply, time: audioTime)))
            _ = apply { $0.playbackFinished(reply: reply) }
        case .failed(let reply, let message):
            reportError(code: "speech_failed", message: message)
            _ = apply { $0.playbackFinished(reply: reply) }
        }
    }

    /// Starts the reply to `turn` with the responder's first piece, more to follow; returns the
    /// reply's number, or nil when the turn no longer wants one.
    func startStreamedReply(turn: Int, text: String) -> Int? {
        let action = applyForAction { $0.replyRequested(turn: turn, text: text, continues: true) }
        for case .synthesize(let reply, _, _, _) in action.effects { return reply }
        return nil
    }

    /// The responder had nothing to say to `turn`: back to listening.
    func declineReply(turn: Int) {
        _ = apply { $0.replyRequested(turn: turn, text: "") }
    }

    /// The voices, the current one marked, as `voices` answers.
    var voiceListing: JSONValue {
        let current = currentVoice.id
        return .array(voices.voices.map { voice in
            .object([
                "id": .string(voice.id), "name": .string(voice.displayName), "description": .string(voice.summary),
                "language": .string(voice.language), "current": .bool(voice.id == current),
            ])
        })
    }

    /// Finds a voice by id or display name, or says which exist.
    func voice(named name: String) -> Result<Voice, ProtocolError> {
        if let voice = voices.voice(named: name) { return .success(voice) }
        let known = voices.voices.map(\.id).joined(separator: ", ")
        return .failure(ProtocolError(code: "unknown_voice", message: "There is no voice called \"\(name)\". Voices: \(known)."))
    }

    /// Says `text` through the turn machine (as a reply, or unprompted), in `voice` if given.
    func speak(_ text: String, voice: Voice?, turn: Int?) -> Result<TurnSnapshot, ProtocolError> {
        guard player != nil else {
            return .failure(ProtocolError(code: "speech_off", message: "Speech is off: start earshotd with --tts embedded or a Wyoming server."))
        }
        return apply { $0.replyRequested(turn: turn, text: text, voice: voice?.id) }
    }

    /// Speaks a sample line in `voice`: outside voice mode straight to the speaker, in voice
    /// mode as an unprompted reply so the microphone knows it is the assistant talking.
    func preview(_ voice: Voice) -> Result<TurnSnapshot, ProtocolError> {
        let line = "Hi, I'm \(voice.displayName). \(voice.summary)"
        guard player != nil else { return speak(line, voice: voice, turn: nil) }
        return apply { $0.preview(text: line, voice: voice.id) }
    }
}

/// The last few errors, newest last, for `status`.
struct RecentErrors: Sendable {
    static let capacity = 10
    private(set) var entries: [DaemonStatus.ReportedError] = []

    mutating func record(code: String, message: String, wall: Double = WallClock.now()) {
        entries.append(DaemonStatus.ReportedError(code: code, message: message, wall: wall))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }
}

import EarshotJSON
import EarshotAudio
import EarshotConversation
import EarshotDetection
import EarshotPipeline
import EarshotPipelineWire
import EarshotProtocol
import EarshotPulse
import EarshotSpeech
import EarshotVoices
import EarshotTurns
import Logging
import Synchronization

/// The one live pipeline: frames from the capture thread and commands from front ends meet here.
///
/// The pipeline sits behind a mutex: the frame consumer holds it for one frame at a time and a
/// command for one input, so both see the same turn machine and events leave in order.
/// Publishing to the socket never blocks, so the lock is never held across client I/O.
final class VoiceSession: Sendable {
    /// What the session remembers about the events it delivered. Locked inside `pipeline`'s
    /// lock, never the other way round.
    private struct Bookkeeping {
        var errors = RecentErrors()
        var lastPhase: TurnPhase = .idle
    }

    private let pipeline: Mutex<VoicePipeline<SpectralVAD>>
    private let bookkeeping = Mutex(Bookkeeping())
    private let relay: EventRelay
    private let engine: PulseAudioEngine
    /// Play a cue on entering and leaving voice mode (changes on reload).
    private let cueSetting: Atomic<Bool>
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
    private let voiceSetting: Mutex<Voice>
    /// A `speak` command's own voice, for the reply it is about to start.
    let voiceForNextReply = Mutex<Voice?>(nil)
    /// The reply about to start is a responder's: more text follows.
    let replyContinues = Mutex(false)
    /// Answers transcripts when no front end does; nil without `--responder` (changes on reload).
    private let responderSetting: Mutex<ResponderRunner?>
    let startedAt = ContinuousClock.now

    init(
        configuration: DaemonConfiguration, engine: PulseAudioEngine, relay: EventRelay,
        transcription: TranscriptionQueue?, player: SpeechPlayer?, tap: SpeakerTap,
        voices: VoiceCatalog, voice: Voice, responder: ResponderRunner?, recorder: DebugRecorder? = nil, logger: Logger
    ) {
        let pipeline = VoicePipeline(detector: SpectralVAD(configuration: configuration.detector), configuration: .init(
            endpointer: configuration.endpointer,
            levelMeter: LevelMeter.Configuration(readingsPerSecond: LevelMeter.Configuration.maximumReadingsPerSecond),
            turns: Self.turns(replyTimeout: configuration.replyTimeout),
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
        self.voiceSetting = Mutex(voice)
        self.responderSetting = Mutex(responder)
        self.pipeline = Mutex(pipeline)
        self.relay = relay
        self.engine = engine
        self.cueSetting = Atomic(configuration.playsCues)
        self.logger = logger
    }

    /// Runs one captured frame through the pipeline (called by the frame consumer thread only);
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

    var playsCues: Bool {
        get { cueSetting.load(ordering: .relaxed) }
        set { cueSetting.store(newValue, ordering: .relaxed) }
    }

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
    func reconfigure(endpointer: Endpointer.Configuration, vadThreshold: Float, replyTimeout: Duration) {
        pipeline.withLock { pipeline in
            pipeline.reconfigure(endpointer: endpointer, turns: Self.turns(replyTimeout: replyTimeout)) { detector in
                detector.setThreshold(vadThreshold)
            }
        }
    }

    /// Gives the turn machine a front end's input; a rejection becomes the daemon's error.
    func apply(_ input: @Sendable (inout TurnMachine<StreamClock>) -> TurnAction) -> Result<TurnSnapshot, ProtocolError> {
        pipeline.withLock { pipeline in
            let wall = WallClock.now()
            let time = pipeline.now
            let action = pipeline.apply(input, emit: { deliver($0, wall: wall) }, work: { perform($0, at: time) })
            if case .rejected(let rejection) = action { return .failure(ProtocolError(rejection)) }
            return .success(pipeline.machine.snapshot)
        }
    }

    private static func turns(replyTimeout: Duration) -> TurnMachine<StreamClock>.Configuration {
        var turns = TurnMachine<StreamClock>.Configuration.standard
        turns.replyTimeout = replyTimeout
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
        case .beginUtterance(let turn, let audio):
            recorder?.beginUtterance(turn: turn, audio: audio)
            transcription?.begin(turn: turn, samples: PCM16.samples(of: audio))
        case .utteranceAudio(let turn, let frame):
            recorder?.utteranceAudio(turn: turn, frame: frame)
            transcription?.append(turn: turn, samples: PCM16.samples(of: frame))
        case .endUtterance(let turn):
            recorder?.endUtterance(turn: turn)
            transcription?.end(turn: turn)
        case .discardUtterance(let turn):
            recorder?.discardUtterance(turn: turn)
            transcription?.discard(turn: turn)
        case .synthesize(let reply, let text):
            recorder?.replyStarted(text: text)
            let voice = voiceForNextReply.withLock { pending in
                defer { pending = nil }
                return pending
            } ?? currentVoice
            player?.speak(reply: reply, text: text, voice: voice, more: replyContinues.withLock { $0 })
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

    /// The reply being prepared or played, if any.
    var pipelineReplyInFlight: Int? { pipeline.withLock { $0.machine.replyInFlight } }

    var snapshot: TurnSnapshot { pipeline.withLock { $0.machine.snapshot } }
    /// Audio time of the latest captured frame, in seconds.
    var audioTime: Double { pipeline.withLock { $0.now } }
    var recentErrors: JSONValue { bookkeeping.withLock { $0.errors.json } }

    /// Reports something from the daemon itself (the sound server, devices).
    func publish(_ event: SocketEvent) {
        if case .error(let error) = event {
            bookkeeping.withLock { $0.errors.record(code: error.code, message: error.message) }
        }
        relay.publish(event)
    }

    private func deliver(_ event: PipelineEvent, wall: Double) {
        switch event {
        case .state(let snapshot, _):
            recorder?.phaseChanged(to: snapshot.phase)
            let previous = bookkeeping.withLock { book in
                defer { book.lastPhase = snapshot.phase }
                return book.lastPhase
            }
            if snapshot.phase != previous {
                logger.info("Voice UI state", metadata: ["state": "\(snapshot.phase.rawValue)", "turn": "\(snapshot.turn)"])
                // The microphone is open only in voice mode.
                if previous == .idle {
                    engine.setCapturing(true)
                    if playsCues { engine.play(Cue.enter) }
                }
                if snapshot.phase == .idle {
                    engine.setCapturing(false)
                    if playsCues { engine.play(Cue.leave) }
                }
            }
        case .error(let code, let message, _, _):
            bookkeeping.withLock { $0.errors.record(code: code, message: message) }
            logger.warning("\(message)", metadata: ["code": "\(code)"])
        case .transcript(let turn, let text, true, _):
            recorder?.finalTranscript(turn: turn, text: text)
        case .speechStarted, .speechEnded, .transcript, .level:
            break
        }
        relay.publish(SocketEvent(event), wall: wall)
    }
}

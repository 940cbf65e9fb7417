import EarshotAudio
import EarshotBase
import EarshotConversation
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
    /// Speech on its way to the wake phrase spotter, a batch at a time (as turn 0).
    private let wakeBatch: CaptureConfined<UtteranceBatch>
    /// Hears the wake phrase while voice mode waits for it.
    let wakeSpotting = WakeSpotting()
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
            emitsUtteranceAudio: recorder != nil,
            preparesEagerly: transcription?.transcriber.decodesSnapshotsAlongside == true,
            wake: configuration.wake?.gate
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
        self.wakeBatch = CaptureConfined(UtteranceBatch(), engine: engine)
        self.relay = relay
        self.engine = engine
        self.logger = logger
    }

    /// Starts the turns before the first frame: the microphone opens now if voice mode starts
    /// on, and stays closed otherwise.
    func begin(wake: WakeSettings?) {
        if wake != nil { loadWakeSpotter(wake) }
        pipeline.withLock { pipeline in
            let wall = WallClock.now()
            pipeline.begin(emit: { deliver($0, wall: wall) }, work: { perform($0, at: 0) })
        }
    }

    /// Runs one captured frame through the pipeline, on the capture thread where it arrived.
    /// Its events are stamped with the wall-clock time the first of them was made, microseconds
    /// after the frame arrived: a frame that makes none for a client reads no clock.
    func process(_ frame: AudioFrame) {
        pipeline.withLock { pipeline in
            let time = Double(frame.index + 1) * AudioFrame.duration
            // Captured by closures passed straight to non-escaping parameters: no box, no allocation.
            var capturedAt: Double?
            pipeline.levelsWanted = relay.hasSubscribers
            pipeline.process(frame, emit: { event in
                if let wall = stamp(event, firstOfFrame: &capturedAt) { deliver(event, wall: wall) }
            }, work: { perform($0, at: time) })
            if let played = tap.nextFrame(index: frame.index) {
                pipeline.played(played) { event in
                    if let wall = stamp(event, firstOfFrame: &capturedAt) { deliver(event, wall: wall) }
                }
            }
        }
    }

    /// The wall-clock stamp of `event`, read when the frame's first event is made; nil for a
    /// level reading nobody is subscribed to (sixty a second), which is not made into an event.
    private func stamp(_ event: PipelineEvent, firstOfFrame capturedAt: inout Double?) -> Double? {
        if case .level = event, !relay.hasSubscribers { return nil }
        if let capturedAt { return capturedAt }
        let now = WallClock.now()
        capturedAt = now
        return now
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
            return .success(pipeline.snapshot)
        }
    }

    /// `talk`: one turn asked for by key, which also stands in for the wake phrase.
    func talk() -> Result<TurnSnapshot, ProtocolError> {
        pipeline.withLock { pipeline in
            let wall = WallClock.now()
            let time = pipeline.now
            let action = pipeline.talk(emit: { deliver($0, wall: wall) }, work: { perform($0, at: time) })
            if case .rejected(let rejection) = action { return .failure(ProtocolError(rejection)) }
            return .success(pipeline.snapshot)
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
            case .partial(let turn, let text, let sentenceEnd, let coveredSamples, let wordsEndSamples):
                pipeline.transcript(
                    turn: turn, text: text, final: false, sentenceEnd: sentenceEnd, coveredSamples: coveredSamples,
                    wordsEndSamples: wordsEndSamples, emit: emit, work: perform
                )
            case .final(let turn, let text):
                pipeline.transcript(turn: turn, text: text, final: true, emit: emit, work: perform)
            case .failed(let turn, let message, let retryIn):
                pipeline.transcriptionFailed(turn: turn, message: message, retryIn: retryIn, emit: emit, work: perform)
            case .dropped(_, let message):
                self.report(.transcriptDropped, message: message, time: pipeline.now, wall: wall)
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
            utteranceBatch.withLock { $0.begin(turn: turn) }
        case .utteranceAudio(let turn, let frame):
            utteranceBatch.withLock { batch in
                if batch.add(frame, turn: turn) { handOn(&batch) }
            }
        case .utterancePaused:
            utteranceBatch.withLock { handOn(&$0) }
        case .effect(let effect):
            perform(effect, at: time)
        case .beginWakeAudio, .endWakeAudio:
            // What is left of the stretch before goes first; the spotter takes the work in order.
            wakeBatch.withLock { batch in
                handOnWakeAudio(&batch)
                batch.begin(turn: 0)
            }
            wakeSpotting.perform(work, heard: { [self] in wakePhraseHeard(atFrame: $0) }, failed: { [self] in wakeSpotterFailed($0) })
        case .wakeAudio(let frame):
            wakeBatch.withLock { batch in
                if batch.add(frame, turn: 0) { handOnWakeAudio(&batch) }
            }
        case .wakeCue:
            // Whatever `cues` says: nothing else tells the person they were heard.
            engine.play(Cue.wake)
        }
    }

    private func handOnWakeAudio(_ batch: inout UtteranceBatch) {
        batch.handOn { _, frames in
            wakeSpotting.feed(frames, heard: { [self] in wakePhraseHeard(atFrame: $0) }, failed: { [self] in wakeSpotterFailed($0) })
        }
    }

    /// The spotter heard the wake phrase in the audio ending with frame `index`.
    private func wakePhraseHeard(atFrame index: Int) {
        pipeline.withLock { pipeline in
            let wall = WallClock.now()
            let time = pipeline.now
            pipeline.wakePhraseHeard(atFrame: index, emit: { deliver($0, wall: wall) }, work: { perform($0, at: time) })
        }
    }

    private func wakeSpotterFailed(_ error: SpeechError) {
        reportError(.speechFailed, message: "The wake phrase cannot be heard: \(error.message)")
    }

    /// Loads the spotter for `wake` (nil: none) on its queue; a failure is reported.
    private func loadWakeSpotter(_ wake: WakeSettings?) {
        wakeSpotting.load(wake, failed: { [self] in wakeSpotterFailed($0) })
    }

    /// Waits for `wake`'s phrase from now on (nil: takes every utterance), with a new spotter.
    func reconfigureWake(_ wake: WakeSettings?) {
        loadWakeSpotter(wake)
        pipeline.withLock { pipeline in
            let wall = WallClock.now()
            let time = pipeline.now
            pipeline.reconfigureWake(wake?.gate, emit: { deliver($0, wall: wall) }, work: { perform($0, at: time) })
        }
    }

    /// Carries out one of the turn machine's effects.
    private func perform(_ effect: TurnEffect, at time: Double) {
        switch effect {
        case .openMicrophone:
            engine.setMicrophone(.open)
        case .closeMicrophone:
            engine.setMicrophone(.closed)
        case .silenceMicrophone:
            engine.setMicrophone(.silenced)
        case .playCue(let cue):
            engine.play(cue == .voiceModeOn ? Cue.enter : Cue.leave)
        case .endUtterance(let turn):
            utteranceBatch.withLock { handOn(&$0) }
            recorder?.endUtterance(turn: turn)
            transcription?.end(turn: turn)
        case .discardUtterance(let turn):
            utteranceBatch.withLock { $0.begin(turn: nil) }
            recorder?.discardUtterance(turn: turn)
            transcription?.discard(turn: turn)
        case .finalizeTranscript(let turn):
            utteranceBatch.withLock { handOn(&$0) }
            transcription?.finalize(turn: turn)
        case .continueUtterance(let dropped, let turn):
            // What was gathered belongs to the dropped turn's audio; what follows, to the new turn's.
            utteranceBatch.withLock { handOn(&$0) }
            recorder?.continueUtterance(from: dropped, turn: turn)
            transcription?.continueUtterance(from: dropped, turn: turn)
            responder?.withdraw(turn: dropped)
        case .rejoinUtterance(let earlier, let turn):
            transcription?.rejoin(from: earlier, turn: turn)
            responder?.withdraw(turn: earlier)
        case .preview(let text, let voice):
            say(reply: TurnMachine<StreamClock>.previewReply, text: text, voice: voice, more: false)
        case .synthesize(let reply, let text, let voice, let continues):
            recorder?.replyStarted(text: text)
            say(reply: reply, text: text, voice: voice, more: continues)
        case .prepareSpeech(let reply, let text, let voice, let continues):
            recorder?.replyPrepared(reply: reply, text: text)
            say(reply: reply, text: text, voice: voice, more: continues, held: true)
        case .releasePlayback(let reply):
            recorder?.replyReleased(reply: reply)
            player?.release(reply: reply)
        case .continueSpeech(let reply, let text, let continues):
            player?.continueText(reply: reply, text: text, more: continues)
        case .stopPlayback(let reply):
            player?.stop(reply: reply)
        case .pausePlayback:
            engine.pausePlayback(true)
            tap.setPaused(true)
        case .resumePlayback:
            engine.pausePlayback(false)
            tap.setPaused(false)
        case .requestReply(let turn, let transcript):
            recorder?.replyRequested(turn: turn)
            // Without a responder command, a front end answers with `speak`.
            responder?.answer(turn: turn, transcript: transcript, session: self)
        case .discardReply(let turn):
            responder?.cancel(turn: turn)
        case .announceSpeech, .beginUtterance, .beginHeldUtterance, .endHeldUtterance, .reportError:
            // The pipeline's own: told as events, or handed out with the utterance's audio.
            break
        }
        if let event = SpeakerEvent(effect, time: time) { publish(.speaker(event)) }
    }

    /// Hands `text` to the player in the voice `id` names (nil: the current voice). A voice
    /// that does not exist is not stood in for by another: the reply fails, saying so.
    private func say(reply: Int, text: String, voice id: String?, more: Bool, held: Bool = false) {
        guard let player else { return }
        switch voices.replyVoice(id, current: currentVoice) {
        case .success(let voice):
            player.speak(reply: reply, text: text, voice: voice, more: more, held: held)
        case .failure(let error):
            player.refuse(reply: reply, code: .unknownVoice, message: error.message)
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

    /// Tells front ends about a failure outside the turn machine, at the current audio time.
    func reportError(_ code: ProtocolError.Code, message: String) {
        pipeline.withLock { pipeline in
            report(code, message: message, time: pipeline.now, wall: WallClock.now())
        }
    }

    /// Logs a failure outside the turn machine, keeps it for `status` and sends it; called
    /// inside the pipeline's lock, so it goes out in order with the pipeline's events.
    private func report(_ code: ProtocolError.Code, message: String, time: Double, wall: Double) {
        errors.withLock { $0.record(code: code.rawValue, message: message) }
        logger.warning("\(message)", metadata: ["code": "\(code.rawValue)"])
        relay.publish(.error(ErrorEvent(code: code, message: message, time: time)), wall: wall)
    }

    var snapshot: TurnSnapshot { pipeline.withLock { $0.snapshot } }
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
        case .error(let error, let message, _, _):
            let code = ProtocolError.Code(error).rawValue
            errors.withLock { $0.record(code: code, message: message) }
            logger.warning("\(message)", metadata: ["code": "\(code)"])
        case .transcript(let turn, let text, true, _):
            recorder?.finalTranscript(turn: turn, text: text)
        case .wake(let phrase, let time):
            logger.info("Wake phrase heard", metadata: ["phrase": "\(phrase)", "t": "\(time)"])
        case .speechStarted, .speechEnded, .speechEagerEnd, .speechResumed, .transcript, .level:
            break
        }
        relay.publish(SocketEvent(event), wall: wall)
    }
}

// MARK: Replies and voices

extension VoiceSession {
    /// Gives the turn machine what the speech player reported (it ignores a preview's).
    func handle(_ report: PlaybackReport) {
        if let event = SpeakerEvent(report, time: audioTime) { publish(.speaker(event)) }
        switch report {
        case .saying, .stopped:
            break
        case .heard(let reply, let text):
            responder?.replyEnded(reply, heard: text)
        case .started(let reply):
            _ = apply { $0.playbackStarted(reply: reply) }
        case .finished(let reply):
            _ = apply { $0.playbackFinished(reply: reply) }
        case .failed(let reply, let code, let message):
            reportError(code, message: message)
            _ = apply { $0.playbackFinished(reply: reply) }
        }
    }

    /// Starts the reply to `turn` with the responder's first piece, more to follow; returns the
    /// reply's number, or nil when the turn no longer wants one. A reply to a turn that may not be
    /// over yet is held unheard, and takes the rest of its text all the same.
    func startStreamedReply(turn: Int, text: String) -> Int? {
        let action = applyForAction { $0.replyRequested(turn: turn, text: text, continues: true) }
        for effect in action.effects {
            switch effect {
            case .synthesize(let reply, _, _, _), .prepareSpeech(let reply, _, _, _): return reply
            default: continue
            }
        }
        return nil
    }

    /// Gives the machine the responder's next piece of `reply` (the last one without `more`);
    /// false once the reply no longer takes any (stopped, interrupted or ended).
    func continueStreamedReply(_ reply: Int, text: String, more: Bool) -> Bool {
        !applyForAction { $0.replyContinued(reply: reply, text: text, continues: more) }.effects.isEmpty
    }

    /// The responder had nothing to say to `turn`: back to listening.
    func declineReply(turn: Int) {
        _ = apply { $0.replyRequested(turn: turn, text: "") }
    }

    /// Finds a voice by id or display name, or says which exist.
    func voice(named name: String) -> Result<Voice, ProtocolError> {
        voices.voice(called: name)
    }

    /// Says `text` through the turn machine (as a reply, or unprompted), in `voice` if given.
    func speak(_ text: String, voice: Voice?, turn: Int?) -> Result<TurnSnapshot, ProtocolError> {
        guard player != nil else {
            return .failure(ProtocolError(code: .speechOff, message: "Speech is off: start earshotd with --tts embedded or a Wyoming server."))
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

extension VoiceCatalog {
    /// The voice `name` (an id or display name) names, or the `unknown_voice` refusal naming
    /// the voices there are.
    func voice(called name: String) -> Result<Voice, ProtocolError> {
        if let voice = voice(named: name) { return .success(voice) }
        let known = voices.map(\.id).joined(separator: ", ")
        return .failure(ProtocolError(code: .unknownVoice, message: "There is no voice called \"\(name)\". Voices: \(known)."))
    }

    /// The voice a reply is said in: the one `id` names, `current` when it names none. A voice
    /// that does not exist is refused, never stood in for.
    func replyVoice(_ id: String?, current: Voice) -> Result<Voice, ProtocolError> {
        id.map(voice(called:)) ?? .success(current)
    }
}

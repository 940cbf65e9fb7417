public import EarshotTurns

/// The listening pipeline: each 10 ms frame goes through the level meter, the voice-activity
/// detector, the endpointer and the turn machine, and comes out as events.
///
/// Replay and live capture feed it the same way, so both give the same events for the same audio.
/// Time is audio time: the machine's timeouts run on a ``StreamClock`` advanced frame by frame.
public struct VoicePipeline<Detector: VoiceActivityDetector> {
    public internal(set) var configuration: Configuration
    public private(set) var machine: TurnMachine<StreamClock> {
        // Any change may move the next deadline or end a suspected barge-in. Kept here, a frame
        // learns that nothing is due, and that its speech is not wanted, without a call into the
        // machine's generic code, unspecialized across modules.
        didSet {
            machineDeadline = machine.nextDeadline
            machineAwaitsSpeech = machine.awaitsSpeech
        }
    }
    /// `machine.nextDeadline`, as of the machine's last change.
    private var machineDeadline: StreamClock.Instant?
    /// `machine.awaitsSpeech`, as of the machine's last change: only then does a frame of speech go to it.
    private var machineAwaitsSpeech = false
    private var detector: Detector
    var endpointer: Endpointer
    private var meter: LevelMeter
    private var speakerMeter: LevelMeter
    /// Whether anyone takes level readings now (with `emitsLevels`): while nobody does, the
    /// meters rest, a twentieth of what listening costs, and take up again where they were.
    public var levelsWanted = true
    /// Tells the person's voice from the assistant's own, heard back through the microphone.
    private var echoGate = EchoGate()
    /// Frames since the speaker last played something: the gate runs only while it matters.
    private var framesSincePlayback = Int.max / 2
    /// Whether the speaker reported its 10 ms alongside the latest microphone frame. A paused
    /// or finished reply reports nothing; the gate is then fed silence, so that its two streams
    /// keep the same pace and the delay it locked onto still holds when the reply resumes.
    private var playedAlongsideLatestFrame = true
    private let silentFrame = AudioFrame.silence(index: 0)
    /// The pitch of what the speaker played: voicing at that pitch is the echo's, not the person's.
    private var echoPitch = EchoPitchTrack()
    /// Which of the latest frames the gate judged to be only the assistant's echo.
    private var echoFrames = [Bool](repeating: false, count: 8)
    /// A `speech` start went out without its end yet.
    private var speechOpen = false
    /// The onset and audio start of the latest speech the endpointer confirmed, for the `speech`
    /// `start` event the machine asks for (`announceSpeech`): over a reply, only once the
    /// interruption is confirmed (a cough, an "mm", or what remains of the reply's own sound in
    /// the room resumes the reply without a trace).
    private var heardSpeech = (onset: 0.0, audioStart: 0.0)
    private let clock: StreamClock
    var lastFrameIndex = -1
    private var started = false
    var history: FrameHistory
    /// The turn whose utterance audio is being handed out, frame by frame.
    private var recordingTurn: Int?
    private var recordingBeganAt = -1
    /// The frame the audio handed out for the current utterance starts at.
    private var recordingAudioStart = 0
    /// The latest partial transcript reported of the current utterance: a transcriber repeats
    /// it as it takes more audio, to say how far it has heard, and it goes out only once.
    private var latestPartial: String?
    /// The detector's latest verdict was speech.
    private var latestActivityWasSpeech = false
    /// Where the next utterance's audio starts: the latest onset less the prefix padding.
    private var nextUtteranceStart = 0
    /// Waits for the wake phrase before it takes turns; nil: every utterance is a turn.
    var wake: WakeGate?
    /// The frame the speech handed to the phrase spotter began to go out at; nil between stretches.
    var wakeAudioBeganAt: Int?
    /// Frames since the detector last called a frame speech, while the spotter takes audio.
    var framesSinceWakeSpeech = 0
    /// No utterance's audio starts before this frame: the wake phrase is not part of the request.
    var utteranceFloor = 0

    public init(detector: Detector, configuration: Configuration = .init()) {
        self.configuration = configuration
        self.detector = detector
        self.endpointer = Endpointer(configuration: configuration.endpointer)
        self.meter = LevelMeter(configuration: configuration.levelMeter)
        self.speakerMeter = LevelMeter(configuration: configuration.levelMeter)
        self.clock = StreamClock()
        self.machine = TurnMachine(clock: clock, configuration: configuration.turns)
        self.wake = configuration.wake.map(WakeGate.init(configuration:))
        let interruptionFrames = Int(configuration.turns.minimumInterruption / .milliseconds(10)) + 1
        self.history = FrameHistory(
            capacity: configuration.endpointer.historyFrames(lookaheadFrames: detector.lookaheadFrames) + interruptionFrames
        )
        machineDeadline = machine.nextDeadline
        machineAwaitsSpeech = machine.awaitsSpeech
    }

    /// How long after the speaker falls silent its echo may still be heard (reverberation and
    /// the sound server's latency), in frames.
    static var echoTailFrames: Int { 100 }

    /// Takes new endpointer timing and turn timeouts, and lets `updateDetector` change the
    /// detector's settings, between two frames: what is under way carries on under the new
    /// values (an utterance in progress ends after the new end-of-turn silence).
    public mutating func reconfigure(
        endpointer: Endpointer.Configuration, turns: TurnMachine<StreamClock>.Configuration,
        updateDetector: (inout Detector) -> Void = { _ in }
    ) {
        configuration.endpointer = endpointer
        configuration.turns = turns
        self.endpointer.reconfigure(endpointer)
        machine.reconfigure(turns)
        updateDetector(&detector)
        let interruptionFrames = Int(turns.minimumInterruption / .milliseconds(10)) + 1
        history.grow(toCapacity: endpointer.historyFrames(lookaheadFrames: detector.lookaheadFrames) + interruptionFrames)
    }

    /// Frames of history a caller must keep so an utterance's audio, from its prefix padding on,
    /// is still at hand when `speechStarted` is emitted.
    public var historyFrames: Int {
        configuration.endpointer.historyFrames(lookaheadFrames: detector.lookaheadFrames)
    }

    /// Feeds the next frame (indices must increase by one, starting at 0). Events go to `emit`
    /// and the work they ask of the speech backends and the player to `work`.
    public mutating func process(
        _ frame: borrowing AudioFrame, emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void = { _ in }
    ) {
        if !started { begin(emit: emit, work: work) }
        clock.advance(toEndOfFrame: frame.index)
        lastFrameIndex = frame.index
        history.append(frame)
        if configuration.emitsLevels, levelsWanted, let reading = meter.process(frame) {
            emit(.level(.mic, reading))
        }
        framesSincePlayback += 1
        var heardSpeechNow = false
        var paused = false
        var echo = false
        if framesSincePlayback <= Self.echoTailFrames {
            if !playedAlongsideLatestFrame {
                echoGate.played(silentFrame)
                echoPitch.played(silentFrame, alongside: frame.index - 1)
            }
            echo = echoGate.captured(frame) == .echo
        }
        playedAlongsideLatestFrame = false
        echoFrames[frame.index % echoFrames.count] = echo
        if var activity = detector.process(frame) {
            // The assistant's own voice is never the person speaking (no barge-in on itself).
            if activity.isSpeech, echoFrames[activity.frameIndex % echoFrames.count] { activity.isSpeech = false }
            // A cough over the reply lets the echo's pitch through with it: that voicing is not the person's.
            if framesSincePlayback <= Self.echoTailFrames + detector.lookaheadFrames, let cues = activity.cues,
               echoPitch.matches(cues, frameIndex: activity.frameIndex, delayFrames: echoGate.delayFrames) {
                activity.cues?.periodicity = 0
            }
            if let boundary = endpointer.process(activity) { handle(boundary, emit: emit, work: work) }
            if activity.isSpeech, machineAwaitsSpeech { perform(machine.speechHeard(), emit: emit, work: work) }
            heardSpeechNow = activity.isSpeech
            paused = latestActivityWasSpeech && !activity.isSpeech && endpointer.isInUtterance
            latestActivityWasSpeech = activity.isSpeech
        }
        if let deadline = machineDeadline, clock.now >= deadline { perform(machine.tick(), emit: emit, work: work) }
        if wake != nil { wakeFrame(frame, speech: heardSpeechNow, emit: emit, work: work) }
        if handsOutUtteranceAudio, let turn = recordingTurn, recordingBeganAt != frame.index {
            work(.utteranceAudio(turn: turn, frame: copy frame))
            if paused, configuration.transcribes { work(.utterancePaused(turn: turn)) }
        }
    }

    /// Reports the 10 ms the speaker is playing alongside the latest microphone frame: its
    /// level animates the blob while the assistant speaks.
    public mutating func played(_ frame: borrowing AudioFrame, emit: (PipelineEvent) -> Void) {
        echoGate.played(frame)
        echoPitch.played(frame, alongside: lastFrameIndex)
        playedAlongsideLatestFrame = true
        framesSincePlayback = 0
        if configuration.emitsLevels, levelsWanted, let reading = speakerMeter.process(frame) {
            emit(.level(.speaker, reading))
        }
    }

    /// Ends the stream: the detector's look-ahead is drained and an open utterance is closed.
    public mutating func finish(emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void = { _ in }) {
        if !started { begin(emit: emit, work: work) }
        for activity in detector.finish(after: lastFrameIndex) {
            if let boundary = endpointer.process(activity) { handle(boundary, emit: emit, work: work) }
            if activity.isSpeech, machineAwaitsSpeech { perform(machine.speechHeard(), emit: emit, work: work) }
        }
        if let boundary = endpointer.finish() { handle(boundary, emit: emit, work: work) }
        perform(machine.tick(), emit: emit, work: work)
    }

    /// Applies an input from outside the audio (a front end's command, a player's report) and
    /// emits what follows.
    public mutating func apply(
        _ input: (inout TurnMachine<StreamClock>) -> TurnAction,
        emit: (PipelineEvent) -> Void,
        work: (SpeechWork) -> Void = { _ in }
    ) -> TurnAction {
        if !started { begin(emit: emit, work: work) }
        let action = input(&machine)
        perform(action, emit: emit, work: work)
        return action
    }

    /// Reports what the transcriber heard of `turn`. A partial transcript of the utterance under
    /// way tells the endpointer the words so far (and how likely a sentence is to end after them,
    /// from a recogniser with a language model, and how many samples of the utterance's audio
    /// they account for and where their last word ends, where the transcriber says); a final one
    /// moves the turn on (or is only shown, if the turn was already abandoned).
    public mutating func transcript(
        turn: Int, text: String, final: Bool, sentenceEnd: Double? = nil, coveredSamples: Int? = nil,
        wordsEndSamples: Int? = nil, emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void = { _ in }
    ) {
        if !started { begin(emit: emit, work: work) }
        if !final, turn == recordingTurn {
            let throughFrame = coveredSamples.map { recordingAudioStart + $0 / AudioFrame.sampleCount - 1 }
            let wordsEndFrame = wordsEndSamples.map { recordingAudioStart + ($0 + AudioFrame.sampleCount - 1) / AudioFrame.sampleCount }
            endpointer.heard(text, sentenceEnd: sentenceEnd, throughFrame: throughFrame, wordsEndFrame: wordsEndFrame)
        }
        // A final while the utterance still records: an eager end's, of the words to the pause.
        if final, turn == recordingTurn { endpointer.heardToPause(text) }
        if !final {
            guard text != latestPartial else { return }
            latestPartial = text
        }
        emit(.transcript(turn: turn, text: text, final: final, time: now))
        if final { perform(machine.finalTranscript(turn: turn, text: text), emit: emit, work: work) }
    }

    /// Reports that the transcriber could not take `turn` (`message` in words, `retryIn` when
    /// it is tried again). The audio stays with the caller, who retries.
    public mutating func transcriptionFailed(
        turn: Int, message: String, retryIn: Double?, emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void = { _ in }
    ) {
        if !started { begin(emit: emit, work: work) }
        emit(.error(.transcriberUnavailable(turn: turn), message: message, retryIn: retryIn, time: now))
        perform(machine.transcriptionFailed(turn: turn), emit: emit, work: work)
    }

    /// Starts the stream: the first state goes out and, with `startsListening`, voice mode
    /// starts. The first frame or input does it otherwise; a live owner calls it up front, so
    /// the microphone opens (or stays closed) before any frame is captured.
    public mutating func begin(emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void = { _ in }) {
        guard !started else { return }
        started = true
        emit(.state(snapshot, time: 0))
        if configuration.startsListening { perform(machine.start(), emit: emit, work: work) }
    }

    /// Whether utterances' audio goes out as ``SpeechWork``: to a transcriber, a recorder, or both.
    private var handsOutUtteranceAudio: Bool { configuration.transcribes || configuration.emitsUtteranceAudio }

    /// Audio time at the end of the latest frame, in seconds.
    public var now: Double { Double(lastFrameIndex + 1) * AudioFrame.duration }

    /// Starts handing out `turn`'s utterance audio: `audio` (the frames up to the latest), then
    /// each frame as it comes.
    private mutating func beginRecording(turn: Int, audio: [AudioFrame], work: (SpeechWork) -> Void) {
        recordingTurn = turn
        recordingBeganAt = lastFrameIndex
        recordingAudioStart = lastFrameIndex + 1 - audio.count
        latestPartial = nil
        if handsOutUtteranceAudio { work(.beginUtterance(turn: turn, audio: audio)) }
    }

    private mutating func handle(_ boundary: Endpointer.Event, emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void) {
        if waitsForWakePhrase {
            handleWhileWaiting(boundary, work: work)
            return
        }
        switch boundary {
        case .onsetSuspected(let onsetFrame):
            nextUtteranceStart = max(utteranceFloor, onsetFrame - configuration.endpointer.prefixPaddingFrames)
            perform(machine.onsetSuspected(), emit: emit, work: work)
        case .onsetRejected:
            perform(machine.onsetRejected(), emit: emit, work: work)
        case .speechStarted(let onsetFrame, let audioStartFrame):
            nextUtteranceStart = max(utteranceFloor, audioStartFrame)
            heardSpeech = (Double(onsetFrame) * AudioFrame.duration, Double(nextUtteranceStart) * AudioFrame.duration)
            perform(machine.utteranceStarted(), emit: emit, work: work)
        case .speechEnded(_, let endFrame, let reason):
            // A held turn's speech ends at the release, whatever pauses the detector hears in it.
            if speechOpen, !machine.isKeyHeld {
                speechOpen = false
                emit(.speechEnded(turn: machine.snapshot.turn, reason: reason, time: Double(endFrame) * AudioFrame.duration))
            }
            perform(machine.utteranceEnded(), emit: emit, work: work)
        case .eagerEnd(_, let endFrame):
            guard speechOpen, !machine.isKeyHeld else { return }
            emit(.speechEagerEnd(turn: machine.snapshot.turn, time: Double(endFrame) * AudioFrame.duration))
            if configuration.preparesEagerly { perform(machine.utteranceMayHaveEnded(), emit: emit, work: work) }
        case .speechResumed(_, let frame):
            guard speechOpen, !machine.isKeyHeld else { return }
            emit(.speechResumed(turn: machine.snapshot.turn, time: Double(frame) * AudioFrame.duration))
            if configuration.preparesEagerly { perform(machine.utteranceResumed(), emit: emit, work: work) }
        }
    }

    /// The machine took a suspected interruption for a false alarm: what the endpointer began of
    /// it is dropped, and speech already reported is ended.
    private mutating func abandonInterruption(emit: (PipelineEvent) -> Void) {
        endpointer.reset()
        guard speechOpen else { return }
        speechOpen = false
        let silence = Double(configuration.turns.falseInterruptionSilence / .milliseconds(1)) / 1000
        emit(.speechEnded(turn: machine.snapshot.turn, reason: .falseInterruption, time: now - silence))
    }

    /// A held turn's speech starts at the hold and ends at the release (or the longest
    /// utterance), told before the phase change it causes, as the detector's are.
    private mutating func announceHold(_ effects: [TurnEffect], emit: (PipelineEvent) -> Void) {
        for effect in effects {
            switch effect {
            case .beginHeldUtterance(let turn):
                speechOpen = true
                emit(.speechStarted(turn: turn, audioStart: now, time: now))
            case .endHeldUtterance(let turn, let end):
                speechOpen = false
                emit(.speechEnded(turn: turn, reason: end == .released ? .released : .holdLimit, time: now))
            default:
                continue
            }
        }
    }

    private mutating func perform(_ action: TurnAction, emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void) {
        guard case .transition(let transition) = action else { return }
        // The speech event goes out before the phase change it causes.
        if transition.effects.contains(.announceSpeech) {
            speechOpen = true
            emit(.speechStarted(turn: transition.to.turn, audioStart: heardSpeech.audioStart, time: heardSpeech.onset))
        }
        announceHold(transition.effects, emit: emit)
        if transition.to.phase == .idle, wake != nil {
            _ = wake?.voiceModeChanged()
            endWakeAudio(work: work)
        } else if transition.to.phase == .speaking || transition.to.phase == .hearing {
            if transition.to.phase == .speaking, transition.from.phase != .speaking { endpointer.turnAnswered() }
            // A reply or message said, or a turn held open by key: the person answers, or goes
            // on, without the wake phrase.
            _ = openWake(emit: emit, work: work)
        }
        if transition.from != transition.to { emit(.state(withWake(transition.to), time: now)) }
        for effect in transition.effects {
            switch effect {
            case .announceSpeech, .endHeldUtterance:
                break
            case .beginHeldUtterance(let turn):
                beginRecording(turn: turn, audio: [], work: work)
            case .beginUtterance(let turn):
                beginRecording(turn: turn, audio: history.frames(from: nextUtteranceStart), work: work)
            case .endUtterance(let turn):
                recordingTurn = nil
                if handsOutUtteranceAudio { work(.effect(effect)) }
                if !configuration.transcribes {
                    // No transcriber: an utterance yields an empty transcript, back to listening.
                    perform(machine.finalTranscript(turn: turn, text: ""), emit: emit, work: work)
                }
            case .discardUtterance:
                recordingTurn = nil
                if handsOutUtteranceAudio { work(.effect(effect)) }
            case .finalizeTranscript(let turn):
                // The audio keeps coming: the utterance may go on.
                if handsOutUtteranceAudio { work(.effect(effect)) }
                if !configuration.transcribes { perform(machine.finalTranscript(turn: turn, text: ""), emit: emit, work: work) }
            case .continueUtterance(_, let turn):
                recordingTurn = turn
                if handsOutUtteranceAudio { work(.effect(effect)) }
            case .rejoinUtterance(let earlier, _):
                // Before the new turn's audio is handed out: it is transcribed after the earlier one's.
                emit(.speechResumed(turn: earlier, time: now))
                if handsOutUtteranceAudio { work(.effect(effect)) }
            case .reportError(let error):
                emit(.error(error, message: error.description, time: now))
            case .resumePlayback:
                abandonInterruption(emit: emit)
                work(.effect(effect))
            case .openMicrophone, .closeMicrophone, .silenceMicrophone, .playCue, .preview, .requestReply, .discardReply,
                .synthesize, .continueSpeech, .pausePlayback, .stopPlayback, .prepareSpeech, .releasePlayback:
                work(.effect(effect))
            }
        }
    }
}

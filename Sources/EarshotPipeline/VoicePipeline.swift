public import EarshotAudio
public import EarshotDetection
public import EarshotTurns

/// The listening pipeline: each 10 ms frame goes through the level meter, the voice-activity
/// detector, the endpointer and the turn machine, and comes out as events.
///
/// Replay and live capture feed it the same way, so both give the same events for the same audio.
/// Time is audio time: the machine's timeouts run on a ``StreamClock`` advanced frame by frame.
public struct VoicePipeline<Detector: VoiceActivityDetector> {
    public let configuration: Configuration
    public private(set) var machine: TurnMachine<StreamClock>
    private var detector: Detector
    private var endpointer: Endpointer
    private var meter: LevelMeter
    private let clock: StreamClock
    private var lastFrameIndex = -1
    private var started = false

    public init(detector: Detector, configuration: Configuration = .init()) {
        self.configuration = configuration
        self.detector = detector
        self.endpointer = Endpointer(configuration: configuration.endpointer)
        self.meter = LevelMeter(configuration: configuration.levelMeter)
        self.clock = StreamClock()
        self.machine = TurnMachine(clock: clock, configuration: configuration.turns)
    }

    /// Frames of history a caller must keep so an utterance's audio, from its prefix padding on,
    /// is still at hand when `speechStarted` is emitted.
    public var historyFrames: Int {
        configuration.endpointer.historyFrames(lookaheadFrames: detector.lookaheadFrames)
    }

    /// Feeds the next frame (indices must increase by one, starting at 0).
    public mutating func process(_ frame: borrowing AudioFrame, emit: (PipelineEvent) -> Void) {
        if !started { begin(emit: emit) }
        clock.advance(toEndOfFrame: frame.index)
        lastFrameIndex = frame.index
        if configuration.emitsLevels, let reading = meter.process(frame) {
            emit(.level(.mic, reading))
        }
        if let activity = detector.process(frame), let boundary = endpointer.process(activity) {
            handle(boundary, emit: emit)
        }
        perform(machine.tick(), emit: emit)
    }

    /// Ends the stream: the detector's look-ahead is drained and an open utterance is closed.
    public mutating func finish(emit: (PipelineEvent) -> Void) {
        if !started { begin(emit: emit) }
        for activity in detector.finish(after: lastFrameIndex) {
            if let boundary = endpointer.process(activity) { handle(boundary, emit: emit) }
        }
        if let boundary = endpointer.finish() { handle(boundary, emit: emit) }
        perform(machine.tick(), emit: emit)
    }

    /// Applies an input from outside the audio (a front end's command) and emits what follows.
    public mutating func apply(_ input: (inout TurnMachine<StreamClock>) -> TurnAction, emit: (PipelineEvent) -> Void) -> TurnAction {
        if !started { begin(emit: emit) }
        let action = input(&machine)
        perform(action, emit: emit)
        return action
    }

    private mutating func begin(emit: (PipelineEvent) -> Void) {
        started = true
        emit(.state(machine.snapshot, time: 0))
        if configuration.startsListening { perform(machine.start(), emit: emit) }
    }

    /// Audio time at the end of the latest frame, in seconds.
    public var now: Double { Double(lastFrameIndex + 1) * AudioFrame.duration }

    private mutating func handle(_ boundary: Endpointer.Event, emit: (PipelineEvent) -> Void) {
        switch boundary {
        case .onsetSuspected:
            // Only a reply being spoken cares about speech before it is confirmed: it ducks.
            if machine.snapshot.phase == .speaking { perform(machine.utteranceStarted(), emit: emit) }
        case .onsetRejected:
            if machine.snapshot.phase == .speaking { perform(machine.utteranceEnded(), emit: emit) }
        case .speechStarted(let onsetFrame, let audioStartFrame):
            // While speaking, the suspected onset already went to the machine (barge-in).
            let action = machine.snapshot.phase == .speaking ? TurnAction.none : machine.utteranceStarted()
            // The speech event goes out before the phase change it causes.
            emit(.speechStarted(
                turn: machine.snapshot.turn,
                audioStart: Double(audioStartFrame) * AudioFrame.duration,
                time: Double(onsetFrame) * AudioFrame.duration
            ))
            perform(action, emit: emit)
        case .speechEnded(_, let endFrame):
            emit(.speechEnded(turn: machine.snapshot.turn, time: Double(endFrame) * AudioFrame.duration))
            perform(machine.utteranceEnded(), emit: emit)
        }
    }

    private mutating func perform(_ action: TurnAction, emit: (PipelineEvent) -> Void) {
        guard case .transition(let transition) = action else { return }
        if transition.from != transition.to { emit(.state(transition.to, time: now)) }
        for effect in transition.effects {
            switch effect {
            case .endUtterance(let turn):
                // No transcriber is attached yet: an utterance yields an empty transcript,
                // which returns the machine to listening.
                perform(machine.finalTranscript(turn: turn, text: ""), emit: emit)
            case .reportError(let error):
                emit(.error(code: error.code, message: error.description, time: now))
            case .openMicrophone, .closeMicrophone, .beginUtterance, .discardUtterance, .requestReply,
                .discardReply, .synthesize, .duckPlayback, .resumePlayback, .stopPlayback:
                break
            }
        }
    }
}

/// What the caller must do after giving the machine an input.
public enum TurnAction: Equatable, Hashable, Sendable {
    /// Nothing happened (for example a `tick()` with no deadline due).
    case none
    /// The input was stale or redundant and changed nothing; not an error.
    case ignored(TurnIgnoreReason)
    /// The input made no sense in this state and changed nothing; report it to whoever sent it.
    case rejected(TurnRejection)
    /// The input was accepted.
    case transition(TurnTransition)

    /// The effects to perform; empty unless this is a transition.
    public var effects: [TurnEffect] {
        if case .transition(let transition) = self { transition.effects } else { [] }
    }
}

/// An accepted input: the snapshot before and after, and what the caller must do.
public struct TurnTransition: Equatable, Hashable, Sendable {
    /// The snapshot before the input.
    public var from: TurnSnapshot
    /// The snapshot after the input; push it to front ends when it differs from `from`.
    public var to: TurnSnapshot
    /// The effects to perform, in order.
    public var effects: [TurnEffect]

    public init(from: TurnSnapshot, to: TurnSnapshot, effects: [TurnEffect]) {
        self.from = from
        self.to = to
        self.effects = effects
    }
}

/// One thing the caller must do, in the order given, after an input was accepted.
///
/// Turns and replies are numbered by the machine; the caller echoes them back in
/// `finalTranscript(turn:text:)`, `replyRequested(turn:text:)` and the playback inputs
/// so late events from an abandoned turn are recognised as stale.
public enum TurnEffect: Equatable, Hashable, Sendable {
    /// Start capturing audio for voice activity detection (voice mode starts, or is unmuted).
    case openMicrophone
    /// Stop capturing audio: voice mode is off, and the clock may stand still.
    case closeMicrophone
    /// Stop capturing audio but keep the clock running on silence: voice mode is muted, and
    /// its deadlines still fall due.
    case silenceMicrophone
    /// Play the sound that marks voice mode starting or ending (only with `playsCues`).
    case playCue(TurnCue)
    /// Speak `text` in `voice` (an id; nil: the current voice) outside voice mode, straight to
    /// the speaker: a voice preview. Its playback reports carry ``TurnMachine/previewReply``.
    case preview(text: String, voice: String?)
    /// Tell front ends that the person is speaking (the `speech` `start` event of the utterance
    /// the detector is hearing), before this transition's new state. Speech heard over a reply is
    /// told only once the interruption is confirmed.
    case announceSpeech
    /// The talk key is held: `turn` opened now. Tell front ends its speech starts now, and start
    /// transcribing it from the next frame (no pre-roll: what came before the hold is not the turn's).
    case beginHeldUtterance(turn: Int)
    /// The held `turn` ended, as `end` says: tell front ends its speech ended now. An
    /// ``endUtterance(turn:)`` follows.
    case endHeldUtterance(turn: Int, HoldEnd)
    /// Start transcribing `turn`, from the moment the speech began (include the pre-roll;
    /// after a barge-in, from when the interruption was first suspected).
    case beginUtterance(turn: Int)
    /// The user stopped speaking: finalise the transcript of `turn`. After
    /// ``finalizeTranscript(turn:)`` that transcript is already on its way: the audio stops, and
    /// what came after the eager end (silence) is not transcribed.
    case endUtterance(turn: Int)
    /// The user fell silent where `turn` may be over (an eager end): finalise the transcript of
    /// its audio so far, and keep taking its audio. ``endUtterance(turn:)`` or
    /// ``continueUtterance(from:turn:)`` follows.
    case finalizeTranscript(turn: Int)
    /// The user went on speaking after an eager end of `from`: its transcript is dropped unheard
    /// (what it asked for is abandoned by the effects before this one), and the utterance goes
    /// on as turn `turn`: its audio, whole, from the start of `from`, is transcribed again as a
    /// whole, with the live audio that follows. Late reports for `from` are stale.
    case continueUtterance(from: Int, turn: Int)
    /// The person went on soon after `from` was ended by their silence, while its answer was
    /// pending or playing: that silence was a pause inside what they were saying. `from`'s answer
    /// is abandoned (by the effects before this one) and its exchange withdrawn; the utterance
    /// beginning now, as `turn`, is transcribed with `from`'s audio before it, as one.
    /// ``beginUtterance(turn:)`` follows.
    case rejoinUtterance(from: Int, turn: Int)
    /// Drop the audio and any transcription of `turn`.
    case discardUtterance(turn: Int)
    /// Ask the responder for a reply to `transcript`; answer with `replyRequested(turn:text:)`.
    case requestReply(turn: Int, transcript: String)
    /// Cancel the responder's reply to `turn`: the one it has yet to give, or the rest of one
    /// being spoken.
    case discardReply(turn: Int)
    /// Synthesise `text` in `voice` (an id; nil: the current voice) and play it; report
    /// `playbackStarted(reply:)` and `playbackFinished(reply:)`. With `continues`, more text for
    /// the reply follows as ``continueSpeech(reply:text:continues:)``.
    case synthesize(reply: Int, text: String, voice: String? = nil, continues: Bool = false)
    /// Synthesise `text` as ``synthesize(reply:text:voice:continues:)`` does, but hold it unheard
    /// until ``releasePlayback(reply:)``: the turn may not be over. Report
    /// `playbackFinished(reply:)` if it gives no audio, and `playbackStarted(reply:)` only once
    /// released and playing; ``stopPlayback(reply:)`` drops it unheard.
    case prepareSpeech(reply: Int, text: String, voice: String? = nil, continues: Bool = false)
    /// Play the held `reply` now, from its start: the end of the turn is confirmed.
    case releasePlayback(reply: Int)
    /// Say `text` after what `reply` has been given so far, in its voice; without `continues`,
    /// this is the last of its text (`text` may then be empty) and the reply ends once said.
    case continueSpeech(reply: Int, text: String, continues: Bool)
    /// Silence `reply` at once, keeping its place: the user may be interrupting.
    case pausePlayback(reply: Int)
    /// Play `reply` on from where it paused: the interruption was a false alarm.
    case resumePlayback(reply: Int)
    /// Stop playing `reply` and abandon any synthesis still running for it. Only the playback:
    /// a responder still giving its text is cancelled by ``discardReply(turn:)``.
    case stopPlayback(reply: Int)
    /// Tell the user about `error` (it is also in the new snapshot).
    case reportError(TurnError)
}

extension TurnEffect {
    /// How a held turn ended.
    public enum HoldEnd: Equatable, Hashable, Sendable {
        /// The talk key came up.
        case released
        /// No release came within the longest utterance.
        case limit
    }
}

/// The sounds that mark voice mode starting and ending.
public enum TurnCue: Equatable, Hashable, Sendable {
    case voiceModeOn
    case voiceModeOff
}

/// Why an input was harmlessly ignored: it is stale or redundant, typically a peer racing a
/// state change. Nothing changed; log it at debug level at most.
public enum TurnIgnoreReason: Equatable, Hashable, Sendable {
    /// A transcript for a turn that is no longer waiting for one.
    case staleTranscript(turn: Int)
    /// A reply for a turn that was already answered, abandoned or timed out.
    case staleReply(turn: Int)
    /// A playback event for a reply that is no longer in flight.
    case stalePlayback(reply: Int)
    /// More text for a reply that is no longer in flight.
    case staleReplyText(reply: Int)
    /// A playback event for a voice preview, which the turns do not wait for.
    case previewPlayback
    /// The user started speaking while the microphone is muted.
    case microphoneMuted
    /// An utterance started while one is already in progress.
    case utteranceInProgress
    /// An utterance ended while none is in progress (it was already ended, discarded or cancelled).
    case noUtteranceInProgress
    /// An eager end while one is already pending.
    case eagerEndPending
    /// Speech resumed while no eager end is pending.
    case noEagerEnd
    /// The talk key is held: the turn ends at its release, not at a pause (or a `hold` repeated).
    case keyHeld
    /// `talk` while already listening, unmuted.
    case alreadyListening
}

/// Why an input made no sense in the current state; the caller turns it into an error response.
///
/// A rejected input changed nothing.
public enum TurnRejection: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Voice mode is off; only `start` is accepted.
    case voiceModeOff
    /// `start` while voice mode is already on.
    case voiceModeAlreadyOn
    /// `mute` while muted.
    case alreadyMuted
    /// `unmute` while not muted.
    case notMuted
    /// `stop` while the assistant is not audibly speaking.
    case nothingPlaying
    /// `cancel` while there is no turn in progress.
    case nothingToCancel
    /// `bargeInConfirmed` while no interruption is suspected.
    case noBargeInSuspected
    /// A transcript or reply names a turn that has not happened yet.
    case unknownTurn(Int)
    /// A playback event names a reply that was never handed out.
    case unknownReply(Int)
    /// A final transcript for the turn the user is still speaking.
    case utteranceNotEnded(turn: Int)
    /// A reply for the current turn before its transcript was sent to the responder.
    case replyNotRequested(turn: Int)
    /// An unprompted reply while the user or the assistant holds the floor.
    case cannotSpeakWhile(TurnPhase)
    /// An unprompted reply with no text (or only whitespace).
    case emptyReply
    /// More text for a reply that was told its text had ended.
    case replyTextEnded(reply: Int)
    /// `release` while the talk key is not held.
    case notHeld

    /// A short message for an error response.
    public var description: String {
        switch self {
        case .voiceModeOff: "voice mode is off"
        case .voiceModeAlreadyOn: "voice mode is already on"
        case .alreadyMuted: "the microphone is already muted"
        case .notMuted: "the microphone is not muted"
        case .nothingPlaying: "nothing is playing"
        case .nothingToCancel: "there is no turn to cancel"
        case .noBargeInSuspected: "no interruption is in progress"
        case .unknownTurn(let turn): "turn \(turn) has not happened"
        case .unknownReply(let reply): "reply \(reply) was never requested"
        case .utteranceNotEnded(let turn): "turn \(turn) is still being spoken"
        case .replyNotRequested(let turn): "turn \(turn) has no transcript yet"
        case .cannotSpeakWhile(let phase): "cannot speak while \(phase.rawValue)"
        case .emptyReply: "the reply is empty"
        case .replyTextEnded(let reply): "reply \(reply) has had all its text"
        case .notHeld: "the talk key is not held"
        }
    }
}

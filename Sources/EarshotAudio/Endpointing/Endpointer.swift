/// Turns the detector's per-frame verdicts into utterance boundaries, with hysteresis.
///
/// Feed one `VoiceActivity` per frame, in frame order; each call returns at most one event.
///
/// **Speech, not sound.** A speech verdict after silence opens a candidate onset. Where the
/// detector reports ``SpeechCues``, the onset is `onsetSuspected` only once a pitch has held for
/// `minimumVoiced` since the sound's latest attack (clicks, knocks, key ticks and coughs never
/// hold one that long; a run of ringing ticks restarts with each tick), and becomes
/// `speechStarted` once, on a later frame, `minimumSpeech` of confident speech (probability at
/// least `confirmingSpeechProbability`) has also followed within `maximumOnsetWindow`, with no
/// non-speech gap longer than `onsetGapTolerance`. Otherwise it is `onsetRejected` (or dropped
/// silently if it was never suspected); an onset that begins within that gap of its end continues
/// it, and the utterance it confirms starts its audio where the first began. Without cues every
/// speech verdict is suspected at once.
/// Counting only confident frames matters because a detector's hangover stretches even a click
/// to a few hundred milliseconds of speech verdicts.
///
/// **End of turn from how and what was said.** When the person falls silent, ``TurnProsody``
/// judges from the last voiced stretch whether the turn sounded finished (a final fall in pitch,
/// a short command), unfinished (a rise, a level "um") or neither; and the transcript so far
/// (``heard(_:sentenceEnd:throughFrame:wordsEndFrame:)``), against the language's ``TurnWords``,
/// says whether its last word can end a sentence; where the transcriber says where its last word
/// ends and speech went on well after it (a misheard ending: "six thirty to[morrow]"), the
/// words say nothing. Words that cannot end one, and words that can but by the recogniser's
/// language model seldom do (`sentenceEnd`), wait for `maximumEndSilence`;
/// words that can, with a sound that is not rising or held, end after `finishedTurnSilence`
/// (twice it where the sound is unsure), and no sooner than the pauses this speaker went on after
/// (``SpeakerPauses``, up to three quarters of `endOfTurnSilence`); with a rising or held sound,
/// after three quarters of `endOfTurnSilence`. Words the language model ends sentences on are
/// surer: with a rise (a question) they end after `finishedTurnSilence`, with an unsure sound
/// after three quarters of `endOfTurnSilence`. A word or two said alone is a command or an
/// answer, rising or not; heard as words no sentence ends on (a misheard "cancel"), the words say
/// nothing: said as a command it ends as one with no words does, and with a rise (a cough's,
/// perhaps) after `endOfTurnSilence`. With no words, the sound alone scales `endOfTurnSilence`. The
/// ``Endpointer/Eagerness`` scales each. Words heard during the silence judge it again.
///
/// **Only a voice goes on.** Within the silence, a sound that holds no pitch for `minimumVoiced`
/// (a cough, a knock) does not restart it, so it cannot carry one turn into the next; the end
/// waits while it lasts (up to `maximumOnsetWindow`), as it may be the unvoiced start of a word.
///
/// **Eager end.** Whatever the judgement, once a silence reaches `eagerEndSilence` (scaled like the
/// finished-turn silence) before the silence that ends the utterance, `eagerEnd` says the turn may
/// be over, so a reply can be prepared while the end is confirmed; speech coming back first is
/// `speechResumed`. The end itself is decided as above, eager end or not.
///
/// Events lag the audio: a verdict for frame `n` arrives after the detector has been fed frame
/// `n + lookaheadFrames`, and `speechStarted` comes up to `maximumOnsetWindowFrames` after the
/// onset. A pipeline that keeps a ring of recent audio frames so the utterance can be handed to
/// a transcriber from `audioStartFrame` must hold `Configuration.historyFrames(lookaheadFrames:)`
/// frames (prefix padding + onset window + look-ahead).
public struct Endpointer: Sendable {
    /// An utterance boundary. Frames are stream frame indices (seconds = frame × 0.01).
    public enum Event: Equatable, Sendable {
        /// Speech began at `onsetFrame` but is not yet long enough to be an utterance
        /// (useful to pause playback on a possible barge-in).
        case onsetSuspected(onsetFrame: Int)
        /// The minimum speech is confirmed. `onsetFrame` is the first speech frame of the run;
        /// the utterance's audio starts at `audioStartFrame` (onset − prefix padding, never
        /// before 0 nor before the previous utterance's end).
        case speechStarted(onsetFrame: Int, audioStartFrame: Int)
        /// The suspected onset at `onsetFrame` ended before it was confirmed: a noise burst.
        case onsetRejected(onsetFrame: Int)
        /// The utterance that began at `onsetFrame` ended; `endFrame` is exclusive (the frame
        /// after its last speech frame); `reason` says what decided it.
        case speechEnded(onsetFrame: Int, endFrame: Int, reason: EndReason)
        /// The utterance that began at `onsetFrame` may be over: its silence, from `endFrame`
        /// (exclusive, as in `speechEnded`), reached the eager-end silence before the silence
        /// that ends it. Once per silence; `speechEnded` or `speechResumed` follows.
        case eagerEnd(onsetFrame: Int, endFrame: Int)
        /// Speech came back at `frame` after an `eagerEnd`, before the end was confirmed: the
        /// utterance goes on.
        case speechResumed(onsetFrame: Int, frame: Int)
    }

    /// What decided the end of an utterance.
    public enum EndReason: String, Equatable, Sendable, CaseIterable {
        /// It sounded or read finished (a final fall, a short command, a last word a sentence
        /// ends on): ended after a shortened silence.
        case finished
        /// Nothing was sure either way: ended after the configured end-of-turn silence.
        case silence
        /// It sounded or read unfinished (a rise, a held "um", a last word such as "to" or
        /// "the"): ended only after a longer silence.
        case unfinished
        /// The stream ended (replay's end of file, the microphone closed).
        case streamEnd = "stream_end"
        /// A suspected interruption of a reply fell silent before it was confirmed.
        case falseInterruption = "false_interruption"
        /// Not the endpointer's: the talk key was released, ending a held turn.
        case released
        /// Not the endpointer's: a held turn reached the longest utterance with no release.
        case holdLimit = "hold_limit"
    }

    /// How a turn sounded as the talker fell silent, judged from its last voiced stretch.
    public enum Ending: Equatable, Sendable, CaseIterable {
        /// A single short word or two ("yes", "next", "stop"): commands are complete.
        case shortCommand
        /// The pitch fell to the end, below the utterance's own mean.
        case finalFall
        /// Nothing sure either way.
        case unsure
        /// The pitch rose at the end, as in a list or a question still going.
        case rise
        /// A long voiced stretch at a level pitch: a filled pause ("um", "uh").
        case heldLevel
    }

    enum Phase: Sendable {
        case idle
        /// Speech was seen but the onset is not confirmed yet (and maybe not suspected yet).
        case onset
        case speaking
    }

    public private(set) var configuration: Configuration

    // The configuration in frames, set by `reconfigure`.
    private var prefixPaddingFrames = 0
    private var minimumSpeechFrames = 0
    private var minimumVoicedFrames = 0
    private var endOfTurnSilenceFrames = 0
    private var finishedTurnSilenceFrames = 0
    private var eagerEndSilenceFrames = 0
    private var maximumEndSilenceFrames = 0
    private var wordRule: TurnWordRule?
    private var onsetGapToleranceFrames = 0
    private var maximumOnsetWindowFrames = 0
    private var confirmingSpeechProbability: Float = 0

    private var phase = Phase.idle
    private var onsetFrame = 0
    private var onsetSuspected = false
    private var lastSpeechFrame = 0
    private var confidentSpeechFrameCount = 0
    /// Audio before this frame belongs to the previous utterance, so padding never reaches it.
    private var previousUtteranceEndFrame = 0
    /// An onset that ended unconfirmed: where it began and its last speech frame.
    private var droppedOnset: (onsetFrame: Int, lastSpeechFrame: Int)?
    /// Where the sound the current onset continues began: a dropped onset it follows at once.
    private var continuedOnsetFrame: Int?
    private var prosody = TurnProsody()
    /// The silence that ends the current utterance, judged when the talker last fell silent.
    private var requiredSilenceFrames = 0
    /// The current silence was reported as an eager end.
    private var eagerEndReported = false
    private var pendingEndReason = EndReason.silence
    /// How the current silence sounded, judged once as it began.
    private var pendingEnding = Ending.unsure
    /// What the utterance's transcript so far says of its end.
    private var wording = TurnWording.unheard
    /// The last frame of audio the transcript behind `wording` accounts for; nil: all heard so far.
    private var wordingThroughFrame: Int?
    /// The wording when the current silence was last judged.
    private var judgedWording = TurnWording.unheard
    private var speakerPauses = SpeakerPauses()
    /// How the previous utterance was ended, to learn from a turn that went on after it; nil
    /// once it was answered, as whatever is said next is a new turn.
    private var previousEndReason: EndReason?
    /// Where a sound heard in the current silence, not yet holding a pitch, began.
    private var soundInSilenceFrame: Int?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        reconfigure(configuration)
    }

    /// Takes new timing between two frames, keeping what is under way: an utterance in
    /// progress ends after the new end-of-turn silence, an onset is confirmed by the new minimum.
    public mutating func reconfigure(_ configuration: Configuration) {
        self.configuration = configuration
        prefixPaddingFrames = configuration.prefixPaddingFrames
        minimumSpeechFrames = configuration.minimumSpeechFrames
        minimumVoicedFrames = configuration.minimumVoicedFrames
        endOfTurnSilenceFrames = configuration.endOfTurnSilenceFrames
        finishedTurnSilenceFrames = configuration.finishedTurnSilenceFrames
        eagerEndSilenceFrames = max(1, Int((Float(configuration.eagerEndSilenceFrames) * configuration.eagerness.finishedShare).rounded()))
        maximumEndSilenceFrames = configuration.maximumEndSilenceFrames
        wordRule = TurnWords.forLanguage(configuration.language).map(TurnWordRule.init)
        onsetGapToleranceFrames = configuration.onsetGapToleranceFrames
        maximumOnsetWindowFrames = configuration.maximumOnsetWindowFrames
        confirmingSpeechProbability = configuration.confirmingSpeechProbability
        if phase == .speaking, requiredSilenceFrames != 0 { applyJudgement() }
    }

    /// Takes the transcript of the utterance so far (a partial hypothesis; each replaces the
    /// last), with the log10 probability that a sentence ends after it where the recogniser's
    /// language model gives one, the last frame of audio it accounts for where the transcriber
    /// says (nil: all of it), and the frame after its last word where the transcriber says.
    /// During a silence the end is judged again with it.
    public mutating func heard(_ transcript: String, sentenceEnd: Double? = nil, throughFrame: Int? = nil, wordsEndFrame: Int? = nil) {
        guard phase == .speaking, let wordRule else { return }
        let inSilence = requiredSilenceFrames != 0
        var next = wordRule.wording(of: transcript, sentenceEnd: sentenceEnd)
        // Speech after the last word that no word accounts for ("six thirty to[morrow]" heard
        // as "six thirty to"): the last word heard is not the last one said, and cannot hold
        // the turn, whatever was heard before.
        let reaches = reachesSilence(throughFrame)
        let fallsShort = inSilence && reaches && wordsEndFrame.map { lastSpeechFrame + 1 - $0 >= Self.unheardTailFrames } ?? false
        if fallsShort, next == .unfinished || next == .unlikelyEnd {
            next = .unheard
        } else if inSilence, wordingReachesSilence, wording == .unfinished || wording == .unlikelyEnd {
            // A recogniser's last word flickers as it settles; once a silence was heard as
            // unfinished by words that reach it, it stays so until the person speaks again.
            // Words from before the silence (a transcriber running behind the microphone)
            // stand only until newer ones come.
            return
        }
        let changed = next != wording
        wording = next
        wordingThroughFrame = throughFrame
        if inSilence, changed { applyJudgement() }
    }

    /// Takes the transcript of the utterance as it stands at a pause, decoded to its end (an eager
    /// end's final pass, which weighs the sentence's end as the running hypothesis does not).
    /// Where even that ends on a word no sentence ends on while the running hypothesis read
    /// finished ("how many calories are in", heard as "… i mean it" and finally "… are in is"),
    /// the pause is unfinished after all.
    public mutating func heardToPause(_ transcript: String) {
        guard phase == .speaking, requiredSilenceFrames != 0, wording == .complete || wording == .likelyEnd, let wordRule,
            wordRule.wording(of: transcript) == .unfinished
        else { return }
        wording = .unfinished
        wordingThroughFrame = nil
        applyJudgement()
    }

    /// Speech after the last word heard, frames, from which on the last word heard is taken for
    /// not the last one said. On turns-dev-2 the last word of a pause inside a sentence ends at
    /// most 23 frames before the detector's last speech frame (its hang-over, longer in noise);
    /// "six thirty to[morrow]" heard as "six thirty to" ends 31 before.
    static let unheardTailFrames = 25

    /// Frames from a dropped onset's last speech to the next onset within which that onset continues
    /// the same sound: at most the onset's gap tolerance, as within one onset.
    private var continuingOnsetFrames: Int { onsetGapToleranceFrames + 1 }

    /// Whether the words judged account for every frame of speech so far.
    private var wordingReachesSilence: Bool { reachesSilence(wordingThroughFrame) }

    /// Whether words accounting for the audio through `frame` (nil: all of it) reach the last speech.
    private func reachesSilence(_ frame: Int?) -> Bool { frame.map { $0 >= lastSpeechFrame } ?? true }

    /// The utterance that ended last was answered (a reply began): what the person says next is
    /// a new turn, not one the endpointer split, and a finished end was judged rightly.
    public mutating func turnAnswered() {
        guard phase != .speaking else { return }
        if previousEndReason == .finished { speakerPauses.stoppedAsJudged() }
        previousEndReason = nil
    }

    /// True between `speechStarted` and `speechEnded`.
    public var isInUtterance: Bool { phase == .speaking }

    /// Consumes the verdict for the next frame (frame indices must increase) and returns the
    /// boundary it completes, if any.
    public mutating func process(_ activity: VoiceActivity) -> Event? {
        let frame = activity.frameIndex
        _ = prosody.track(frame: frame, cues: activity.cues)
        let isConfident = activity.isSpeech && activity.probability >= confirmingSpeechProbability
        switch phase {
        case .idle:
            guard activity.isSpeech else { return nil }
            phase = .onset
            onsetFrame = frame
            continuedOnsetFrame = droppedOnset.flatMap { frame - $0.lastSpeechFrame <= continuingOnsetFrames ? $0.onsetFrame : nil }
            droppedOnset = nil
            onsetSuspected = false
            lastSpeechFrame = frame
            confidentSpeechFrameCount = isConfident ? 1 : 0
            prosody.beginOnset()
            return advanceOnset(cues: activity.cues)
        case .onset:
            if activity.isSpeech {
                lastSpeechFrame = frame
                if isConfident { confidentSpeechFrameCount += 1 }
                if let event = advanceOnset(cues: activity.cues) { return event }
            }
            let gapIsTooLong = frame - lastSpeechFrame > onsetGapToleranceFrames
            let windowIsOver = frame - onsetFrame + 1 >= maximumOnsetWindowFrames
            guard gapIsTooLong || windowIsOver else { return nil }
            phase = .idle
            droppedOnset = (onsetFrame, lastSpeechFrame)
            return onsetSuspected ? .onsetRejected(onsetFrame: onsetFrame) : nil
        case .speaking:
            if activity.isSpeech {
                // In a silence, only a sound that holds a pitch from its attack is the person going
                // on: a cough, a knock or a run of ticks between two turns must not carry the first
                // into the second. While such a sound lasts the end waits, as it may be the
                // unvoiced start of a word.
                let goesOn = requiredSilenceFrames == 0 || activity.cues == nil || prosody.steadyVoicedRun >= minimumVoicedFrames
                if goesOn {
                    if requiredSilenceFrames != 0, judgedWording == .complete || judgedWording == .likelyEnd { speakerPauses.wentOn(after: frame - lastSpeechFrame - 1) }
                    lastSpeechFrame = frame
                    requiredSilenceFrames = 0
                    soundInSilenceFrame = nil
                    guard eagerEndReported else { return nil }
                    eagerEndReported = false
                    return .speechResumed(onsetFrame: onsetFrame, frame: frame)
                }
                let soundStart = soundInSilenceFrame ?? frame
                soundInSilenceFrame = soundStart
                if frame - soundStart < maximumOnsetWindowFrames { return nil }
            } else {
                soundInSilenceFrame = nil
            }
            if requiredSilenceFrames == 0 { judgeEnding() }
            let silence = frame - lastSpeechFrame
            if silence >= requiredSilenceFrames { return endUtterance(reason: pendingEndReason) }
            // The end is not sure yet, but may be: what would answer it can be prepared now.
            guard !eagerEndReported, silence >= eagerEndSilenceFrames else { return nil }
            eagerEndReported = true
            return .eagerEnd(onsetFrame: onsetFrame, endFrame: lastSpeechFrame + 1)
        }
    }

    /// Ends the stream: an open utterance ends after its last speech frame and an unconfirmed
    /// onset is rejected. Afterwards the endpointer is ready for a new stream.
    public mutating func finish() -> Event? {
        let event: Event? =
            switch phase {
            case .idle: nil
            case .onset: onsetSuspected ? .onsetRejected(onsetFrame: onsetFrame) : nil
            case .speaking: endUtterance(reason: .streamEnd)
            }
        reset()
        return event
    }

    /// Forgets all state, as for a new stream.
    public mutating func reset() {
        phase = .idle
        onsetFrame = 0
        onsetSuspected = false
        lastSpeechFrame = 0
        confidentSpeechFrameCount = 0
        previousUtteranceEndFrame = 0
        droppedOnset = nil
        continuedOnsetFrame = nil
        prosody = TurnProsody()
        requiredSilenceFrames = 0
        soundInSilenceFrame = nil
        eagerEndReported = false
        wording = .unheard
        wordingThroughFrame = nil
        previousEndReason = nil
    }

    /// Suspects the onset once it is voiced long enough, and confirms it, on a later frame, once
    /// it also has the minimum confident speech.
    private mutating func advanceOnset(cues: SpeechCues?) -> Event? {
        let isVoiced = cues == nil || prosody.steadyVoicedRun >= minimumVoicedFrames
        if !onsetSuspected {
            guard isVoiced else { return nil }
            onsetSuspected = true
            if confidentSpeechFrameCount < minimumSpeechFrames || cues != nil {
                return .onsetSuspected(onsetFrame: onsetFrame)
            }
        }
        guard confidentSpeechFrameCount >= minimumSpeechFrames else { return nil }
        phase = .speaking
        requiredSilenceFrames = 0
        wording = .unheard
        wordingThroughFrame = nil
        if previousEndReason == .finished, previousUtteranceEndFrame > 0 {
            speakerPauses.spokeAgain(after: onsetFrame - previousUtteranceEndFrame)
        }
        // Speech the onset window ran out on ("switch off …", its pitch never held for long) is
        // the start of the utterance the onset that follows it at once confirms.
        let firstSpeechFrame = continuedOnsetFrame ?? onsetFrame
        let audioStartFrame = max(firstSpeechFrame - prefixPaddingFrames, previousUtteranceEndFrame, 0)
        return .speechStarted(onsetFrame: onsetFrame, audioStartFrame: audioStartFrame)
    }

    /// Judges, as the talker falls silent, how the turn sounded, and from it and the words so
    /// far how much silence ends the utterance.
    private mutating func judgeEnding() {
        pendingEnding = prosody.judgeEnding(onsetFrame: onsetFrame, lastSpeechFrame: lastSpeechFrame)
        applyJudgement()
    }

    private mutating func applyJudgement() {
        let eagerness = configuration.eagerness
        let frames: Float
        // A word or two said alone, and heard as words, is a command or an answer however its
        // pitch went: a one-word answer often rises ("no?"). Without words, a short rising sound
        // may be a cough, and its sound alone judges it.
        let isShort = lastSpeechFrame - onsetFrame <= TurnProsody.shortCommandFrames
        let ending = pendingEnding == .rise && wording != .unheard && isShort ? Ending.shortCommand : pendingEnding
        switch (wording, ending) {
        case (.unfinished, .shortCommand), (.unlikelyEnd, .shortCommand):
            // A word or two no sentence ends on ("cancel" misheard as "and so on"): a person
            // seldom stops after "the" alone, a recogniser often mishears a one-word command, so
            // the words say nothing. Said as a command, it is judged as one, as when no words
            // were heard (turns-dev and turns-dev-2: every such silence was a turn's end); a
            // short rise, which may be a cough's, waits the end-of-turn silence.
            if pendingEnding == .shortCommand {
                (pendingEndReason, frames) = judgementBySound(.shortCommand)
            } else {
                pendingEndReason = .silence
                frames = Float(endOfTurnSilenceFrames) * eagerness.silenceShare(after: .unsure)
            }
        case (.unlikelyEnd, .rise), (.unfinished, .rise):
            // A rise to words no sentence ends on is more often a question whose last word was
            // misheard than a pause inside a sentence (turns-dev-2: 4 of 14 ends held on such
            // words rose, 3 of 27 pauses, each under 500 ms): the end-of-turn silence (never less),
            // not the longest.
            pendingEndReason = .unfinished
            frames = Float(endOfTurnSilenceFrames) * max(eagerness.unfinishedWordsShare, 1)
        case (.unlikelyEnd, _), (.unfinished, _):
            // Words the language model seldom ends a sentence on hold a pause as long as words no
            // sentence ends on: turns-dev-2's pauses after them last up to 1.04 s ("set an alarm
            // for", heard as "… awful"); three quarters of the wait split 3 more of its 24 pauses
            // at four frame phases.
            pendingEndReason = .unfinished
            frames = Float(maximumEndSilenceFrames) * eagerness.unfinishedWordsShare
        case (.likelyEnd, .unsure), (.likelyEnd, .heldLevel), (.complete, .rise), (.complete, .heldLevel):
            // The words say finished, the sound is not sure (for words the language model ends
            // sentences on, an unsure sound counts as finished).
            pendingEndReason = wording == .likelyEnd && ending == .unsure ? .finished : .silence
            frames = Float(endOfTurnSilenceFrames) * min(eagerness.silenceShare(after: ending), 1) * Self.completeWordsOpenSoundShare
        case (.likelyEnd, _), (.complete, .shortCommand), (.complete, .finalFall), (.complete, .unsure):
            // A rise after words the language model ends sentences on is a question's.
            pendingEndReason = .finished
            let share: Float = ending == .unsure ? 2 : 1
            let patience = Float(min(speakerPauses.patienceFrames, endOfTurnSilenceFrames * 3 / 4))
            frames = max(Float(finishedTurnSilenceFrames) * eagerness.finishedShare * share, patience)
        case (.unheard, _):
            (pendingEndReason, frames) = judgementBySound(ending)
        }
        requiredSilenceFrames = max(1, Int(frames.rounded()))
        judgedWording = wording
    }

    /// What ends a turn judged by how it sounded alone: the reason, and the silence in frames.
    private func judgementBySound(_ ending: Ending) -> (EndReason, Float) {
        let share = configuration.eagerness.silenceShare(after: ending)
        let reason: EndReason =
            switch ending {
            case .shortCommand, .finalFall: share < 1 ? .finished : .silence
            case .unsure: .silence
            case .rise, .heldLevel: share > 1 ? .unfinished : .silence
            }
        return (reason, Float(endOfTurnSilenceFrames) * share)
    }

    /// The share of the end-of-turn silence (at most all of it) given to words a sentence can end
    /// on said with a rise or a held pitch: the words say finished, the sound is not sure.
    static let completeWordsOpenSoundShare: Float = 0.75

    private mutating func endUtterance(reason: EndReason) -> Event {
        phase = .idle
        requiredSilenceFrames = 0
        soundInSilenceFrame = nil
        eagerEndReported = false
        wording = .unheard
        wordingThroughFrame = nil
        previousUtteranceEndFrame = lastSpeechFrame + 1
        previousEndReason = reason
        return .speechEnded(onsetFrame: onsetFrame, endFrame: lastSpeechFrame + 1, reason: reason)
    }
}

/// Turns the detector's per-frame verdicts into utterance boundaries, with hysteresis.
///
/// Feed one `VoiceActivity` per frame, in frame order; each call returns at most one event.
/// A speech frame after silence is reported as `onsetSuspected`. It becomes `speechStarted` once
/// `minimumSpeech` of confident speech (probability at least `confirmingSpeechProbability`) has
/// followed within `maximumOnsetWindow`, with no non-speech gap longer than `onsetGapTolerance`;
/// otherwise it is `onsetRejected`. Counting only confident frames matters because a detector's
/// hangover stretches even a click to a few hundred milliseconds of speech verdicts.
/// An utterance ends with `speechEnded` after `endOfTurnSilence` of non-speech.
/// When the minimum speech is a single frame, `speechStarted` comes without `onsetSuspected`.
///
/// Events lag the audio: a verdict for frame `n` arrives after the detector has been fed frame
/// `n + lookaheadFrames`, and `speechStarted` comes up to `maximumOnsetWindowFrames` after the
/// onset. A pipeline that keeps a ring of recent audio frames so the utterance can be handed to
/// a transcriber from `audioStartFrame` must hold `Configuration.historyFrames(lookaheadFrames:)`
/// frames (prefix padding + onset window + look-ahead).
public struct Endpointer: Sendable {
    public private(set) var configuration: Configuration

    // The configuration in frames, set by `reconfigure`.
    private var prefixPaddingFrames = 0
    private var minimumSpeechFrames = 0
    private var endOfTurnSilenceFrames = 0
    private var onsetGapToleranceFrames = 0
    private var maximumOnsetWindowFrames = 0
    private var confirmingSpeechProbability: Float = 0

    private var phase = Phase.idle
    private var onsetFrame = 0
    private var lastSpeechFrame = 0
    private var confidentSpeechFrameCount = 0
    /// Audio before this frame belongs to the previous utterance, so padding never reaches it.
    private var previousUtteranceEndFrame = 0

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
        endOfTurnSilenceFrames = configuration.endOfTurnSilenceFrames
        onsetGapToleranceFrames = configuration.onsetGapToleranceFrames
        maximumOnsetWindowFrames = configuration.maximumOnsetWindowFrames
        confirmingSpeechProbability = configuration.confirmingSpeechProbability
    }

    /// True between `speechStarted` and `speechEnded`.
    public var isInUtterance: Bool { phase == .speaking }

    /// Consumes the verdict for the next frame (frame indices must increase) and returns the
    /// boundary it completes, if any.
    public mutating func process(_ activity: VoiceActivity) -> Event? {
        let frame = activity.frameIndex
        let isConfident = activity.isSpeech && activity.probability >= confirmingSpeechProbability
        switch phase {
        case .idle:
            guard activity.isSpeech else { return nil }
            phase = .onset
            onsetFrame = frame
            lastSpeechFrame = frame
            confidentSpeechFrameCount = isConfident ? 1 : 0
            return confirmOnsetIfLongEnough() ?? .onsetSuspected(onsetFrame: frame)
        case .onset:
            if activity.isSpeech {
                lastSpeechFrame = frame
                if isConfident { confidentSpeechFrameCount += 1 }
                if let started = confirmOnsetIfLongEnough() { return started }
            }
            let gapIsTooLong = frame - lastSpeechFrame > onsetGapToleranceFrames
            let windowIsOver = frame - onsetFrame + 1 >= maximumOnsetWindowFrames
            guard gapIsTooLong || windowIsOver else { return nil }
            phase = .idle
            return .onsetRejected(onsetFrame: onsetFrame)
        case .speaking:
            if activity.isSpeech {
                lastSpeechFrame = frame
                return nil
            }
            guard frame - lastSpeechFrame >= endOfTurnSilenceFrames else { return nil }
            return endUtterance()
        }
    }

    /// Ends the stream: an open utterance ends after its last speech frame and an unconfirmed
    /// onset is rejected. Afterwards the endpointer is ready for a new stream.
    public mutating func finish() -> Event? {
        let event: Event? =
            switch phase {
            case .idle: nil
            case .onset: .onsetRejected(onsetFrame: onsetFrame)
            case .speaking: endUtterance()
            }
        reset()
        return event
    }

    /// Forgets all state, as for a new stream.
    public mutating func reset() {
        phase = .idle
        onsetFrame = 0
        lastSpeechFrame = 0
        confidentSpeechFrameCount = 0
        previousUtteranceEndFrame = 0
    }

    private mutating func confirmOnsetIfLongEnough() -> Event? {
        guard confidentSpeechFrameCount >= minimumSpeechFrames else { return nil }
        phase = .speaking
        let audioStartFrame = max(onsetFrame - prefixPaddingFrames, previousUtteranceEndFrame, 0)
        return .speechStarted(onsetFrame: onsetFrame, audioStartFrame: audioStartFrame)
    }

    private mutating func endUtterance() -> Event {
        phase = .idle
        previousUtteranceEndFrame = lastSpeechFrame + 1
        return .speechEnded(onsetFrame: onsetFrame, endFrame: lastSpeechFrame + 1)
    }
}


/// The detector's verdict on one 10 ms frame.
public struct VoiceActivity: Equatable, Sendable {
    /// The frame this verdict is about (it may lag the newest frame by the look-ahead).
    public var frameIndex: Int
    /// Speech probability, 0...1.
    public var probability: Float
    public var isSpeech: Bool
    /// How the frame sounds: voicing, pitch and level, for telling speech from other sounds and
    /// a finished turn from a pause. Nil from a detector that does not measure them.
    public var cues: SpeechCues?

    public init(frameIndex: Int, probability: Float, isSpeech: Bool, cues: SpeechCues? = nil) {
        self.frameIndex = frameIndex
        self.probability = probability
        self.isSpeech = isSpeech
        self.cues = cues
    }
}

/// The sound of one frame beyond speech or not: what speech has and desk sounds lack (a pitch
/// that holds from frame to frame), and what tells how a turn ended (the pitch and level contour).
public struct SpeechCues: Equatable, Sendable {
    /// How periodic the frame is below 1.5 kHz once steady noise is taken out, 0...1; vowels
    /// and voiced consonants are near 1, clicks, knocks, coughs and noise well below.
    public var periodicity: Float
    /// The pitch of that period, Hz (75–400); meaningful only where the frame is periodic.
    public var pitchHz: Float
    /// Level of the speech band (200–4000 Hz), dB (its band powers summed): for comparing frames.
    public var levelDB: Float

    public init(periodicity: Float, pitchHz: Float, levelDB: Float) {
        self.periodicity = periodicity
        self.pitchHz = pitchHz
        self.levelDB = levelDB
    }
}

/// A streaming, causal voice-activity detector: frames in, one verdict per frame out.
///
/// The verdict for frame `n` may use frames up to `n + lookaheadFrames` and no later ones,
/// so it is returned by the call that feeds frame `n + lookaheadFrames`.
public protocol VoiceActivityDetector {
    /// Frames of look-ahead, at most 3 (30 ms).
    var lookaheadFrames: Int { get }
    /// Feeds the next frame (indices must increase by one); returns the verdict for frame
    /// `frame.index - lookaheadFrames`, or nil while that frame does not exist yet.
    mutating func process(_ frame: borrowing AudioFrame) -> VoiceActivity?
    /// Forgets all history, as for a new stream.
    mutating func reset()
}

extension VoiceActivityDetector {
    /// Verdicts for the last `lookaheadFrames` frames of a stream, obtained by feeding silence
    /// after frame `lastIndex`.
    public mutating func finish(after lastIndex: Int) -> [VoiceActivity] {
        var out: [VoiceActivity] = []
        for k in 0..<lookaheadFrames {
            if let verdict = process(.silence(index: lastIndex + 1 + k)), verdict.frameIndex <= lastIndex {
                out.append(verdict)
            }
        }
        return out
    }
}

extension VoiceActivityDetector {
    /// Runs the detector over a whole clip from a fresh start and returns one verdict per frame,
    /// in frame order (the last `lookaheadFrames` come from `finish(after:)`).
    public mutating func verdicts(for clip: AudioClip) -> [VoiceActivity] {
        reset()
        var out: [VoiceActivity] = []
        out.reserveCapacity(clip.frameCount)
        for frame in clip.frames {
            if let verdict = process(frame) { out.append(verdict) }
        }
        if clip.frameCount > 0 { out += finish(after: clip.frameCount - 1) }
        return out
    }
}

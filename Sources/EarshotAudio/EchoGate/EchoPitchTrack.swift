#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The pitch of what the speaker played, frame by frame, so that voicing the microphone hears at
/// the assistant's own pitch is taken for its echo and not for the person.
///
/// The echo gate lets a frame through when the microphone holds sound the echo does not explain,
/// such as a cough or a knock; the echo mixed into that frame still carries the assistant's
/// pitch, which would make the cough look voiced. A microphone pitch within
/// `toleranceSemitones` of a pitch played around the echo's delay is therefore not the person's.
///
/// Frames are kept by the index of the microphone frame they were played alongside. All memory
/// is allocated in `init`; `played` and `matches` do not allocate.
public struct EchoPitchTrack: Sendable {
    /// Frames of played pitch kept: the echo gate's whole delay range and some slack.
    static let capacity = 64
    /// How close a pitch must be to the played one to be its echo, semitones.
    static let toleranceSemitones: Float = 1
    /// Frames either side of the echo's delay searched, for the analysis windows' offsets.
    static let alignmentSlackFrames = 2

    private var extractor = SpectralFeatureExtractor()
    /// Played pitch in semitones above 100 Hz, by microphone frame index modulo `capacity`; nan
    /// where the played frame was not voiced.
    private var semitones: [64 of Float] = .init(repeating: .nan)
    private var frameIndices: [64 of Int] = .init(repeating: -1)

    public init() {}

    /// Records what the speaker played alongside microphone frame `frameIndex` (silence when it
    /// played nothing, so that the analysis window stays in step).
    public mutating func played(_ frame: borrowing AudioFrame, alongside frameIndex: Int) {
        var pitch = Float.nan
        if let features = extractor.analyze(frame),
           features[.periodicity] >= TurnProsody.periodicityThreshold, features[.pitch] > 0 {
            pitch = 12 * log2(features[.pitch] / 100)
        }
        let slot = frameIndex % Self.capacity
        semitones[slot] = pitch
        frameIndices[slot] = frameIndex
    }

    /// Whether `cues` of microphone frame `frameIndex` are voiced at a pitch the speaker played
    /// `delayFrames` earlier (the echo gate's lock), give or take the analysis windows' offsets.
    /// Without a delay the echo has not been heard, and nothing matches: a person whose voice is
    /// pitched like the assistant's must still be heard over a speaker that does not reach the
    /// microphone.
    public func matches(_ cues: SpeechCues, frameIndex: Int, delayFrames: Int?) -> Bool {
        guard let frames = delayFrames, cues.periodicity >= TurnProsody.periodicityThreshold, cues.pitchHz > 0 else {
            return false
        }
        let ages = max(frames - Self.alignmentSlackFrames, 0)...max(frames + Self.alignmentSlackFrames, 0)
        let heard = 12 * log2(cues.pitchHz / 100)
        for age in ages where age < Self.capacity {
            let played = frameIndex - age
            guard played >= 0 else { break }
            let slot = played % Self.capacity
            if frameIndices[slot] == played, abs(semitones[slot] - heard) <= Self.toleranceSemitones { return true }
        }
        return false
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the endpointer hears of the talker's voice: a pitch track that tells speech from desk
/// sounds, and the utterance's mean pitch and newest voiced frames, from which it judges how a
/// turn ended. Fixed-size storage; nothing is allocated per frame.
struct TurnProsody: Sendable {

    /// Periodicity at or above which a frame is voiced.
    static let periodicityThreshold: Float = 0.5
    /// Largest pitch step between neighbouring voiced frames of one track, semitones (about 10 %).
    static let maximumStepSemitones: Float = 1.7
    /// Unvoiced frames a track may skip.
    static let maximumVoicingGapFrames = 1
    /// How far back from the last speech frame the ending is read, frames.
    static let endingWindowFrames = 40
    static let tailCapacity = 32
    /// An utterance no longer than this, frames, is a short command ("next", "cancel").
    static let shortCommandFrames = 55
    /// A rise in level from one frame to the next, dB, that starts a new sound (an attack).
    static let attackRiseDB: Float = 20

    // The pitch track.
    private var lastVoicedFrame = Int.min / 2
    private var lastSemitones: Float = 0
    private var run = 0
    /// The latest track, kept after it ends: its span in frames and its pitch range.
    private var stretchLength = 0
    private var stretchLow: Float = 0
    private var stretchHigh: Float = 0
    /// The latest attack, and the level of the frame before this one.
    private var lastAttackFrame = Int.min / 2
    private var previousLevelDB: Float = -200

    // The utterance, from its onset.
    private var voicedFrames = 0
    private var semitoneSum: Float = 0
    private var tailFrames: [32 of Int] = .init(repeating: 0)
    private var tailSemitones: [32 of Float] = .init(repeating: 0)

    /// Follows the pitch track with the frame's cues and returns how many frames the current
    /// track spans (0 when the frame ends it or no cues are known).
    mutating func track(frame: Int, cues: SpeechCues?) -> Int {
        guard let cues else { return 0 }
        if cues.levelDB - previousLevelDB > Self.attackRiseDB { lastAttackFrame = frame }
        previousLevelDB = cues.levelDB
        guard cues.periodicity >= Self.periodicityThreshold, cues.pitchHz > 0 else {
            if frame - lastVoicedFrame > Self.maximumVoicingGapFrames + 1 { run = 0 }
            return run
        }
        let semitones = 12 * log2(cues.pitchHz / 100)
        let continues = run > 0 && frame - lastVoicedFrame <= Self.maximumVoicingGapFrames + 1
            && abs(semitones - lastSemitones) <= Self.maximumStepSemitones
        if continues {
            run += frame - lastVoicedFrame
            stretchLow = min(stretchLow, semitones)
            stretchHigh = max(stretchHigh, semitones)
            record(frame: frame, semitones: semitones)
        } else {
            run = 1
            stretchLow = semitones
            stretchHigh = semitones
        }
        lastVoicedFrame = frame
        lastSemitones = semitones
        stretchLength = run
        return run
    }

    /// The frames of the current track since its latest attack. A voice holds its pitch through
    /// one sound; a train of ticks or taps (a pen, a keyboard) rings at a pitch for a few frames
    /// after each attack and, bridged across the gaps, can span a voice's minimum.
    var steadyVoicedRun: Int {
        min(run, max(0, lastVoicedFrame - lastAttackFrame + 1))
    }

    /// A candidate onset begins: the utterance's measures start afresh.
    mutating func beginOnset() {
        voicedFrames = 0
        semitoneSum = 0
    }

    private mutating func record(frame: Int, semitones: Float) {
        let slot = voicedFrames % Self.tailCapacity
        tailFrames[slot] = frame
        tailSemitones[slot] = semitones
        voicedFrames += 1
        semitoneSum += semitones
    }

    /// Judges how the utterance from `onsetFrame` ended, its last speech frame being `lastSpeechFrame`.
    func judgeEnding(onsetFrame: Int, lastSpeechFrame: Int) -> Endpointer.Ending {
        guard voicedFrames >= 5 else { return .unsure }
        // The newest voiced frames within the ending window, newest first.
        var count = 0
        var sumT: Float = 0, sumS: Float = 0, sumTT: Float = 0, sumTS: Float = 0, finalSum: Float = 0
        for back in 0..<min(voicedFrames, Self.tailCapacity) {
            let slot = (voicedFrames - 1 - back) % Self.tailCapacity
            let frame = tailFrames[slot]
            guard frame >= lastSpeechFrame - Self.endingWindowFrames, count < 20 else { break }
            let t = Float(frame - lastSpeechFrame) * 0.01, s = tailSemitones[slot]
            sumT += t; sumS += s; sumTT += t * t; sumTS += t * s
            if count < 4 { finalSum += s }
            count += 1
        }
        let isShortCommand = lastSpeechFrame - onsetFrame <= Self.shortCommandFrames && voicedFrames >= 8
        guard count >= 4 else { return isShortCommand ? .shortCommand : .unsure }
        let n = Float(count)
        let variance = sumTT - sumT * sumT / n
        let slope = variance > 0 ? (sumTS - sumT * sumS / n) / variance : 0
        let finalDrop = finalSum / 4 - semitoneSum / Float(voicedFrames)
        if stretchLength >= 30 && stretchHigh - stretchLow <= 1 { return .heldLevel }
        if finalDrop >= 1.5 || slope >= 15 { return .rise }
        if isShortCommand { return .shortCommand }
        if finalDrop <= -1.5 && slope <= -5 { return .finalFall }
        return .unsure
    }
}

/// Syllable-rate modulation of log-energy tracks: each track is band-passed around 4 Hz
/// (2–8 Hz) and the power of the result is averaged over ~330 ms ("slow") and ~100 ms ("fast").
///
/// Foreground speech swings its energy at the syllable rate; steady noise does not, and
/// many-talker babble swings much less.
struct ModulationTracker: Sendable {
    static let subbandCount = 4

    /// Root-mean-square modulation in dB of each kind, for the newest frame.
    struct Reading: Sendable {
        var level: Float = 0
        var fastLevel: Float = 0
        var snr: Float = 0
        var subbands: Float = 0
        var fastSubbands: Float = 0
    }

    private static let slowWeight: Float = 0.97
    private static let fastWeight: Float = 0.9
    private let filter = Biquad.bandPass(centreHz: 4, q: 0.7, sampleRateHz: 100)
    private var levelState = Biquad.State()
    private var snrState = Biquad.State()
    private var subbandStates: [4 of Biquad.State] = .init(repeating: Biquad.State())
    private var levelSlow: Float = 0
    private var levelFast: Float = 0
    private var snrSlow: Float = 0
    private var subbandSlow: Float = 0
    private var subbandFast: Float = 0

    /// Starts every track as if it had held its first value forever.
    mutating func start(level: Float, snr: Float, subbandLevels: borrowing [4 of Float]) {
        self = ModulationTracker()
        levelState = .settled(at: level)
        snrState = .settled(at: snr)
        for i in 0..<Self.subbandCount { subbandStates[i] = .settled(at: subbandLevels[i]) }
    }

    mutating func update(level: Float, snr: Float, subbandLevels: borrowing [4 of Float]) -> Reading {
        let levelSwing = filter.process(level, state: &levelState)
        let snrSwing = filter.process(snr, state: &snrState)
        var subbandPower: Float = 0
        for i in 0..<Self.subbandCount {
            let swing = filter.process(subbandLevels[i], state: &subbandStates[i])
            subbandPower += swing * swing
        }
        subbandPower /= Float(Self.subbandCount)
        Self.average(&levelSlow, levelSwing * levelSwing, weight: Self.slowWeight)
        Self.average(&levelFast, levelSwing * levelSwing, weight: Self.fastWeight)
        Self.average(&snrSlow, snrSwing * snrSwing, weight: Self.slowWeight)
        Self.average(&subbandSlow, subbandPower, weight: Self.slowWeight)
        Self.average(&subbandFast, subbandPower, weight: Self.fastWeight)
        return Reading(
            level: levelSlow.squareRoot(), fastLevel: levelFast.squareRoot(), snr: snrSlow.squareRoot(),
            subbands: subbandSlow.squareRoot(), fastSubbands: subbandFast.squareRoot()
        )
    }

    private static func average(_ mean: inout Float, _ value: Float, weight: Float) {
        mean = weight * mean + (1 - weight) * value
    }
}

public import EarshotAudio
import Foundation

/// Per-frame loudness for the voice "blob" animation: an RMS in dBFS, a perceptual level 0...1
/// and four band levels 0...1, emitted at a fixed rate in audio time.
///
/// The level maps the frame's dB between the tracked noise floor (plus a margin) and the
/// speaker's running peak, through a smoothstep, then rises with the attack and falls with the
/// release time constant. A quiet microphone therefore still animates fully while silence and
/// steady background rest near 0. Each band is mapped the same way, with its own noise floor
/// and a top set by the speaker's peak shifted by the band's typical share of speech energy, so
/// that the bands of ordinary speech all move while a tone lights only its own band.
///
/// Readings are due when a frame's end reaches the next instant `k / readingsPerSecond` s of
/// stream time (by frame index), so the schedule does not depend on how frames are delivered.
/// The meter works on any 16 kHz source, the microphone or the speaker output.
public struct LevelMeter: Sendable {
    /// The dBFS reported for digital silence instead of −∞.
    public static let silenceDBFS: Float = -100

    /// Typical level of each band relative to the whole signal during speech, in dB.
    private static let bandSpeechOffsets: [4 of Float] = [-6, -2, -8, -14]
    /// The top of the mapping never comes closer than this to the noise floor plus margin,
    /// so that background alone cannot reach full level.
    private static let minimumSpanDecibels: Float = 20
    private static let minimumBandSpanDecibels: Float = 10

    public let configuration: Configuration

    private let readingsPerSecond: Int
    private let attack: Float
    private let release: Float
    private let peakDecayPerFrame: Float

    private var filterBank = BandFilterBank()
    private var floorTracker = NoiseFloorTracker()
    private var bandFloorTrackers: [4 of NoiseFloorTracker] = .init(repeating: NoiseFloorTracker())
    private var peakDecibels = LevelMeter.silenceDBFS
    /// Digital silence before the first sound is not background: devices often start with
    /// zeros, which would hold the noise floors at −100 dB for their whole window and let the
    /// real background animate.
    private var hasHeardSound = false
    private var level: Float = 0
    private var bandLevels: [4 of Float] = .init(repeating: 0)

    /// Next reading instant, in units of 1/readingsPerSecond s; nil before the first frame.
    private var nextReadingTick: Int?
    private var pendingPowerSum: Float = 0
    private var pendingFrameCount = 0
    private var pendingMaximumLevel: Float = 0
    private var pendingMaximumBands: [4 of Float] = .init(repeating: 0)

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        readingsPerSecond = configuration.effectiveReadingsPerSecond
        attack = Self.smoothingCoefficient(timeConstantMilliseconds: configuration.attackMilliseconds)
        release = Self.smoothingCoefficient(timeConstantMilliseconds: configuration.releaseMilliseconds)
        peakDecayPerFrame = max(0, configuration.peakDecayDecibelsPerSecond) * Float(AudioFrame.duration)
    }

    /// Measures one frame; returns a reading when one is due at the end of this frame.
    public mutating func process(_ frame: borrowing AudioFrame) -> LevelReading? {
        var power: Float = 0
        frame.samples.span.withUnsafeBufferPointer { samples in
            for sample in samples { power += sample * sample }
        }
        power /= Float(AudioFrame.sampleCount)
        var bandPowers = filterBank.bandPowers(of: frame.samples)
        if !(power + bandPowers[0] + bandPowers[1] + bandPowers[2] + bandPowers[3]).isFinite {
            // Corrupt input must not poison the trackers for the rest of the stream.
            power = 0
            bandPowers = .init(repeating: 0)
            filterBank.reset()
        }
        updateLevels(power: power, bandPowers: bandPowers)

        pendingPowerSum += power
        pendingFrameCount += 1
        pendingMaximumLevel = max(pendingMaximumLevel, level)
        for band in 0..<4 { pendingMaximumBands[band] = max(pendingMaximumBands[band], bandLevels[band]) }

        let frameIndex = frame.index
        let frameEndTicks = (frameIndex + 1) * readingsPerSecond
        let ticksPerFrame = 100
        let nextTick = nextReadingTick ?? frameIndex * readingsPerSecond / ticksPerFrame + 1
        guard frameEndTicks >= nextTick * ticksPerFrame else {
            nextReadingTick = nextTick
            return nil
        }
        nextReadingTick = frameEndTicks / ticksPerFrame + 1
        return takeReading(time: Double(frameIndex + 1) * AudioFrame.duration)
    }

    /// Forgets all history, as for a new stream.
    public mutating func reset() {
        self = LevelMeter(configuration: configuration)
    }

    private mutating func updateLevels(power: Float, bandPowers: [4 of Float]) {
        if !hasHeardSound {
            guard Self.decibels(power: power) > Self.silenceDBFS else { return }
            hasHeardSound = true
        }
        let range = max(configuration.dynamicRangeDecibels, 1)
        let margin = configuration.noiseMarginDecibels
        let floor = floorTracker.update(power: power)
        peakDecibels = max(peakDecibels - peakDecayPerFrame, floorTracker.smoothedDecibels)
        let top = max(peakDecibels, floor + margin + Self.minimumSpanDecibels)
        let bottom = max(floor + margin, top - range)
        level = smoothed(level, towards: Self.perceptual(Self.decibels(power: power), bottom: bottom, top: top))

        for band in 0..<4 {
            let bandFloor = bandFloorTrackers[band].update(power: bandPowers[band])
            let bandBottom = max(bandFloor + margin, top + Self.bandSpeechOffsets[band] - range)
            let bandTop = max(top + Self.bandSpeechOffsets[band], bandBottom + Self.minimumBandSpanDecibels)
            let target = Self.perceptual(Self.decibels(power: bandPowers[band]), bottom: bandBottom, top: bandTop)
            bandLevels[band] = smoothed(bandLevels[band], towards: target)
        }
    }

    private func smoothed(_ value: Float, towards target: Float) -> Float {
        value + (target > value ? attack : release) * (target - value)
    }

    private mutating func takeReading(time: Double) -> LevelReading {
        let bands = LevelReading.Bands(
            low: pendingMaximumBands[0], lowMid: pendingMaximumBands[1],
            highMid: pendingMaximumBands[2], high: pendingMaximumBands[3])
        let reading = LevelReading(
            time: time,
            level: pendingMaximumLevel,
            rmsDBFS: Self.decibels(power: pendingPowerSum / Float(max(pendingFrameCount, 1))),
            bands: bands)
        pendingPowerSum = 0
        pendingFrameCount = 0
        pendingMaximumLevel = 0
        pendingMaximumBands = .init(repeating: 0)
        return reading
    }

    /// Power in dB re full-scale DC, never below `silenceDBFS`.
    static func decibels(power: Float) -> Float {
        let silencePower: Float = 1e-10
        guard power > silencePower else { return silenceDBFS }
        return 10 * log10(power)
    }

    /// Smoothstep of the position of `decibels` between `bottom` and `top`.
    private static func perceptual(_ decibels: Float, bottom: Float, top: Float) -> Float {
        let x = min(max((decibels - bottom) / max(top - bottom, 1), 0), 1)
        return x * x * (3 - 2 * x)
    }

    private static func smoothingCoefficient(timeConstantMilliseconds: Double) -> Float {
        let frameMilliseconds = AudioFrame.duration * 1000
        guard timeConstantMilliseconds > 0 else { return 1 }
        return Float(1 - exp(-frameMilliseconds / timeConstantMilliseconds))
    }
}

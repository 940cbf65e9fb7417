#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

extension LevelMeter {
    /// Tuning of the level meter. Times are in milliseconds, levels in dB.
    public struct Configuration: Equatable, Sendable {
        public static let maximumReadingsPerSecond = 60

        /// Readings per second of audio (default 30); values are clamped to 1...60.
        public var readingsPerSecond: Int
        /// Time constant of the rise (default 15 ms).
        public var attackMilliseconds: Double
        /// Time constant of the fall (default 200 ms).
        public var releaseMilliseconds: Double
        /// Span below the speaker's running peak that maps onto 0...1 (default 18 dB).
        public var dynamicRangeDecibels: Float
        /// How far above the tracked noise floor sound must be to move the level (default 6 dB).
        public var noiseMarginDecibels: Float
        /// How fast the remembered speech peak sinks when speech gets quieter (default 3 dB/s).
        public var peakDecayDecibelsPerSecond: Float

        public init(
            readingsPerSecond: Int = 30,
            attackMilliseconds: Double = 15,
            releaseMilliseconds: Double = 200,
            dynamicRangeDecibels: Float = 18,
            noiseMarginDecibels: Float = 6,
            peakDecayDecibelsPerSecond: Float = 3
        ) {
            self.readingsPerSecond = readingsPerSecond
            self.attackMilliseconds = attackMilliseconds
            self.releaseMilliseconds = releaseMilliseconds
            self.dynamicRangeDecibels = dynamicRangeDecibels
            self.noiseMarginDecibels = noiseMarginDecibels
            self.peakDecayDecibelsPerSecond = peakDecayDecibelsPerSecond
        }

        /// `readingsPerSecond` as actually used.
        public var effectiveReadingsPerSecond: Int {
            min(max(readingsPerSecond, 1), Self.maximumReadingsPerSecond)
        }
    }
}

extension LevelMeter {
    /// Tracks the background level as the minimum of the lightly smoothed power over the last
    /// ~3 s (minimum statistics): speech has gaps, background does not, so the minimum follows
    /// the background and ignores speech.
    struct NoiseFloorTracker: Sendable {
        private static let subwindowFrames = 25
        private static let subwindowCount = 12
        /// Smoothing of the power before the minimum is taken (~30 ms), so that the minimum of a
        /// fluctuating noise is not far below its mean.
        private static let powerSmoothing: Float = 0.28
        /// Rise of the floor towards a higher minimum (~0.5 s); it falls at once.
        private static let floorRise: Float = 0.02

        private var subwindowMinima: [12 of Float] = .init(repeating: .infinity)
        private var currentMinimum: Float = .infinity
        private var framesInSubwindow = 0
        private var nextSubwindow = 0
        private var smoothedPower: Float = -1
        private var floor: Float = .nan

        /// Level of the smoothed power in dB (at least `LevelMeter.silenceDBFS`).
        private(set) var smoothedDecibels = LevelMeter.silenceDBFS

        /// Feeds one frame's mean-square power and returns the floor in dB.
        mutating func update(power: Float) -> Float {
            smoothedPower = smoothedPower < 0 ? power : smoothedPower + Self.powerSmoothing * (power - smoothedPower)
            smoothedDecibels = LevelMeter.decibels(power: smoothedPower)
            currentMinimum = min(currentMinimum, smoothedDecibels)
            framesInSubwindow += 1
            if framesInSubwindow == Self.subwindowFrames {
                subwindowMinima[nextSubwindow] = currentMinimum
                nextSubwindow = (nextSubwindow + 1) % Self.subwindowCount
                currentMinimum = .infinity
                framesInSubwindow = 0
            }
            var target = currentMinimum
            for i in 0..<Self.subwindowCount { target = min(target, subwindowMinima[i]) }
            if floor.isNaN || target < floor {
                floor = target
            } else {
                floor += Self.floorRise * (target - floor)
            }
            return floor
        }
    }
}

extension LevelMeter {
    /// Splits the signal into four bands (below 300 Hz, 300 Hz–1 kHz, 1–3 kHz, above 3 kHz) and
    /// returns each band's mean-square power over the latest 16 ms.
    ///
    /// A 256-point FFT of a Hann-windowed 16 ms span resolves 62.5 Hz bins, so a pure tone stays
    /// about 30 dB down outside its band, as the band normalization needs, at a few hundred
    /// operations per frame: far less than per-sample band filters of that steepness.
    struct BandFilterBank: Sendable {
        private static let size = 256
        /// First bin of each band, and the end of the last: 0, 300 Hz, 1 kHz, 3 kHz, Nyquist.
        private static let bandStartBins: [5 of Int] = [0, 5, 16, 48, 129]

        private var spectrum: SlidingSpectrum

        init() {
            let size = Self.size
            let hann = SlidingSpectrum.hann(size: size)
            let meanSquare = hann.reduce(0) { $0 + $1 * $1 } / Float(size)
            // Scaled so that windowed white noise keeps its mean-square power.
            spectrum = SlidingSpectrum(window: hann.map { $0 / meanSquare.squareRoot() })
        }

        /// Mean-square power of each band; the four add up to the power of the windowed span.
        mutating func bandPowers(of samples: borrowing [160 of Float]) -> [4 of Float] {
            let size = Self.size
            spectrum.append(samples)
            // Parseval: Σx² = (|X₀|² + 2Σ|Xₖ|² + |X_N/2|²) / N, and the mean divides by N again.
            let scale = 1 / Float(size * size)
            var powers: [4 of Float] = .init(repeating: 0)
            spectrum.withBins { real, imaginary in
                for band in 0..<4 {
                    var sum: Float = 0
                    for bin in Self.bandStartBins[band]..<Self.bandStartBins[band + 1] {
                        let weight: Float = bin == 0 || bin == size / 2 ? 1 : 2
                        sum += weight * (real[bin] * real[bin] + imaginary[bin] * imaginary[bin])
                    }
                    powers[band] = sum * scale
                }
            }
            return powers
        }

        mutating func reset() {
            spectrum.reset()
        }
    }
}

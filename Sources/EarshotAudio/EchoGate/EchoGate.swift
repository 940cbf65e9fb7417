#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells the person's voice from the assistant's own, heard back through the loudspeaker, so
/// that barge-in is not triggered by the reply itself.
///
/// Feed it both sides of the conversation, 10 ms at a time: `played` with every frame handed
/// to the loudspeaker (silence when nothing plays, so the two streams keep the same pace) and
/// `captured` with every microphone frame, which returns a `Verdict`.
///
/// It compares band energies (16 bands, 125 Hz–4 kHz) rather than waveforms, so it needs no
/// adaptive filter and tolerates what a canceller cannot: an unknown delay (up to
/// `maximumDelayFrames`, tracked as the lag at which the band-energy changes of microphone and
/// reference correlate best), an unknown coupling (learnt per band, see `Coupling`), and the
/// room's reverberation (the predicted echo decays no faster than `tailDecayDecibelsPerFrame`).
/// The predicted echo in a band is the coupling times the loudest played power around the
/// locked delay, or over the whole delay range while no delay is locked. A band is unexplained
/// when the microphone exceeds the predicted echo plus the noise by `marginDecibels`; a frame
/// with `minimumUnexplainedBands` such bands is `.nearEnd`, and so is one with a single such
/// band within `holdFrames` of a near-end frame.
///
/// It errs towards `.echo`: until the delay is locked the prediction takes the loudest
/// reference over the whole delay range, and until the coupling is learnt it assumes
/// `assumedCouplingDecibels`. Each new playback after a silence re-locks the delay, since a new
/// stream may have another latency; the coupling over the whole range is kept.
///
/// Measured on the VAD fixtures (assistant and person both synthetic or read speech about
/// -26 dBFS): echo alone at 40–250 ms and 0 to -26 dB gives no near-end frame; a person 10 dB
/// above the echo passes in about 90 % of their labelled speech frames, within the first
/// 80 ms of each utterance; a person as loud as the echo, in about 60 %.
///
/// All memory is allocated in `init`; `played` and `captured` do not allocate.
public struct EchoGate: Sendable {
    /// Lags either side of the locked delay that the prediction also takes the maximum over,
    /// for delays between whole frames and a little drift.
    static let lagNeighbourhood = 1
    /// Bands of the comparison: more resolve the person's harmonics between the echo's
    /// better, fewer average out more of the mismatch between echo and prediction.
    static let bandCount = 16
    /// A played frame whose mean square exceeds this (-70 dBFS) counts as sound.
    static let soundPower: Float = 1e-7
    /// Frames after a near-end verdict that the delay tracker does not learn from: double talk
    /// only blurs the correlation, and can briefly make a wrong lag look best.
    static let doubleTalkHoldFrames = 20
    /// Double talk longer than this (3 s) is taken for a louder echo path (the volume turned
    /// up) rather than the person: a barge-in would have stopped the playback long before.
    static let longestDoubleTalkFrames = 300
    /// The microphone's noise floor follows falls quickly and rises 2 dB per second; the noise
    /// level used is this far above it, since a floor sits below the mean of the noise.
    static let noiseFall: Float = 0.3
    static let noiseRisePerFrame: Float = 0.02
    static let noiseAboveFloorDecibels: Float = 6

    public let configuration: Configuration

    let bandCount: Int
    let historyCount: Int
    private let margin: Float
    private let tailDecay: Float

    private var microphone: BandAnalyzer
    private var reference: BandAnalyzer
    private var tracker: DelayTracker
    /// Played band powers, ring of `historyCount` frames × `bandCount`, newest at `newestPlayed`.
    private var playedPowers: [Float]
    private var newestPlayed = 0
    /// Microphone band powers, the same kind of ring, newest at `newestCaptured`.
    private var capturedPowers: [Float]
    private var newestCaptured = 0
    /// Per band: the loudest played power near the locked delay and over the whole delay range,
    /// the predicted echo (power), the microphone's noise floor (dB) and noise power.
    private var nearbyPowers: [Float]
    private var widePowers: [Float]
    private var loudestPowers: [Float]
    private var predictedEcho: [Float]
    /// Coupling around the locked delay, and over the whole delay range (higher, as it is
    /// learnt from the loudest microphone frame over the whole range). The wide one is learnt
    /// before the delay is locked, and is all there is when the echo is too faint to lock onto.
    private var nearCoupling: Coupling
    private var wideCoupling: Coupling
    private var noiseFloorDecibels: [Float]
    private var noisePowers: [Float]

    private var framesSincePlayedSound: Int
    /// Frames since the microphone last exceeded even the wide prediction (surely the person),
    /// and since the last near-end verdict.
    private var framesSinceSurePerson = 0
    private var framesSinceVerdictNearEnd = Int.max / 2
    /// How long near-end verdicts have kept coming without a pause as long as the delay range.
    private var doubleTalkFrames = 0
    private var capturesSincePlayed = 0
    private var isClosed = false
    private var hasHeardMicrophone = false

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        microphone = BandAnalyzer(bandCount: Self.bandCount)
        reference = BandAnalyzer(bandCount: Self.bandCount)
        let bandCount = microphone.bandCount
        self.bandCount = bandCount
        let lagCount = max(configuration.maximumDelayFrames, 0) + 1
        historyCount = lagCount + Self.lagNeighbourhood
        margin = Self.power(decibels: configuration.marginDecibels)
        tailDecay = Self.power(decibels: -max(configuration.tailDecayDecibelsPerFrame, 0.1))
        tracker = DelayTracker(bandCount: bandCount, lagCount: lagCount)
        playedPowers = [Float](repeating: 0, count: historyCount * bandCount)
        capturedPowers = [Float](repeating: 0, count: historyCount * bandCount)
        nearbyPowers = [Float](repeating: 0, count: bandCount)
        widePowers = [Float](repeating: 0, count: bandCount)
        loudestPowers = [Float](repeating: 0, count: bandCount)
        predictedEcho = [Float](repeating: 0, count: bandCount)
        nearCoupling = Coupling(bandCount: bandCount, decibels: configuration.assumedCouplingDecibels)
        wideCoupling = nearCoupling
        noiseFloorDecibels = [Float](repeating: DelayTracker.silenceDecibels, count: bandCount)
        noisePowers = [Float](repeating: 0, count: bandCount)
        framesSincePlayedSound = historyCount
    }

    /// The delay from `played` to `captured` in frames, once the gate has locked onto it.
    public var delayFrames: Int? { tracker.lockedLag }

    /// Feeds the next frame handed to the loudspeaker (16 kHz, the same pace as the microphone).
    public mutating func played(_ frame: borrowing AudioFrame) {
        reference.analyze(frame.samples)
        newestPlayed = (newestPlayed + 1) % historyCount
        let base = newestPlayed * bandCount
        var total: Float = 0
        for band in 0..<bandCount {
            let power = reference.powers[band]
            playedPowers[base + band] = power
            total += power
        }
        framesSincePlayedSound = total > Self.soundPower ? 0 : min(framesSincePlayedSound + 1, historyCount)
        capturesSincePlayed = 0
        tracker.played(reference.powers)
    }

    /// Judges the next microphone frame.
    public mutating func captured(_ frame: borrowing AudioFrame) -> Verdict {
        microphone.analyze(frame.samples)
        newestCaptured = (newestCaptured + 1) % historyCount
        for band in 0..<bandCount { capturedPowers[newestCaptured * bandCount + band] = microphone.powers[band] }
        trackNoise()
        capturesSincePlayed += 1
        // A caller that stops calling `played` when playback stops still gets an open gate.
        let isPlaying = framesSincePlayedSound < historyCount && capturesSincePlayed <= historyCount
        if isPlaying, !isClosed {
            isClosed = true
            tracker.restart()
            nearCoupling = Coupling(bandCount: bandCount, decibels: configuration.assumedCouplingDecibels)
            framesSinceSurePerson = Self.doubleTalkHoldFrames + 1
            framesSinceVerdictNearEnd = Int.max / 2
            doubleTalkFrames = 0
        }
        guard isClosed else {
            tracker.captured(microphone.powers, noise: noisePowers, observe: false)
            return .open
        }
        let (unexplained, unexplainedByWide) = predictEcho(isPlaying: isPlaying)
        if !isPlaying, !predictionAudible() {
            isClosed = false
            tracker.captured(microphone.powers, noise: noisePowers, observe: false)
            return .open
        }
        // Once the person is heard, a single unexplained band carries the verdict through the
        // quieter ends of syllables.
        let holding = framesSinceVerdictNearEnd < configuration.holdFrames && unexplained >= 1
        let verdict: Verdict = unexplained >= configuration.minimumUnexplainedBands || holding ? .nearEnd : .echo
        framesSinceVerdictNearEnd = verdict == .nearEnd ? 0 : framesSinceVerdictNearEnd + 1
        doubleTalkFrames = framesSinceVerdictNearEnd < historyCount ? doubleTalkFrames + 1 : 0
        // Only what even the loosest prediction leaves unexplained is surely the person; what
        // only the locked prediction leaves may be echo at a lag the tracker has yet to find.
        framesSinceSurePerson = unexplainedByWide >= configuration.minimumUnexplainedBands ? 0 : framesSinceSurePerson + 1
        let lockedBefore = tracker.lockedLag
        tracker.captured(microphone.powers, noise: noisePowers, observe: isPlaying && framesSinceSurePerson > Self.doubleTalkHoldFrames)
        if tracker.lockedLag != lockedBefore {
            // Learnt for another lag, the near coupling means nothing at this one.
            nearCoupling = Coupling(bandCount: bandCount, decibels: configuration.assumedCouplingDecibels)
        }
        if isPlaying { learnCoupling() }
        return verdict
    }

    /// Forgets everything, as for a new session.
    public mutating func reset() {
        self = EchoGate(configuration: configuration)
    }

    /// Updates the predicted echo from the played history and returns how many bands the
    /// microphone exceeds it by the margin, and how many it exceeds the wide prediction by it.
    private mutating func predictEcho(isPlaying: Bool) -> (Int, Int) {
        for band in 0..<bandCount {
            nearbyPowers[band] = 0
            widePowers[band] = 0
        }
        let locked = tracker.lockedLag
        if isPlaying {
            for lag in 0..<historyCount {
                let base = ((newestPlayed - lag + historyCount) % historyCount) * bandCount
                for band in 0..<bandCount {
                    widePowers[band] = max(widePowers[band], playedPowers[base + band])
                }
                if let locked, abs(lag - locked) <= Self.lagNeighbourhood {
                    for band in 0..<bandCount {
                        nearbyPowers[band] = max(nearbyPowers[band], playedPowers[base + band])
                    }
                }
            }
        }
        var unexplained = 0, unexplainedByWide = 0
        for band in 0..<bandCount {
            let tail = predictedEcho[band] * tailDecay
            let wide = max(wideCoupling.ratio[band] * widePowers[band], tail)
            // Both predictions bound the echo; near the locked delay the bound is tighter.
            let echo = locked == nil ? wide : max(min(wide, nearCoupling.ratio[band] * nearbyPowers[band]), tail)
            predictedEcho[band] = echo
            let power = microphone.powers[band]
            if power > margin * (echo + noisePowers[band]) { unexplained += 1 }
            if power > margin * (wide + noisePowers[band]) { unexplainedByWide += 1 }
        }
        return (unexplained, unexplainedByWide)
    }

    /// Learns the couplings from the played frame whose echo has had time to arrive in full:
    /// anywhere in the delay range for the wide coupling (the oldest played frame), around
    /// the locked delay for the near one. Microphone frames that held the person would only
    /// teach that the echo is as loud as the person, so spans with a near-end verdict are
    /// skipped.
    private mutating func learnCoupling() {
        let ignoringPerson = doubleTalkFrames > Self.longestDoubleTalkFrames
        if framesSinceVerdictNearEnd >= historyCount || ignoringPerson {
            loudestCaptured(ages: 0...(historyCount - 1))
            wideCoupling.learn(reference: playedPowers, at: row(newestPlayed, age: historyCount - 1), microphone: loudestPowers)
        }
        if let lag = tracker.lockedLag, framesSinceVerdictNearEnd > 2 * Self.lagNeighbourhood || ignoringPerson {
            let reach = min(lag + Self.lagNeighbourhood, historyCount - 1)
            loudestCaptured(ages: 0...min(2 * Self.lagNeighbourhood, reach))
            nearCoupling.learn(reference: playedPowers, at: row(newestPlayed, age: reach), microphone: loudestPowers)
        }
    }

    /// Per band, the loudest captured power among the frames `ages` back, into `loudestPowers`.
    private mutating func loudestCaptured(ages: ClosedRange<Int>) {
        for band in 0..<bandCount { loudestPowers[band] = 0 }
        for age in ages {
            let base = row(newestCaptured, age: age)
            for band in 0..<bandCount { loudestPowers[band] = max(loudestPowers[band], capturedPowers[base + band]) }
        }
    }

    /// Where the frame `age` frames older than `newest` starts in a ring of band powers.
    private func row(_ newest: Int, age: Int) -> Int {
        ((newest - age + historyCount) % historyCount) * bandCount
    }

    private func predictionAudible() -> Bool {
        for band in 0..<bandCount where predictedEcho[band] > noisePowers[band] { return true }
        return false
    }

    private mutating func trackNoise() {
        var total: Float = 0
        for band in 0..<bandCount { total += microphone.powers[band] }
        // Digital silence from a device that has not started yet is not the room's floor.
        if !hasHeardMicrophone {
            guard total > 0 else { return }
            hasHeardMicrophone = true
            for band in 0..<bandCount { noiseFloorDecibels[band] = DelayTracker.decibels(microphone.powers[band]) }
        }
        for band in 0..<bandCount {
            let level = DelayTracker.decibels(microphone.powers[band])
            let floor = noiseFloorDecibels[band]
            let updated = level < floor ? floor + Self.noiseFall * (level - floor) : floor + Self.noiseRisePerFrame
            noiseFloorDecibels[band] = updated
            noisePowers[band] = Self.power(decibels: updated + Self.noiseAboveFloorDecibels)
        }
    }

    static func power(decibels: Float) -> Float {
        Float(pow(10, Double(decibels) / 10))
    }
}

extension EchoGate {
    /// Tuning of the echo gate. Levels in dB; times in 10 ms frames.
    public struct Configuration: Equatable, Sendable {
        /// The longest delay from `played` to the echo in `captured` (default 32 frames, 320 ms).
        public var maximumDelayFrames: Int
        /// How far above the predicted echo plus noise a band must be to count as unexplained
        /// (default 8 dB).
        public var marginDecibels: Float
        /// Unexplained bands (of 16) that make a frame near-end (default 3).
        public var minimumUnexplainedBands: Int
        /// Frames after a near-end frame during which one unexplained band is enough to stay
        /// near-end (default 5).
        public var holdFrames: Int
        /// Coupling from loudspeaker to microphone assumed until it is measured, per band
        /// (default 0 dB: the loudest plausible, a loopback).
        public var assumedCouplingDecibels: Float
        /// Fastest fall of the predicted echo once the playback falls silent, which covers the
        /// room's reverberation (default 1.5 dB per frame: 60 dB in 400 ms).
        public var tailDecayDecibelsPerFrame: Float

        public init(
            maximumDelayFrames: Int = 32,
            marginDecibels: Float = 8,
            minimumUnexplainedBands: Int = 3,
            holdFrames: Int = 5,
            assumedCouplingDecibels: Float = 0,
            tailDecayDecibelsPerFrame: Float = 1.5
        ) {
            self.maximumDelayFrames = maximumDelayFrames
            self.marginDecibels = marginDecibels
            self.minimumUnexplainedBands = minimumUnexplainedBands
            self.holdFrames = holdFrames
            self.assumedCouplingDecibels = assumedCouplingDecibels
            self.tailDecayDecibelsPerFrame = tailDecayDecibelsPerFrame
        }
    }
}

extension EchoGate {
    /// What the gate makes of one microphone frame.
    public enum Verdict: Equatable, Sendable {
        /// Nothing has played recently: whatever the microphone hears is the person's (or the
        /// room's), so barge-in detection may use it as it is.
        case open
        /// Something is playing and the microphone holds nothing it does not explain.
        case echo
        /// Something is playing and the microphone holds sound it does not explain: the person
        /// (or another sound in the room) over the playback.
        case nearEnd

        /// Whether the frame may count as the person speaking (the gate lets it through).
        public var passes: Bool { self != .echo }
    }
}

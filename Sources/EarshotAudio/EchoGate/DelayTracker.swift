#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension EchoGate {
    /// Finds the delay from the played reference to its echo in the microphone: the lag at which
    /// the band-energy changes of the two correlate best over about the last second.
    ///
    /// It correlates frame-to-frame changes of log band power (clipped to ±20 dB) rather than
    /// the powers themselves: changes have no offset to track, the loudspeaker's colouring
    /// cancels out, and syllable onsets make the correlation peak sharply at the true lag.
    /// Speech from the person adds uncorrelated changes, which lower the correlation at every
    /// lag alike.
    struct DelayTracker: Sendable {
        /// Weight of the past per frame: a time constant of one second.
        static let forgetting: Float = 0.99
        /// Frames of evidence needed before the first lock, and the correlation it needs.
        static let framesToLock = 30
        static let correlationToLock: Float = 0.4
        /// How much better another lag must correlate, and for how many frames in a row, to
        /// take over from the locked one: a burst of the person's speech can briefly correlate
        /// with the reply at some lag.
        static let switchMargin: Float = 0.05
        static let framesToSwitch = 50
        /// Log power of silence, dB: keeps log(0) out of the envelopes.
        static let silenceDecibels: Float = -90
        /// Largest change counted, dB: the step from silence to speech would otherwise outweigh
        /// everything else in the window.
        static let largestChange: Float = 20

        let bandCount: Int
        let lagCount: Int
        /// Changes of the reference, ring of `lagCount` frames × `bandCount`, newest at `newest`.
        private var referenceChanges: [Float]
        private var newest = 0
        private var referenceLevels: [Float]
        private var microphoneLevels: [Float]
        private var microphoneChanges: [Float]
        private var crossSums: [Float]
        private var referenceSums: [Float]
        private var microphoneSum: Float = 0
        /// Frames observed since the reference began to sound.
        private var framesObserved = 0
        /// The lag in use, nil until the correlation is convincing.
        private(set) var lockedLag: Int?
        /// A lag that correlates better than the locked one, and for how many frames it has.
        private var candidateLag = 0
        private var candidateFrames = 0

        init(bandCount: Int, lagCount: Int) {
            self.bandCount = bandCount
            self.lagCount = lagCount
            referenceChanges = [Float](repeating: 0, count: bandCount * lagCount)
            referenceLevels = [Float](repeating: Self.silenceDecibels, count: bandCount)
            microphoneLevels = [Float](repeating: Self.silenceDecibels, count: bandCount)
            microphoneChanges = [Float](repeating: 0, count: bandCount)
            crossSums = [Float](repeating: 0, count: lagCount)
            referenceSums = [Float](repeating: 0, count: lagCount)
        }

        /// Forgets the evidence and the lock: the next playback may come through a stream with
        /// another latency.
        mutating func restart() {
            for lag in 0..<lagCount {
                crossSums[lag] = 0
                referenceSums[lag] = 0
            }
            microphoneSum = 0
            framesObserved = 0
            lockedLag = nil
            candidateFrames = 0
        }

        mutating func played(_ powers: [Float]) {
            newest = (newest + 1) % lagCount
            let base = newest * bandCount
            for band in 0..<bandCount {
                let level = Self.decibels(powers[band])
                referenceChanges[base + band] = Self.clipped(level - referenceLevels[band])
                referenceLevels[band] = level
            }
        }

        /// Adds one microphone frame (band powers, and the noise power under them) to the
        /// evidence; `observe` is false while nothing plays or the person is speaking.
        mutating func captured(_ powers: [Float], noise: [Float], observe: Bool) {
            var energy: Float = 0
            for band in 0..<bandCount {
                // Measured over the noise, so that its flicker does not count as change.
                let level = Self.decibels(powers[band] + noise[band])
                let change = Self.clipped(level - microphoneLevels[band])
                microphoneLevels[band] = level
                microphoneChanges[band] = change
                energy += change * change
            }
            guard observe else { return }
            microphoneSum = Self.forgetting * microphoneSum + energy
            for lag in 0..<lagCount {
                let base = ((newest - lag + lagCount) % lagCount) * bandCount
                var cross: Float = 0, reference: Float = 0
                for band in 0..<bandCount {
                    let value = referenceChanges[base + band]
                    cross += microphoneChanges[band] * value
                    reference += value * value
                }
                crossSums[lag] = Self.forgetting * crossSums[lag] + cross
                referenceSums[lag] = Self.forgetting * referenceSums[lag] + reference
            }
            framesObserved += 1
            updateLock()
        }

        /// Normalized correlation at `lag`, -1...1.
        func correlation(atLag lag: Int) -> Float {
            let denominator = (microphoneSum * referenceSums[lag]).squareRoot()
            return denominator > 0 ? crossSums[lag] / denominator : 0
        }

        private mutating func updateLock() {
            // The echo of the first sound may take the whole lag range to arrive.
            guard framesObserved >= lagCount + Self.framesToLock else { return }
            var best = 0
            var bestCorrelation = correlation(atLag: 0)
            for lag in 1..<lagCount {
                let value = correlation(atLag: lag)
                if value > bestCorrelation {
                    best = lag
                    bestCorrelation = value
                }
            }
            guard let locked = lockedLag else {
                if bestCorrelation >= Self.correlationToLock { lockedLag = best }
                return
            }
            guard bestCorrelation >= Self.correlationToLock,
                  bestCorrelation >= correlation(atLag: locked) + Self.switchMargin else {
                candidateFrames = 0
                return
            }
            candidateFrames = best == candidateLag ? candidateFrames + 1 : 1
            candidateLag = best
            if candidateFrames >= Self.framesToSwitch {
                lockedLag = best
                candidateFrames = 0
            }
        }

        static func decibels(_ power: Float) -> Float {
            max(10 * log10(max(power, 1e-12)), silenceDecibels)
        }

        private static func clipped(_ change: Float) -> Float {
            min(max(change, -largestChange), largestChange)
        }
    }
}

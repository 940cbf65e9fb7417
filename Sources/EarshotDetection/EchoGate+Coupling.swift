extension EchoGate {
    /// The loudspeaker-to-microphone coupling per band, in dB, learnt from observations that
    /// are each an upper bound on it: the loudest microphone power in the span where a played
    /// frame's echo must arrive, over that frame's power. Their 10th percentile (tracked with
    /// fixed steps) is close above the true coupling, and stays put while the person speaks
    /// for a while, since the person only adds to the microphone.
    struct Coupling: Sendable {
        /// Steps of the percentile tracker, dB: the estimate falls 0.9 dB for each observation
        /// below it and rises 0.1 dB for each above, which balances at the 10th percentile.
        static let fall: Float = 0.9
        static let rise: Float = 0.1
        /// For a band's first observations both steps are this many times larger (the same
        /// percentile, reached sooner): the assumed coupling is the loudest plausible, and
        /// until it falls, a person talking over the first reply of a session is taken for its
        /// echo.
        static let warmUpSpeedUp: Float = 4
        static let warmUpObservations = 12
        static let range: ClosedRange<Float> = -80...12

        private(set) var decibels: [Float]
        /// Observations learnt from, per band (counted up to the end of the warm-up).
        private var observations: [Int]
        /// `decibels` as power ratios.
        private(set) var ratio: [Float]

        init(bandCount: Int, decibels: Float) {
            self.decibels = [Float](repeating: decibels, count: bandCount)
            observations = [Int](repeating: 0, count: bandCount)
            ratio = [Float](repeating: EchoGate.power(decibels: decibels), count: bandCount)
        }

        /// Learns from one played frame's band powers (`reference` from index `start`) and the
        /// loudest microphone band powers where its echo must be (`microphone`), in the bands
        /// the played frame drives: within 50 dB of its loudest band.
        mutating func learn(reference: [Float], at start: Int, microphone: [Float]) {
            var loudest: Float = 0
            for band in decibels.indices { loudest = max(loudest, reference[start + band]) }
            let threshold = max(loudest * 1e-5, 1e-9)
            for band in decibels.indices where reference[start + band] > threshold {
                let observed = DelayTracker.decibels(microphone[band]) - DelayTracker.decibels(reference[start + band])
                let current = decibels[band]
                let speed = observations[band] < Self.warmUpObservations ? Self.warmUpSpeedUp : 1
                observations[band] = min(observations[band] + 1, Self.warmUpObservations)
                let updated = observed < current ? max(current - speed * Self.fall, observed) : current + speed * Self.rise
                decibels[band] = min(max(updated, Self.range.lowerBound), Self.range.upperBound)
                ratio[band] = EchoGate.power(decibels: decibels[band])
            }
        }
    }
}

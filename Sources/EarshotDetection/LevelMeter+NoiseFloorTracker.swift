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

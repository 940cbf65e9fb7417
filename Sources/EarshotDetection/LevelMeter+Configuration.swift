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

/// One emission of the level meter, aggregating the frames since the previous one.
public struct LevelReading: Equatable, Sendable {
    /// Stream time in seconds at the end of the frame that completed this reading.
    public var time: Double
    /// Perceptual loudness 0...1, adapted to the noise floor and the speaker's loudness
    /// (highest smoothed value since the previous reading).
    public var level: Float
    /// Energy-average RMS over the aggregated frames, in dB relative to full-scale DC
    /// (a full-scale sine reads −3); digital silence reads `LevelMeter.silenceDBFS`.
    public var rmsDBFS: Float
    /// Per-band perceptual levels 0...1 (highest smoothed values since the previous reading).
    public var bands: Bands

    public init(time: Double, level: Float, rmsDBFS: Float, bands: Bands) {
        self.time = time
        self.level = level
        self.rmsDBFS = rmsDBFS
        self.bands = bands
    }
}

extension LevelReading {
    /// Four band levels, each 0...1, for the blob's morphing.
    public struct Bands: Equatable, Sendable {
        public static let count = 4

        /// Below 300 Hz.
        public var low: Float
        /// 300 Hz to 1 kHz.
        public var lowMid: Float
        /// 1 kHz to 3 kHz.
        public var highMid: Float
        /// Above 3 kHz.
        public var high: Float

        public init(low: Float, lowMid: Float, highMid: Float, high: Float) {
            self.low = low
            self.lowMid = lowMid
            self.highMid = highMid
            self.high = high
        }

        public static let zero = Bands(low: 0, lowMid: 0, highMid: 0, high: 0)

        /// Bands by index, 0 = `low` ... 3 = `high`.
        public subscript(index: Int) -> Float {
            get {
                switch index {
                case 0: low
                case 1: lowMid
                case 2: highMid
                case 3: high
                default: preconditionFailure("band index \(index) out of 0..<\(Self.count)")
                }
            }
            set {
                switch index {
                case 0: low = newValue
                case 1: lowMid = newValue
                case 2: highMid = newValue
                case 3: high = newValue
                default: preconditionFailure("band index \(index) out of 0..<\(Self.count)")
                }
            }
        }
    }
}

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

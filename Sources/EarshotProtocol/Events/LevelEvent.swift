/// A `level` event: one reading of the level meter, for the voice blob.
public struct LevelEvent: Hashable, Sendable {
    /// Whose sound the reading measures.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        /// The person, at the microphone.
        case mic
        /// The assistant's voice, as it is handed to the speaker.
        case speaker
    }

    public var source: Source
    /// Perceived loudness, 0…1.
    public var level: Double
    /// RMS of the audio since the previous reading, in dBFS.
    public var rmsDBFS: Double
    /// Four band levels, 0…1: below 300 Hz, 300 Hz–1 kHz, 1–3 kHz, above 3 kHz.
    public var bands: [Double]
    /// Audio time at the end of the frame that completed the reading.
    public var time: Double

    public init(source: Source, level: Double, rmsDBFS: Double, bands: [Double], time: Double) {
        self.source = source
        self.level = level
        self.rmsDBFS = rmsDBFS
        self.bands = bands
        self.time = time
    }
}

/// Drops the silence a synthesizer puts before a reply's first sound, as its audio streams in.
///
/// flite begins every text with a pause: 190 ms with slt, and 220 ms before the first loud
/// sample of "Turning on the kitchen lights.", nearly all of the time from `speak` to the first
/// sound. Played, that pause is only a wait. The trim keeps everything from `leadIn` before the
/// first sample above `threshold` on, so a soft onset (a breathy "h") is not clipped; once it
/// has passed audio through, it passes everything.
public struct LeadingSilenceTrim: Sendable {
    /// −45 dBFS: above the noise floor of flite's pauses (at most −48 dBFS, awb's) and far below
    /// any speech sound.
    public static let defaultThreshold: Float = 0.0056
    /// 10 ms at 16 kHz.
    public static let defaultLeadIn = 160

    public let threshold: Float
    public let leadIn: Int
    /// The last `leadIn` silent samples seen, oldest first, to go out before the first sound.
    private var held: [Float] = []
    public private(set) var hasPassedSound = false

    public init(threshold: Float = Self.defaultThreshold, leadIn: Int = Self.defaultLeadIn) {
        self.threshold = threshold
        self.leadIn = max(0, leadIn)
    }

    /// The part of `samples`, the next piece of the stream, to play: empty while the silence
    /// lasts.
    public mutating func trim(_ samples: [Float]) -> [Float] {
        if hasPassedSound { return samples }
        guard let onset = samples.firstIndex(where: { abs($0) > threshold }) else {
            held = Array((held + samples).suffix(leadIn))
            return []
        }
        hasPassedSound = true
        let fromThisPiece = min(onset, leadIn)
        let fromHeld = held.suffix(leadIn - fromThisPiece)
        held = []
        return Array(fromHeld) + samples[(onset - fromThisPiece)...]
    }
}

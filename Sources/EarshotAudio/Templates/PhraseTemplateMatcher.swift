/// Listens for a phrase by its enrolled takes: the newest audio of a stretch of speech is
/// aligned with each take's cepstra (``SubsequenceAlignment``), frame by frame, and the phrase
/// is heard when an alignment ending at the newest frame is close enough. It decides as the
/// phrase's last frame comes in; a frame costs no allocation.
public struct PhraseTemplateMatcher: Sendable {
    /// The mean cosine distance under which a take's alignment counts as the phrase when the
    /// templates set none: tuned on the wake benchmark's tuning voices
    /// (`earshot-bench wake --templates --tune`).
    public static let defaultThreshold: Float = 0.3
    /// An alignment counts only when the stretch it spans is this many times as long as the
    /// take at most, or this fraction of it at least: a phrase said at half or twice the speed.
    static let longestStretch: Float = 1.5
    static let shortestStretch: Float = 0.67
    /// Frames the distance must go on rising after its lowest below the threshold before the
    /// phrase counts as ended: a take matches its end best where the phrase really ends, not
    /// as soon as its last syllable begins.
    static let settleFrames = 10

    /// Values a frame is matched by: its cepstra (less the takes' mean) and how they changed
    /// over the last 20 ms, so a sound is told apart by where it goes as well as what it is.
    public static let dimension = 2 * MelCepstrum.dimension
    /// How many frames back the change is taken from.
    static let deltaFrames = 2

    public let threshold: Float
    private var cepstrum: MelCepstrum
    private var alignments: [SubsequenceAlignment]
    /// The takes' mean vector, taken from theirs and from every frame heard: what all the
    /// person's speech through that microphone shares, so what is left tells sounds apart.
    private let mean: [Float]
    private var vector = [Float](repeating: 0, count: dimension)
    private var cepstra = [Float](repeating: 0, count: MelCepstrum.dimension)
    /// The last ``deltaFrames`` frames' cepstra, oldest first, and how many of them were heard.
    private var recent = [Float](repeating: 0, count: deltaFrames * MelCepstrum.dimension)
    private var recentCount = 0
    /// The lowest distance seen since ``begin()`` (for tuning and for `earshot wake enroll`).
    public private(set) var closest: Float = .infinity
    /// Frames since the lowest distance under the threshold in this stretch, if there was one.
    private var framesSinceLowest: Int?

    /// - Parameter takes: the enrolled takes' samples at 16 kHz, trimmed to the phrase.
    public init(takes: [[Float]], threshold: Float = defaultThreshold) {
        self.threshold = threshold
        cepstrum = MelCepstrum(tracksNoise: true)
        let (features, mean) = Self.centredFeatures(of: takes)
        self.mean = mean
        alignments = features.map { SubsequenceAlignment(template: $0, dimension: Self.dimension) }
    }

    /// Each take's vectors (``dimension`` values a frame): its cepstra less the mean of all the
    /// takes' frames, and their change; and that mean.
    public static func centredFeatures(of takes: [[Float]]) -> (features: [[Float]], mean: [Float]) {
        let dimension = MelCepstrum.dimension
        let features = takes.map { MelCepstrum.features(of: $0) }
        var mean = [Float](repeating: 0, count: dimension)
        let frames = features.reduce(0) { $0 + $1.count / dimension }
        for take in features {
            for index in take.indices { mean[index % dimension] += take[index] / Float(max(frames, 1)) }
        }
        var vectors: [[Float]] = []
        for take in features {
            var out: [Float] = []
            let frames = take.count / dimension
            for frame in 0..<frames {
                let back = max(frame - deltaFrames, 0)
                for k in 0..<dimension { out.append(take[frame * dimension + k] - mean[k]) }
                for k in 0..<dimension { out.append(take[frame * dimension + k] - take[back * dimension + k]) }
            }
            vectors.append(out)
        }
        return (vectors, mean)
    }

    /// A new stretch of speech begins.
    public mutating func begin() {
        cepstrum.reset()
        for index in alignments.indices { alignments[index].reset() }
        closest = .infinity
        framesSinceLowest = nil
        recentCount = 0
    }

    /// The stretch's next frame; true when the phrase has just ended with it.
    public mutating func hears(_ samples: borrowing [160 of Float]) -> Bool {
        cepstrum.next(samples, into: &cepstra)
        let dimension = MelCepstrum.dimension
        // The change from `deltaFrames` back (from the first frame while fewer were heard).
        let back = recentCount >= Self.deltaFrames ? 0 : max(0, recentCount - 1)
        for k in 0..<dimension {
            vector[k] = cepstra[k] - mean[k]
            vector[dimension + k] = recentCount == 0 ? 0 : cepstra[k] - recent[back * dimension + k]
        }
        if recentCount == 0 {
            for slot in 0..<Self.deltaFrames { for k in 0..<dimension { recent[slot * dimension + k] = cepstra[k] } }
        } else {
            for slot in 0..<(Self.deltaFrames - 1) { for k in 0..<dimension { recent[slot * dimension + k] = recent[(slot + 1) * dimension + k] } }
            for k in 0..<dimension { recent[(Self.deltaFrames - 1) * dimension + k] = cepstra[k] }
        }
        recentCount += 1
        vector.withUnsafeMutableBufferPointer { vector in
            var norm: Float = 0
            for k in 0..<vector.count { norm += vector[k] * vector[k] }
            norm = norm.squareRoot()
            for k in 0..<vector.count { vector[k] = norm > 1e-6 ? vector[k] / norm : 0 }
        }
        var lowest: Float = .infinity
        vector.withUnsafeBufferPointer { vector in
            for index in alignments.indices {
                let (distance, frames) = alignments[index].next(vector.baseAddress!)
                let length = Float(alignments[index].length)
                guard Float(frames) <= length * Self.longestStretch, Float(frames) >= length * Self.shortestStretch else { continue }
                lowest = min(lowest, distance)
            }
        }
        if lowest < threshold, lowest < closest {
            framesSinceLowest = 0
        } else if let frames = framesSinceLowest {
            framesSinceLowest = frames + 1
        }
        closest = min(closest, lowest)
        return framesSinceLowest.map { $0 >= Self.settleFrames } ?? false
    }
}

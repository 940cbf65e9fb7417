/// Listens for a phrase by its enrolled takes: the newest audio of a stretch of speech is
/// aligned with each take's cepstra (``SubsequenceAlignment``), frame by frame, and the phrase
/// is heard when the alignments ending at the newest frame are close enough. It decides as the
/// phrase's last frame comes in; a frame costs no allocation.
///
/// How close is judged against the audio itself: each take's alignment distance less
/// ``backgroundWeight`` times the distance its frames have, each, to the take frame nearest to
/// it in any order (the background). Other sentences by the same voice come near a take frame by
/// frame as much as the phrase does, but not in the phrase's order; noise moves the phrase away
/// from the takes in both measures alike. The takes' scores are averaged at each frame, so the
/// phrase must come close to them all, ending together; the threshold on that mean follows how
/// far apart the takes lie (``threshold(for:)``).
public struct PhraseTemplateMatcher: Sendable {
    /// The share of the background taken off the alignment distance when none is given. Below
    /// 1, audio far from every take frame (a noise, another language) keeps part of its
    /// distance; the tuning voices set it (`--tune`: of the weights below 1, the one whose
    /// thresholds part their phrase from their other sentences over the widest range).
    public static let defaultBackgroundWeight: Float = 0.9
    /// An alignment counts only when the stretch it spans is this many times as long as the
    /// take at most, or this fraction of it at least: a phrase said at half or twice the speed.
    static let longestStretch: Float = 1.5
    static let shortestStretch: Float = 0.67
    /// Frames the score must go on rising after its lowest below the threshold before the
    /// phrase counts as ended: a take matches its end best where the phrase really ends, not
    /// as soon as its last syllable begins.
    static let settleFrames = 10

    /// Values a frame is matched by: its cepstra (less the takes' mean) and how they changed
    /// over the last 20 ms, so a sound is told apart by where it goes as well as what it is.
    public static let dimension = 2 * MelCepstrum.dimension
    /// How many frames back the change is taken from.
    static let deltaFrames = 2

    public let threshold: Float
    public let backgroundWeight: Float
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
    /// Each take's distance from each recent frame to its nearest take frame, a ring of
    /// ``historyLength`` frames per take, and how many frames this stretch has had.
    private var nearest: [Float]
    private let historyLength: Int
    private var framesHeard = 0
    /// The lowest score seen since ``begin()`` (for tuning).
    public private(set) var closest: Float = .infinity
    /// Frames since the lowest score under the threshold in this stretch, if there was one.
    private var framesSinceLowest: Int?

    /// - Parameters:
    ///   - takes: the enrolled takes' samples at 16 kHz, trimmed to the phrase.
    ///   - threshold: the score under which the phrase is heard; nil: ``threshold(for:)``.
    public init(takes: [[Float]], threshold: Float? = nil, backgroundWeight: Float = defaultBackgroundWeight) {
        self.threshold = threshold ?? Self.threshold(for: takes)
        self.backgroundWeight = backgroundWeight
        cepstrum = MelCepstrum(tracksNoise: true)
        let (features, mean) = Self.centredFeatures(of: takes)
        self.mean = mean
        alignments = features.map { SubsequenceAlignment(template: $0, dimension: Self.dimension) }
        historyLength = Int((Float(alignments.map(\.length).max() ?? 1) * Self.longestStretch).rounded(.up)) + 1
        nearest = [Float](repeating: 0, count: historyLength * alignments.count)
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
        framesHeard = 0
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
        let lowest = score()
        if lowest < threshold, lowest < closest {
            framesSinceLowest = 0
        } else if let frames = framesSinceLowest {
            framesSinceLowest = frames + 1
        }
        closest = min(closest, lowest)
        return framesSinceLowest.map { $0 >= Self.settleFrames } ?? false
    }

    /// The mean over the takes of each one's alignment distance ending with ``vector``, less the
    /// weighted background of the frames it spans; infinite while any take spans too few or too
    /// many frames.
    private mutating func score() -> Float {
        let slot = framesHeard % historyLength
        framesHeard += 1
        var sum: Float = 0
        var allAligned = true
        for index in alignments.indices {
            let (distance, frames, nearestFrame) = vector.withUnsafeBufferPointer { alignments[index].next($0.baseAddress!) }
            let history = index * historyLength
            nearest[history + slot] = nearestFrame
            let length = Float(alignments[index].length)
            guard allAligned, Float(frames) <= length * Self.longestStretch, Float(frames) >= length * Self.shortestStretch else {
                allAligned = false
                continue
            }
            var background: Float = 0
            for back in 0..<frames { background += nearest[history + (slot - back + historyLength) % historyLength] }
            sum += distance - backgroundWeight * background / Float(frames)
        }
        return allAligned ? sum / Float(alignments.count) : .infinity
    }
}

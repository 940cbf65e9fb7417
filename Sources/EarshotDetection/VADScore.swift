/// Frame-level and segment-level agreement between speech decisions and labels, pooled over any
/// number of recordings.
public struct VADScore: Sendable, Equatable, Codable {
    public var truePositives = 0
    public var falsePositives = 0
    public var falseNegatives = 0
    public var trueNegatives = 0
    /// Labelled speech segments (runs of speech frames) seen, and those never detected.
    public var segments = 0
    public var missedSegments = 0
    /// Per detected segment, in ms: from the labelled onset to the moment the verdict that first
    /// calls a frame of the segment speech is available (its frame's end plus the look-ahead).
    public var onsetLatenciesMs: [Double] = []

    public init() {}

    public var precision: Double { ratio(truePositives, truePositives + falsePositives) }
    public var recall: Double { ratio(truePositives, truePositives + falseNegatives) }
    public var f1: Double { ratio(2 * truePositives, 2 * truePositives + falsePositives + falseNegatives) }
    /// Fraction of the non-speech frames called speech.
    public var falseAlarmRate: Double { ratio(falsePositives, falsePositives + trueNegatives) }
    public var frames: Int { truePositives + falsePositives + falseNegatives + trueNegatives }

    public var medianOnsetLatencyMs: Double? {
        guard !onsetLatenciesMs.isEmpty else { return nil }
        let sorted = onsetLatenciesMs.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Scores one recording: `decisions[i]` is the verdict for frame i (extra frames on either
    /// side are ignored), from a detector that looks `lookaheadFrames` ahead.
    public mutating func add(decisions: [Bool], labels: [Bool], lookaheadFrames: Int) {
        let count = min(decisions.count, labels.count)
        for i in 0..<count {
            switch (decisions[i], labels[i]) {
            case (true, true): truePositives += 1
            case (true, false): falsePositives += 1
            case (false, true): falseNegatives += 1
            case (false, false): trueNegatives += 1
            }
        }
        var start = 0
        while start < count {
            guard labels[start] else { start += 1; continue }
            var end = start
            while end < count && labels[end] { end += 1 }
            segments += 1
            if let first = (start..<end).first(where: { decisions[$0] }) {
                onsetLatenciesMs.append(Double(first + lookaheadFrames + 1 - start) * 10)
            } else {
                missedSegments += 1
            }
            start = end
        }
    }

    public static func + (lhs: VADScore, rhs: VADScore) -> VADScore {
        var sum = lhs
        sum.truePositives += rhs.truePositives
        sum.falsePositives += rhs.falsePositives
        sum.falseNegatives += rhs.falseNegatives
        sum.trueNegatives += rhs.trueNegatives
        sum.segments += rhs.segments
        sum.missedSegments += rhs.missedSegments
        sum.onsetLatenciesMs += rhs.onsetLatenciesMs
        return sum
    }

    private func ratio(_ numerator: Int, _ denominator: Int) -> Double {
        denominator == 0 ? 0 : Double(numerator) / Double(denominator)
    }
}

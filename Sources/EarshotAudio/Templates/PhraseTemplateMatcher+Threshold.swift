extension PhraseTemplateMatcher {
    /// The threshold is this many times the takes' mean distance to each other: a person whose
    /// takes differ more says the phrase in more ways, each as far from the takes. Tuned on the
    /// wake benchmark's tuning voices (`earshot-bench wake --templates --tune`).
    public static let spreadFactor: Float = 1.0
    /// The threshold's least value: takes alike to the sample (one file given three times) would
    /// otherwise leave none.
    public static let lowestThreshold: Float = 0.02

    /// The score under which these takes hear the phrase: ``spreadFactor`` times how far apart
    /// they lie (``disagreement(of:)``).
    public static func threshold(for takes: [[Float]]) -> Float {
        threshold(disagreement: disagreement(of: centredFeatures(of: takes).features))
    }

    /// ``spreadFactor`` times the mean of each take's mean distance to the others.
    public static func threshold(disagreement: [Float]) -> Float {
        let spread = disagreement.reduce(0, +) / Float(max(disagreement.count, 1))
        return max(lowestThreshold, spreadFactor * spread)
    }

    /// Each take's mean distance to the others (the whole alignment of ``SubsequenceAlignment``),
    /// from their ``centredFeatures(of:)``.
    public static func disagreement(of features: [[Float]]) -> [Float] {
        var disagreement = [Float](repeating: 0, count: features.count)
        for i in features.indices {
            var sum: Float = 0
            for j in features.indices where j != i {
                sum += SubsequenceAlignment.distance(features[j], features[i], dimension: dimension)
            }
            disagreement[i] = sum / Float(max(features.count - 1, 1))
        }
        return disagreement
    }
}

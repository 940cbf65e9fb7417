/// Dynamic time warping of one template against the newest stretch of a stream, a frame at a
/// time: open at the beginning (the template may start at any frame of the stream) and read at
/// the end (the template's last frame aligned with the newest stream frame).
///
/// Steps are symmetric: a diagonal step weighs twice the frame distance, a step along either
/// sequence alone once, so a path's cost over its length (stream frames plus template frames)
/// is its mean distance, whatever the speaking rate. Each cell keeps the predecessor with the
/// lowest mean, not the lowest sum, so a short path is not preferred for being short. Distances
/// are cosine distances (0 alike, 1 unrelated, 2 opposite) of feature vectors.
public struct SubsequenceAlignment: Sendable {
    /// The template's vectors, each scaled to length 1, frame after frame.
    public let template: [Float]
    public let dimension: Int
    public var length: Int { template.count / dimension }
    private var cost: [Float]
    private var weight: [Float]
    /// The stream frame where each cell's path began.
    private var start: [Int]
    private var frames = 0
    /// Whether the template may begin at any stream frame (else only at the first).
    private let openBeginning: Bool

    /// - Parameter features: the template's feature vectors, `dimension` values each.
    public init(template features: [Float], dimension: Int, openBeginning: Bool = true) {
        precondition(dimension > 0 && features.count % dimension == 0 && !features.isEmpty)
        self.dimension = dimension
        self.openBeginning = openBeginning
        template = Self.normalised(features, dimension: dimension)
        let length = features.count / dimension
        cost = [Float](repeating: .infinity, count: length)
        weight = [Float](repeating: 1, count: length)
        start = [Int](repeating: 0, count: length)
    }

    /// Vectors scaled to length 1 (a zero vector stays zero: distance 1 to everything).
    public static func normalised(_ features: [Float], dimension: Int) -> [Float] {
        var out = features
        for frame in 0..<(features.count / dimension) {
            var norm: Float = 0
            for k in 0..<dimension { norm += features[frame * dimension + k] * features[frame * dimension + k] }
            norm = norm.squareRoot()
            for k in 0..<dimension { out[frame * dimension + k] = norm > 1e-6 ? features[frame * dimension + k] / norm : 0 }
        }
        return out
    }

    /// Takes the stream's next vector (already scaled to length 1); returns the mean distance of
    /// the best path ending here with the template's end, how many stream frames it spans, and
    /// the distance of the vector to the template frame nearest to it, wherever that lies.
    public mutating func next(_ vector: UnsafePointer<Float>) -> (distance: Float, frames: Int, nearest: Float) {
        let length = self.length, dimension = self.dimension
        let frame = frames
        frames += 1
        let openBeginning = self.openBeginning
        return template.withUnsafeBufferPointer { template in
            cost.withUnsafeMutableBufferPointer { cost in
                weight.withUnsafeMutableBufferPointer { weight in
                    start.withUnsafeMutableBufferPointer { start in
                        // In place: `diagonal` is the previous column's j - 1, `below` this column's j - 1.
                        var diagonalCost: Float = .infinity, diagonalWeight: Float = 1, diagonalStart = frame
                        var belowCost: Float = .infinity, belowWeight: Float = 1, belowStart = frame
                        var nearest: Float = .infinity
                        for j in 0..<length {
                            var dot: Float = 0
                            let row = j * dimension
                            for k in 0..<dimension { dot += template[row + k] * vector[k] }
                            let d = 1 - dot
                            nearest = min(nearest, d)
                            let leftCost = cost[j], leftWeight = weight[j], leftStart = start[j]
                            var bestCost: Float, bestWeight: Float, bestStart: Int
                            if j == 0 {
                                bestCost = openBeginning || frame == 0 ? 2 * d : .infinity
                                bestWeight = 2
                                bestStart = frame
                            } else {
                                bestCost = diagonalCost + 2 * d
                                bestWeight = diagonalWeight + 2
                                bestStart = diagonalStart
                                if (belowCost + d) / (belowWeight + 1) < bestCost / bestWeight {
                                    bestCost = belowCost + d
                                    bestWeight = belowWeight + 1
                                    bestStart = belowStart
                                }
                            }
                            if (leftCost + d) / (leftWeight + 1) < bestCost / bestWeight {
                                bestCost = leftCost + d
                                bestWeight = leftWeight + 1
                                bestStart = leftStart
                            }
                            diagonalCost = leftCost
                            diagonalWeight = leftWeight
                            diagonalStart = leftStart
                            cost[j] = bestCost
                            weight[j] = bestWeight
                            start[j] = bestStart
                            belowCost = bestCost
                            belowWeight = bestWeight
                            belowStart = bestStart
                        }
                        return (cost[length - 1] / weight[length - 1], frame - start[length - 1] + 1, nearest)
                    }
                }
            }
        }
    }

    /// Forgets the stream.
    public mutating func reset() {
        for j in 0..<length {
            cost[j] = .infinity
            weight[j] = 1
            start[j] = 0
        }
        frames = 0
    }

    /// The mean distance of the best whole alignment of `a` with `b` (both scaled vectors of
    /// this dimension): how alike two takes are.
    public static func distance(_ a: [Float], _ b: [Float], dimension: Int) -> Float {
        var alignment = SubsequenceAlignment(template: a, dimension: dimension, openBeginning: false)
        let vectors = normalised(b, dimension: dimension)
        var last: Float = .infinity
        vectors.withUnsafeBufferPointer { vectors in
            for frame in 0..<(vectors.count / dimension) { last = alignment.next(vectors.baseAddress! + frame * dimension).distance }
        }
        return last
    }
}

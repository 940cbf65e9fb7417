/// The preallocated working memory of `SpectralFeatureExtractor`: one heap block carved into
/// named regions, so that per-frame analysis runs on raw pointers without allocating.
///
/// It is a class so the pointers live as long as the block; the extractor copies it before
/// writing when it is shared (copy-on-write), which keeps the extractor a value type.
final class SpectralAnalysisBuffers: @unchecked Sendable {
    static let windowLength = 512
    static let binCount = windowLength / 2 + 1

    let bandCount: Int
    private let block: UnsafeMutablePointer<Float>
    private let blockCount: Int
    /// The regions that hold state (as opposed to tables and per-window scratch), for `reset`.
    private let stateRange: Range<Int>

    /// Analysis window (periodic Hann).
    let window: UnsafeMutablePointer<Float>
    /// FFT input, then autocorrelation input (`windowLength` values).
    let scratch: UnsafeMutablePointer<Float>
    /// FFT output, real and imaginary parts (`binCount` values each).
    let real: UnsafeMutablePointer<Float>
    let imaginary: UnsafeMutablePointer<Float>
    /// Power spectrum of the newest window (`binCount`).
    let power: UnsafeMutablePointer<Float>
    /// The analysis window's own normalised autocorrelation at lags 0..<`binCount`.
    let windowCorrelation: UnsafeMutablePointer<Float>
    /// Per band: mean bin power (floored) and its level in dB.
    let bandPower: UnsafeMutablePointer<Float>
    let bandLevel: UnsafeMutablePointer<Float>

    // State from here on.
    /// The newest `windowLength` samples, oldest first.
    let history: UnsafeMutablePointer<Float>
    /// Per band: smoothed power, its running minimum, the noise estimate and how many frames
    /// have updated it, the percentile noise levels (dB), the previous level (dB), and the
    /// previous clean-speech power estimate of the decision-directed a-priori SNR.
    let smoothedPower: UnsafeMutablePointer<Float>
    let minimumPower: UnsafeMutablePointer<Float>
    let noise: UnsafeMutablePointer<Float>
    let noiseUpdates: UnsafeMutablePointer<Float>
    let medianLevel: UnsafeMutablePointer<Float>
    let lowQuantileLevel: UnsafeMutablePointer<Float>
    let previousLevel: UnsafeMutablePointer<Float>
    let previousSpeechEstimate: UnsafeMutablePointer<Float>

    init(bandCount: Int) {
        self.bandCount = bandCount
        let n = Self.windowLength, b = Self.binCount
        var offset = 0
        var regions: [Range<Int>] = []
        func take(_ count: Int) { regions.append(offset..<offset + count); offset += count }
        take(n); take(n); take(b); take(b); take(b); take(b)      // window, scratch, real, imaginary, power, windowCorrelation
        take(bandCount); take(bandCount)                          // bandPower, bandLevel
        let stateStart = offset
        take(n)                                                   // history
        for _ in 0..<8 { take(bandCount) }
        stateRange = stateStart..<offset
        let base = UnsafeMutablePointer<Float>.allocate(capacity: offset)
        base.initialize(repeating: 0, count: offset)
        block = base
        blockCount = offset
        let starts = regions.map { base + $0.lowerBound }
        window = starts[0]; scratch = starts[1]; real = starts[2]; imaginary = starts[3]; power = starts[4]
        windowCorrelation = starts[5]
        bandPower = starts[6]; bandLevel = starts[7]
        history = starts[8]
        smoothedPower = starts[9]; minimumPower = starts[10]; noise = starts[11]; noiseUpdates = starts[12]
        medianLevel = starts[13]; lowQuantileLevel = starts[14]; previousLevel = starts[15]
        previousSpeechEstimate = starts[16]
    }

    deinit { block.deallocate() }

    /// Zeroes the state regions, keeping the tables.
    func clearState() {
        (block + stateRange.lowerBound).update(repeating: 0, count: stateRange.count)
    }

    /// An independent copy with the same contents.
    func copy() -> SpectralAnalysisBuffers {
        let other = SpectralAnalysisBuffers(bandCount: bandCount)
        other.block.update(from: block, count: blockCount)
        return other
    }
}

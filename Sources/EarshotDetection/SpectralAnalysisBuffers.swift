/// The preallocated working memory of `SpectralFeatureExtractor`: one heap block, carved into
/// named regions, so that per-frame analysis runs on raw pointers without allocating.
///
/// It is a class so the pointers live as long as the buffers; the extractor copies it before
/// writing when the block is shared (copy-on-write), which keeps the extractor a value type.
final class SpectralAnalysisBuffers: @unchecked Sendable {
    static let windowLength = 512
    static let binCount = windowLength / 2 + 1

    let bandCount: Int
    private let block: UnsafeMutablePointer<Float>
    private let blockCount: Int

    /// The newest `windowLength` samples, oldest first.
    let history: UnsafeMutablePointer<Float>
    /// Analysis window (periodic Hann).
    let window: UnsafeMutablePointer<Float>
    /// FFT input, then autocorrelation input (`windowLength` values).
    let scratch: UnsafeMutablePointer<Float>
    /// FFT output, real and imaginary parts (`binCount` values each).
    let real: UnsafeMutablePointer<Float>
    let imaginary: UnsafeMutablePointer<Float>
    /// Power spectrum of the newest window (`binCount`).
    let power: UnsafeMutablePointer<Float>
    /// Per band (`bandCount` each): mean bin power, its smoothed value, its running minimum,
    /// the noise estimate, the smoothed speech-presence indicator, the a-priori SNR carried over
    /// from the previous frame, the previous log power, and the slow band-energy average.
    let bandPower: UnsafeMutablePointer<Float>
    let smoothedPower: UnsafeMutablePointer<Float>
    let minimumPower: UnsafeMutablePointer<Float>
    let noisePower: UnsafeMutablePointer<Float>
    let presence: UnsafeMutablePointer<Float>
    let previousSpeechEstimate: UnsafeMutablePointer<Float>
    let previousLogPower: UnsafeMutablePointer<Float>
    /// Noise power per bin, interpolated from the bands (`binCount`).
    let binNoise: UnsafeMutablePointer<Float>

    init(bandCount: Int) {
        self.bandCount = bandCount
        let n = Self.windowLength, b = Self.binCount
        let sizes = [n, n, n, b, b, b, bandCount, bandCount, bandCount, bandCount, bandCount, bandCount, bandCount, b]
        let total = sizes.reduce(0, +)
        let base = UnsafeMutablePointer<Float>.allocate(capacity: total)
        base.initialize(repeating: 0, count: total)
        blockCount = total
        block = base
        var offset = 0
        func region(_ count: Int) -> UnsafeMutablePointer<Float> {
            defer { offset += count }
            return base + offset
        }
        history = region(n)
        window = region(n)
        scratch = region(n)
        real = region(b)
        imaginary = region(b)
        power = region(b)
        bandPower = region(bandCount)
        smoothedPower = region(bandCount)
        minimumPower = region(bandCount)
        noisePower = region(bandCount)
        presence = region(bandCount)
        previousSpeechEstimate = region(bandCount)
        previousLogPower = region(bandCount)
        binNoise = region(b)
    }

    deinit { block.deallocate() }

    /// An independent copy with the same contents.
    func copy() -> SpectralAnalysisBuffers {
        let other = SpectralAnalysisBuffers(bandCount: bandCount)
        other.block.update(from: block, count: blockCount)
        return other
    }
}

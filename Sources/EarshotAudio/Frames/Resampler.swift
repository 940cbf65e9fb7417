#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Streaming band-limited sample-rate converter for mono audio, for any pair of integer rates.
///
/// Each output sample is a windowed-sinc interpolation of the input (see `ResamplingKernel`: stopband from
/// the lower Nyquist frequency, ≥ 80 dB down) taken at exactly the output sample's own time.
///
/// Delay handling: the filter is symmetric and centred on each output's time, so it adds no group delay.
/// Output sample `k` is the signal at time `k / outputRate`, the same instant as input sample
/// `k * inputRate / outputRate`; event times therefore do not shift through conversion. The cost is
/// latency, not offset: an output is only produced once `lookahead` input samples past its time have
/// arrived, and `flush()` supplies the missing tail. A stream of `n` inputs yields
/// `ceil(n * outputRate / inputRate)` outputs in total, so durations are kept too.
///
/// Equal rates pass samples through untouched (bit-exact, no latency).
public struct Resampler: Sendable {
    public let inputRate: Int
    public let outputRate: Int

    /// Output sample `k` lies at input position `k * downFactor / upFactor` (the rate ratio in lowest terms).
    private let upFactor: Int
    private let downFactor: Int
    /// Nil when the rates are equal.
    private let kernel: ResamplingKernel?

    /// Input samples not yet fully used; `history[0]` is input sample number `historyStart`.
    private var history: [Float] = []
    private var historyStart = 0
    private var inputCount = 0
    /// Position of the next output as whole input samples plus `nextRemainder / upFactor`.
    private var nextWhole = 0
    private var nextRemainder = 0

    /// A converter from `inputRate` to `outputRate` samples per second; both must be positive.
    public init(from inputRate: Int, to outputRate: Int) {
        precondition(inputRate > 0 && outputRate > 0, "sample rates must be positive")
        self.inputRate = inputRate
        self.outputRate = outputRate
        let divisor = Self.greatestCommonDivisor(inputRate, outputRate)
        upFactor = outputRate / divisor
        downFactor = inputRate / divisor
        if inputRate == outputRate {
            kernel = nil
        } else {
            kernel = ResamplingKernel(
                inputRate: inputRate, outputRate: outputRate,
                phaseCount: min(upFactor, ResamplingKernel.maximumPhaseCount)
            )
        }
        reset()
    }

    /// Input samples an output waits for beyond its own time before it can be produced.
    public var lookahead: Int { kernel?.lookahead ?? 0 }

    /// `lookahead` in seconds: how far output lags input in a live stream (timestamps are unaffected).
    public var latency: Double { Double(lookahead) / Double(inputRate) }

    /// Number of outputs a whole stream of `inputCount` samples produces, counting those from `flush()`.
    public func outputCount(forInputCount inputCount: Int) -> Int {
        (inputCount * upFactor + downFactor - 1) / downFactor
    }

    /// Converts the whole of `samples` at once.
    public static func resample(_ samples: [Float], from inputRate: Int, to outputRate: Int) -> [Float] {
        if inputRate == outputRate { return samples }
        var resampler = Resampler(from: inputRate, to: outputRate)
        var output: [Float] = []
        output.reserveCapacity(resampler.outputCount(forInputCount: samples.count))
        resampler.process(samples, appendingTo: &output)
        resampler.flush(appendingTo: &output)
        return output
    }

    /// Feeds the next stretch of the stream and returns the outputs that are now complete.
    public mutating func process(_ input: some Collection<Float>) -> [Float] {
        var output: [Float] = []
        process(input, appendingTo: &output)
        return output
    }

    /// Feeds the next stretch of the stream and appends the outputs that are now complete to `output`.
    public mutating func process(_ input: some Collection<Float>, appendingTo output: inout [Float]) {
        guard let kernel else {
            output.append(contentsOf: input)
            return
        }
        history.append(contentsOf: input)
        inputCount += input.count
        emit(kernel, into: &output)
        discardUsedHistory(kernel)
    }

    /// Ends the stream: returns the remaining outputs (treating the signal as silent after its end) and starts afresh.
    public mutating func flush() -> [Float] {
        var output: [Float] = []
        flush(appendingTo: &output)
        return output
    }

    /// Ends the stream: appends the remaining outputs to `output` and starts afresh.
    public mutating func flush(appendingTo output: inout [Float]) {
        guard let kernel else { return }
        // One more than the lookahead, because rounding to the nearest phase may move a position up one sample.
        history.append(contentsOf: repeatElement(0, count: kernel.lookahead + 1))
        emit(kernel, into: &output)
        reset()
    }

    private mutating func reset() {
        let pastTaps = (kernel.map { $0.tapCount - $0.lookahead - 1 }) ?? 0
        // The signal is silent before its start, so the first outputs' taps reaching back before sample 0 read zeros.
        history = [Float](repeating: 0, count: pastTaps)
        historyStart = -pastTaps
        inputCount = 0
        nextWhole = 0
        nextRemainder = 0
    }

    /// Computes every output whose taps are all in `history`, up to the end of the stream's own duration.
    private mutating func emit(_ kernel: ResamplingKernel, into output: inout [Float]) {
        let availableEnd = historyStart + history.count
        var whole = nextWhole
        var remainder = nextRemainder
        var ready = 0
        while whole < inputCount {
            let (position, _) = tapPosition(whole, remainder, kernel)
            if position + kernel.lookahead >= availableEnd { break }
            ready += 1
            advance(&whole, &remainder)
        }
        guard ready > 0 else { return }

        let first = output.count
        output.append(contentsOf: repeatElement(0, count: ready))
        whole = nextWhole
        remainder = nextRemainder
        let tapCount = kernel.tapCount
        let tapOffset = kernel.lookahead - tapCount + 1 - historyStart
        history.withUnsafeBufferPointer { samples in
            kernel.coefficients.withUnsafeBufferPointer { coefficients in
                output.withUnsafeMutableBufferPointer { destination in
                    for index in first..<first + ready {
                        let (position, phase) = tapPosition(whole, remainder, kernel)
                        destination[index] = Self.dotProduct(
                            samples.baseAddress! + (position + tapOffset),
                            coefficients.baseAddress! + phase * tapCount,
                            count: tapCount
                        )
                        advance(&whole, &remainder)
                    }
                }
            }
        }
        nextWhole = whole
        nextRemainder = remainder
    }

    /// The input sample at or before an output position and the filter row for the fraction after it.
    @inline(__always)
    private func tapPosition(_ whole: Int, _ remainder: Int, _ kernel: ResamplingKernel) -> (position: Int, phase: Int) {
        if kernel.phaseCount == upFactor { return (whole, remainder) }
        let phase = (remainder * kernel.phaseCount + upFactor / 2) / upFactor
        return phase == kernel.phaseCount ? (whole + 1, 0) : (whole, phase)
    }

    @inline(__always)
    private func advance(_ whole: inout Int, _ remainder: inout Int) {
        remainder += downFactor
        if remainder >= upFactor {
            whole += remainder / upFactor
            remainder %= upFactor
        }
    }

    private mutating func discardUsedHistory(_ kernel: ResamplingKernel) {
        let oldestNeeded = nextWhole + kernel.lookahead - kernel.tapCount + 1
        let used = min(oldestNeeded - historyStart, history.count)
        guard used > 0 else { return }
        history.removeFirst(used)
        historyStart += used
    }

    /// `count` must be a multiple of 8. Four independent accumulators keep the vector adds from waiting on each other.
    @inline(__always)
    private static func dotProduct(_ samples: UnsafePointer<Float>, _ taps: UnsafePointer<Float>, count: Int) -> Float {
        let samplesRaw = UnsafeRawPointer(samples)
        let tapsRaw = UnsafeRawPointer(taps)
        let width = MemoryLayout<SIMD8<Float>>.size
        @inline(__always) func product(_ offset: Int) -> SIMD8<Float> {
            samplesRaw.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                * tapsRaw.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
        }
        var sums = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
        var offset = 0
        let end = count * MemoryLayout<Float>.stride
        while offset + 4 * width <= end {
            sums.0 += product(offset)
            sums.1 += product(offset + width)
            sums.2 += product(offset + 2 * width)
            sums.3 += product(offset + 3 * width)
            offset += 4 * width
        }
        while offset < end {
            sums.0 += product(offset)
            offset += width
        }
        return ((sums.0 + sums.1) + (sums.2 + sums.3)).sum()
    }

    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}

/// Polyphase table of a Kaiser-windowed sinc low-pass filter, one row of taps per fractional input position.
///
/// The filter is designed once per rate pair: its stopband starts at the lower of the two Nyquist
/// frequencies (so nothing above the output's Nyquist aliases back, and no image survives upsampling),
/// its passband ends 14 % below it, and it attenuates the stopband by at least 80 dB.
struct ResamplingKernel: Sendable {
    static let stopbandAttenuation = 80.0
    /// Width of the transition band as a fraction of the lower Nyquist frequency.
    static let transitionFraction = 0.14
    /// More phases than this would only buy sub-nanosecond timing; positions are rounded to the nearest phase instead.
    static let maximumPhaseCount = 1024
    static let tapMultiple = 8

    /// Rows of taps; row `p` serves outputs that fall `p / phaseCount` of an input sample after an input sample.
    let phaseCount: Int
    /// Taps per row, a multiple of `tapMultiple` so rows can be read in whole SIMD vectors.
    let tapCount: Int
    /// Input samples after the output position that the last tap reaches.
    let lookahead: Int
    /// `phaseCount` rows of `tapCount` taps; tap `i` multiplies input sample `position + lookahead - tapCount + 1 + i`.
    let coefficients: [Float]

    init(inputRate: Int, outputRate: Int, phaseCount: Int) {
        let lowerNyquist = Double(min(inputRate, outputRate)) / 2
        let transition = Self.transitionFraction * lowerNyquist / Double(inputRate)
        let cutoff = (1 - Self.transitionFraction / 2) * lowerNyquist / Double(inputRate)
        // Kaiser's estimates of the filter length and window shape for the wanted attenuation.
        let length = (Self.stopbandAttenuation - 7.95) / (14.36 * transition)
        let halfWidth = length / 2
        let beta = 0.1102 * (Self.stopbandAttenuation - 8.7)
        let lookahead = Int(halfWidth.rounded(.up)) + 1
        let tapCount = (2 * lookahead + Self.tapMultiple - 1) / Self.tapMultiple * Self.tapMultiple

        var coefficients = [Float](repeating: 0, count: phaseCount * tapCount)
        let windowNorm = 1 / Self.besselI0(beta)
        var row = [Double](repeating: 0, count: tapCount)
        for phase in 0..<phaseCount {
            let fraction = Double(phase) / Double(phaseCount)
            for tap in 0..<tapCount {
                // Distance in input samples from the output position back to the input sample this tap reads.
                let distance = fraction + Double(tapCount - lookahead - 1 - tap)
                let relative = distance / halfWidth
                guard abs(relative) < 1 else { row[tap] = 0; continue }
                let window = Self.besselI0(beta * (1 - relative * relative).squareRoot()) * windowNorm
                let sinc = distance == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * distance) / (Double.pi * distance)
                row[tap] = sinc * window
            }
            // Every row gets unit DC gain, so a constant stays constant whatever the output's fractional position.
            let gain = 1 / row.reduce(0, +)
            for tap in 0..<tapCount {
                coefficients[phase * tapCount + tap] = Float(row[tap] * gain)
            }
        }
        self.phaseCount = phaseCount
        self.tapCount = tapCount
        self.lookahead = lookahead
        self.coefficients = coefficients
    }

    /// Zeroth-order modified Bessel function of the first kind, by its power series.
    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0
        var term = 1.0
        let quarterSquare = x * x / 4
        var k = 1.0
        while term > sum * 1e-17 {
            term *= quarterSquare / (k * k)
            sum += term
            k += 1
        }
        return sum
    }
}

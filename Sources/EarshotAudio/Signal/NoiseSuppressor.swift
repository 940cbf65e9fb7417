#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Takes a room's steady noise out of stretches of speech before a recogniser hears them:
/// a Wiener gain per frequency (its a-priori signal-to-noise ratio decided from the frame before,
/// Ephraim and Malah's "decision-directed" way), against the noise of the stretch's first
/// ``estimateFrames`` frames, which the detector heard as no speech (the pipeline's prefix
/// padding). 20 ms square-root Hann windows every 10 ms, added back together: the cleaned audio
/// comes one frame late. Every buffer is allocated once: a frame costs no allocation.
public struct NoiseSuppressor: Sendable {
    static let hop = AudioFrame.sampleCount
    static let windowSize = 2 * hop
    static let fftSize = 512
    /// Frames whose mean power spectrum is the stretch's noise: the quieter half of the first
    /// this many (the detector's onset can come late).
    public static let estimateFrames = 12
    /// How much of the last frame's cleaned power the a-priori ratio keeps. The textbook 0.98
    /// follows a sound's rise only frames late: the 10–30 ms bursts of stops ("k", "p", "t" of
    /// "computer") were held near the floor, and in noise the phrase lost most of its score there.
    /// 0.95 by `earshot-bench wake --tune` and `--tuning-voices` (the tuning voices' takes in six
    /// noise draws): at kws_threshold 1e-30, 152 of 168 woken with no false wake on the dev sets,
    /// against 147 with 0.98; 0.9 woke 155, but one dev-set utterance woke it at every
    /// threshold that woke more than 137.
    public static let tunedSmoothing: Float = 0.95
    let smoothing: Float
    /// The least a frequency is let through (amplitude; 0.2 by `earshot-bench wake --tune` on the
    /// tuning voices, against 0.1): full removal distorts speech more than it helps the recogniser.
    public var gainFloor: Float

    private let fft = RealFFT(size: fftSize)
    private let window: [Float]
    /// The last window of input, oldest first.
    private var recent: [Float]
    /// The second half of the last frame's cleaned window, waiting for the next one's first.
    private var pending: [Float]
    private var real: [Float]
    private var imaginary: [Float]
    private var scratchReal: [Float]
    private var scratchImaginary: [Float]
    private var frame: [Float]
    private var noise: [Float]
    private var cleanedPower: [Float]
    /// The stretch's first frames' spectra (power), then their samples, while the noise is measured.
    private var leadPower: [Float]
    private var leadSamples: [Float]
    private var leadLoudness: [Float]
    private var framesInStretch = 0
    /// Input samples not yet a whole frame.
    private var partial: [Float]

    public init(gainFloor: Float = 0.2, smoothing: Float = tunedSmoothing) {
        self.gainFloor = gainFloor
        self.smoothing = smoothing
        let bins = Self.fftSize / 2 + 1
        window = (0..<Self.windowSize).map { Float(sin(Double.pi * Double($0) / Double(Self.windowSize))) }
        recent = [Float](repeating: 0, count: Self.windowSize)
        pending = [Float](repeating: 0, count: Self.hop)
        real = [Float](repeating: 0, count: bins)
        imaginary = [Float](repeating: 0, count: bins)
        scratchReal = [Float](repeating: 0, count: Self.fftSize / 2)
        scratchImaginary = [Float](repeating: 0, count: Self.fftSize / 2)
        frame = [Float](repeating: 0, count: Self.fftSize)
        noise = [Float](repeating: 0, count: bins)
        cleanedPower = [Float](repeating: 0, count: bins)
        leadPower = [Float](repeating: 0, count: bins * Self.estimateFrames)
        leadSamples = [Float](repeating: 0, count: Self.hop * Self.estimateFrames)
        leadLoudness = [Float](repeating: 0, count: Self.estimateFrames)
        partial = []
        partial.reserveCapacity(Self.hop)
    }

    /// A new stretch begins: its first frames measure the noise anew.
    public mutating func begin() {
        for i in recent.indices { recent[i] = 0 }
        for i in pending.indices { pending[i] = 0 }
        for i in cleanedPower.indices { cleanedPower[i] = 0 }
        partial.removeAll(keepingCapacity: true)
        framesInStretch = 0
    }

    /// Cleans `samples` (16 kHz mono), appending what is ready to `output`: nothing while the
    /// stretch's noise is measured, then the measured frames at once, then one frame late.
    public mutating func process(_ samples: UnsafeBufferPointer<Int16>, into output: inout [Int16]) {
        for sample in samples {
            partial.append(Float(sample) / 32_768)
            guard partial.count == Self.hop else { continue }
            take(frameAt: framesInStretch, output: &output)
            partial.removeAll(keepingCapacity: true)
            framesInStretch += 1
        }
    }

    private mutating func take(frameAt index: Int, output: inout [Int16]) {
        let bins = Self.fftSize / 2 + 1
        guard index < Self.estimateFrames else {
            filter(partial, output: &output, emits: true)
            return
        }
        for i in 0..<Self.hop { leadSamples[index * Self.hop + i] = partial[i] }
        analyse(partial)
        var loudness: Float = 0
        for k in 0..<bins {
            let power = real[k] * real[k] + imaginary[k] * imaginary[k]
            leadPower[index * bins + k] = power
            loudness += power
        }
        leadLoudness[index] = loudness
        guard index == Self.estimateFrames - 1 else { return }
        measureNoise()
        for i in recent.indices { recent[i] = 0 }
        // The first frame's window is half the silence before the stretch: its output is dropped.
        for lead in 0..<Self.estimateFrames {
            for i in 0..<Self.hop { partial[i] = leadSamples[lead * Self.hop + i] }
            filter(partial, output: &output, emits: lead > 0)
        }
    }

    /// The noise: per frequency, the mean power of the quieter half of the lead frames (the first
    /// window, half silence, left out).
    private mutating func measureNoise() {
        let bins = Self.fftSize / 2 + 1
        for k in 0..<bins { noise[k] = 0 }
        // The loudest of the quieter half (the first frame left out), without sorting a copy.
        var bar: Float = 0
        for lead in 1..<Self.estimateFrames {
            var quieter = 0
            for other in 1..<Self.estimateFrames where leadLoudness[other] < leadLoudness[lead] { quieter += 1 }
            if quieter < (Self.estimateFrames - 1) / 2 { bar = max(bar, leadLoudness[lead]) }
        }
        var counted: Float = 0
        for lead in 1..<Self.estimateFrames where leadLoudness[lead] <= bar {
            counted += 1
            for k in 0..<bins { noise[k] += leadPower[lead * bins + k] }
        }
        for k in 0..<bins { noise[k] = max(noise[k] / counted, 1e-12) }
    }

    /// The windowed spectrum of the last window, `hop` being its newest samples.
    private mutating func analyse(_ hop: [Float]) {
        for i in 0..<Self.hop {
            recent[i] = recent[i + Self.hop]
            recent[i + Self.hop] = hop[i]
        }
        for i in 0..<Self.windowSize { frame[i] = recent[i] * window[i] }
        for i in Self.windowSize..<Self.fftSize { frame[i] = 0 }
        frame.withUnsafeBufferPointer { input in
            real.withUnsafeMutableBufferPointer { real in
                imaginary.withUnsafeMutableBufferPointer { imaginary in fft.forward(input, real: real, imaginary: imaginary) }
            }
        }
    }

    private mutating func filter(_ hop: [Float], output: inout [Int16], emits: Bool) {
        analyse(hop)
        let bins = Self.fftSize / 2 + 1
        let smoothing = smoothing, floor = gainFloor
        for k in 0..<bins {
            let power = real[k] * real[k] + imaginary[k] * imaginary[k]
            let posterior = power / noise[k]
            let prior = max(smoothing * cleanedPower[k] / noise[k] + (1 - smoothing) * max(posterior - 1, 0), 0.003)
            let gain = max(prior / (1 + prior), floor)
            cleanedPower[k] = gain * gain * power
            real[k] *= gain
            imaginary[k] *= gain
        }
        real.withUnsafeBufferPointer { real in
            imaginary.withUnsafeBufferPointer { imaginary in
                scratchReal.withUnsafeMutableBufferPointer { scratchReal in
                    scratchImaginary.withUnsafeMutableBufferPointer { scratchImaginary in
                        frame.withUnsafeMutableBufferPointer { output in
                            fft.inverse(
                                real: real, imaginary: imaginary, scratchReal: scratchReal, scratchImaginary: scratchImaginary, output: output
                            )
                        }
                    }
                }
            }
        }
        // The window's first half completes the frame before; its second half waits.
        for i in 0..<Self.hop {
            let sample = (pending[i] + frame[i] * window[i]) * 32_768
            if emits { output.append(Int16(max(min(sample.rounded(), 32_767), -32_768))) }
            pending[i] = frame[Self.hop + i] * window[Self.hop + i]
        }
    }
}

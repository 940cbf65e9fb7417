#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The spectrum of the newest `size` samples of a stream of 10 ms frames, windowed: the history,
/// the window and the FFT's buffers are allocated once, so a frame costs no allocation.
struct SlidingSpectrum: Sendable {
    let size: Int
    private let fft: RealFFT
    private let window: [Float]
    /// The newest `size` samples, oldest first.
    private var history: [Float]
    private var windowed: [Float]
    private var real: [Float]
    private var imaginary: [Float]

    /// - Parameter window: `size` weights, a power of two of them.
    init(window: [Float]) {
        let size = window.count
        self.size = size
        fft = RealFFT(size: size)
        self.window = window
        history = [Float](repeating: 0, count: size)
        windowed = [Float](repeating: 0, count: size)
        real = [Float](repeating: 0, count: size / 2 + 1)
        imaginary = [Float](repeating: 0, count: size / 2 + 1)
    }

    /// A periodic Hann window of `size` points.
    static func hann(size: Int) -> [Float] {
        (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
    }

    /// Appends `samples` to the history and transforms the windowed history.
    mutating func append(_ samples: borrowing [160 of Float]) {
        let size = self.size
        let kept = size - AudioFrame.sampleCount
        samples.span.withUnsafeBufferPointer { frame in
            history.withUnsafeMutableBufferPointer { history in
                for i in 0..<kept { history[i] = history[i + AudioFrame.sampleCount] }
                for i in 0..<AudioFrame.sampleCount { history[kept + i] = frame[i] }
            }
        }
        window.withUnsafeBufferPointer { window in
            history.withUnsafeBufferPointer { history in
                windowed.withUnsafeMutableBufferPointer { windowed in
                    for i in 0..<size { windowed[i] = window[i] * history[i] }
                }
            }
        }
        windowed.withUnsafeBufferPointer { input in
            real.withUnsafeMutableBufferPointer { real in
                imaginary.withUnsafeMutableBufferPointer { imaginary in
                    fft.forward(input, real: real, imaginary: imaginary)
                }
            }
        }
    }

    /// Calls `body` with the real and imaginary parts of the latest spectrum, bins 0...size/2.
    func withBins<Result>(
        _ body: (_ real: UnsafeBufferPointer<Float>, _ imaginary: UnsafeBufferPointer<Float>) -> Result
    ) -> Result {
        real.withUnsafeBufferPointer { real in
            imaginary.withUnsafeBufferPointer { imaginary in
                body(real, imaginary)
            }
        }
    }

    /// Forgets the history, as if only silence had come before.
    mutating func reset() {
        for i in history.indices { history[i] = 0 }
    }
}

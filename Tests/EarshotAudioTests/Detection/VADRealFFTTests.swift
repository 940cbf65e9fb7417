@testable import EarshotAudio
import Foundation
import Testing

@Suite struct VADRealFFTTests {
    /// Runs the FFT on `input` and returns (real, imaginary) per bin.
    private func transform(_ input: [Float]) -> ([Float], [Float]) {
        let fft = RealFFT(size: input.count)
        var real = [Float](repeating: 0, count: fft.binCount)
        var imaginary = [Float](repeating: 0, count: fft.binCount)
        input.withUnsafeBufferPointer { source in
            real.withUnsafeMutableBufferPointer { re in
                imaginary.withUnsafeMutableBufferPointer { im in fft.forward(source, real: re, imaginary: im) }
            }
        }
        return (real, imaginary)
    }

    @Test(arguments: [8, 16, 64, 512])
    func matchesANaiveDFT(size: Int) {
        let input = VADTestSupport.noise(count: size, amplitude: 1, seed: UInt64(size))
        let (real, imaginary) = transform(input)
        var worst = 0.0
        for k in 0...(size / 2) {
            var expectedReal = 0.0, expectedImaginary = 0.0
            for n in 0..<size {
                let angle = -2 * Double.pi * Double(k * n) / Double(size)
                expectedReal += Double(input[n]) * cos(angle)
                expectedImaginary += Double(input[n]) * sin(angle)
            }
            worst = max(worst, abs(Double(real[k]) - expectedReal), abs(Double(imaginary[k]) - expectedImaginary))
        }
        // Float rounding grows like log2(size) * sqrt(size) for inputs in -1...1.
        #expect(worst < 1e-4 * Double(size))
    }

    @Test func aCosineLandsInItsBin() {
        let size = 512, bin = 37
        let input = (0..<size).map { Float(cos(2 * Double.pi * Double(bin * $0) / Double(size))) }
        let (real, imaginary) = transform(input)
        #expect(abs(real[bin] - Float(size / 2)) < 1e-2)
        for k in 0...(size / 2) where k != bin {
            #expect(abs(real[k]) < 1e-2 && abs(imaginary[k]) < 1e-2, "bin \(k)")
        }
    }

    @Test(arguments: [8, 64, 512])
    func theInverseGivesTheSignalBack(size: Int) {
        let input = VADTestSupport.noise(count: size, amplitude: 1, seed: UInt64(size) + 1)
        let fft = RealFFT(size: size)
        let (real, imaginary) = transform(input)
        var scratchReal = [Float](repeating: 0, count: size / 2), scratchImaginary = scratchReal
        var output = [Float](repeating: 0, count: size)
        real.withUnsafeBufferPointer { re in
            imaginary.withUnsafeBufferPointer { im in
                scratchReal.withUnsafeMutableBufferPointer { sr in
                    scratchImaginary.withUnsafeMutableBufferPointer { si in
                        output.withUnsafeMutableBufferPointer { fft.inverse(real: re, imaginary: im, scratchReal: sr, scratchImaginary: si, output: $0) }
                    }
                }
            }
        }
        let worst = zip(input, output).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-5)
    }
}

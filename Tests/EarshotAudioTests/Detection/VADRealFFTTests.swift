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

    /// The vector stages and the four-at-a-time split compute, lane by lane, what one butterfly
    /// at a time does: the spectrum is the same to the bit, so the detector's verdicts are too.
    @Test(arguments: [8, 16, 32, 64, 128, 256, 512, 1024, 4096])
    func isBitForBitTheScalarTransform(size: Int) {
        let input = VADTestSupport.noise(count: size, amplitude: 1, seed: UInt64(size) + 7)
        let (real, imaginary) = transform(input)
        let (expectedReal, expectedImaginary) = Self.scalarTransform(input)
        #expect(real.map(\.bitPattern) == expectedReal.map(\.bitPattern))
        #expect(imaginary.map(\.bitPattern) == expectedImaginary.map(\.bitPattern))
    }

    /// The textbook transform, one butterfly at a time: a half-length complex radix-2 FFT over
    /// even and odd samples, then the split into the real signal's bins.
    static func scalarTransform(_ input: [Float]) -> ([Float], [Float]) {
        let size = input.count, half = size / 2
        var bits = 0
        while 1 << bits < half { bits += 1 }
        var re = [Float](repeating: 0, count: half + 1), im = re
        for index in 0..<half {
            var reversed = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
            re[index] = input[2 * reversed]
            im[index] = input[2 * reversed + 1]
        }
        var span = 1
        while span < half {
            let stride = half / (span * 2)
            for offset in 0..<span {
                let c = Float(cos(-2 * Double.pi * Double(offset * stride) / Double(half)))
                let s = Float(sin(-2 * Double.pi * Double(offset * stride) / Double(half)))
                for a in Swift.stride(from: offset, to: half, by: span * 2) {
                    let b = a + span
                    let tr = re[b] * c - im[b] * s, ti = re[b] * s + im[b] * c
                    (re[a], im[a], re[b], im[b]) = (re[a] + tr, im[a] + ti, re[a] - tr, im[a] - ti)
                }
            }
            span *= 2
        }
        let z0r = re[0], z0i = im[0]
        (re[0], im[0], re[half], im[half]) = (z0r + z0i, 0, z0r - z0i, 0)
        for k in 1...(half / 2) {
            let m = half - k
            let er = 0.5 * (re[k] + re[m]), ei = 0.5 * (im[k] - im[m])
            let or = 0.5 * (im[k] + im[m]), oi = -0.5 * (re[k] - re[m])
            let c = Float(cos(-2 * Double.pi * Double(k) / Double(size))), s = Float(sin(-2 * Double.pi * Double(k) / Double(size)))
            let tr = or * c - oi * s, ti = or * s + oi * c
            (re[k], im[k]) = (er + tr, ei + ti)
            if m != k { (re[m], im[m]) = (er - tr, ti - ei) }
        }
        return (re, im)
    }
}

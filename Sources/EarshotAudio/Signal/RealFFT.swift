#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Forward FFT of a real signal whose length is a power of two, computed as a half-length
/// complex radix-2 FFT followed by the usual split step.
///
/// All tables are built in `init`; `forward` touches no heap memory.
struct RealFFT: Sendable {
    /// Number of real input samples.
    let size: Int
    /// Number of output bins, `size / 2 + 1` (DC up to Nyquist).
    var binCount: Int { size / 2 + 1 }

    private let half: Int
    private let bitReversed: [Int32]
    /// e^{-2πik/half}, k < half/2: twiddles of the half-length complex FFT.
    private let stageCos: [Float]
    private let stageSin: [Float]
    /// e^{-2πik/size}, k <= size/4: twiddles of the split step.
    private let splitCos: [Float]
    private let splitSin: [Float]

    init(size: Int) {
        precondition(size >= 8 && size & (size - 1) == 0, "RealFFT size must be a power of two >= 8")
        self.size = size
        half = size / 2
        var bits = 0
        while 1 << bits < half { bits += 1 }
        bitReversed = (0..<half).map { index in
            var reversed = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
            return Int32(reversed)
        }
        let halfCount = half
        stageCos = (0..<halfCount / 2).map { Float(cos(-2 * Double.pi * Double($0) / Double(halfCount))) }
        stageSin = (0..<halfCount / 2).map { Float(sin(-2 * Double.pi * Double($0) / Double(halfCount))) }
        splitCos = (0...size / 4).map { Float(cos(-2 * Double.pi * Double($0) / Double(size))) }
        splitSin = (0...size / 4).map { Float(sin(-2 * Double.pi * Double($0) / Double(size))) }
    }

    /// X[k] = Σ x[n] e^{-2πikn/size} for k in 0...size/2.
    /// `input` holds `size` samples; `real` and `imaginary` hold at least `binCount` values.
    func forward(
        _ input: UnsafeBufferPointer<Float>,
        real: UnsafeMutableBufferPointer<Float>,
        imaginary: UnsafeMutableBufferPointer<Float>
    ) {
        precondition(input.count >= size && real.count >= binCount && imaginary.count >= binCount)
        let half = self.half
        // Pack even samples as real parts and odd samples as imaginary parts, in bit-reversed order.
        bitReversed.withUnsafeBufferPointer { order in
            for index in 0..<half {
                let source = Int(order[index]) * 2
                real[index] = input[source]
                imaginary[index] = input[source + 1]
            }
        }
        transformInPlace(real: real, imaginary: imaginary)
        split(real: real, imaginary: imaginary)
    }

    /// x[n] = Σ X[k] e^{2πikn/size} / size for n < size: the inverse of ``forward``, from bins
    /// 0...size/2 (a real signal's other bins are their conjugates). `scratchReal` and
    /// `scratchImaginary` hold at least `size / 2` values each; `output` at least `size`.
    func inverse(
        real: UnsafeBufferPointer<Float>, imaginary: UnsafeBufferPointer<Float>,
        scratchReal: UnsafeMutableBufferPointer<Float>, scratchImaginary: UnsafeMutableBufferPointer<Float>,
        output: UnsafeMutableBufferPointer<Float>
    ) {
        precondition(real.count >= binCount && imaginary.count >= binCount && output.count >= size)
        precondition(scratchReal.count >= half && scratchImaginary.count >= half)
        let half = self.half, quarter = size / 4
        bitReversed.withUnsafeBufferPointer { order in
            splitCos.withUnsafeBufferPointer { wr in
                splitSin.withUnsafeBufferPointer { wi in
                    for k in 0..<half {
                        let m = half - k
                        // Undoes the split: E = (X[k] + conj X[m]) / 2, O = (X[k] - conj X[m]) / (2 W^k),
                        // and the half-length spectrum Z = E + iO, stored conjugated for the forward butterflies.
                        let er = 0.5 * (real[k] + real[m]), ei = 0.5 * (imaginary[k] - imaginary[m])
                        let dr = 0.5 * (real[k] - real[m]), di = 0.5 * (imaginary[k] + imaginary[m])
                        // W^k = e^{-2πik/size}; past a quarter, W^k = -conj W^{half-k}.
                        let c = k <= quarter ? wr[k] : -wr[m], s = k <= quarter ? wi[k] : wi[m]
                        // O = D conj(W^k), as |W^k| = 1.
                        let or = dr * c + di * s, oi = di * c - dr * s
                        let target = Int(order[k])
                        scratchReal[target] = er - oi
                        scratchImaginary[target] = -(ei + or)
                    }
                }
            }
        }
        transformInPlace(real: scratchReal, imaginary: scratchImaginary)
        // z = conj(DFT(conj Z)) / half holds the even samples as real parts, the odd as imaginary.
        let scale = 1 / Float(half)
        for n in 0..<half {
            output[2 * n] = scratchReal[n] * scale
            output[2 * n + 1] = -scratchImaginary[n] * scale
        }
    }

    /// Iterative decimation-in-time butterflies over bit-reversed data (first `half` values).
    private func transformInPlace(real: UnsafeMutableBufferPointer<Float>, imaginary: UnsafeMutableBufferPointer<Float>) {
        let half = self.half
        stageCos.withUnsafeBufferPointer { wr in
            stageSin.withUnsafeBufferPointer { wi in
                var span = 1
                while span < half {
                    let stride = half / (span * 2)
                    // Each stage's butterflies are independent, so their order changes no result:
                    // while groups outnumber the butterflies in one, a twiddle is read once and
                    // applied down all the groups.
                    if span < stride {
                        for offset in 0..<span {
                            let c = wr[offset * stride], s = wi[offset * stride]
                            var a = offset
                            while a < half {
                                Self.butterfly(real, imaginary, a, a + span, c, s)
                                a += span * 2
                            }
                        }
                    } else {
                        var start = 0
                        while start < half {
                            for offset in 0..<span {
                                Self.butterfly(real, imaginary, start + offset, start + offset + span, wr[offset * stride], wi[offset * stride])
                            }
                            start += span * 2
                        }
                    }
                    span *= 2
                }
            }
        }
    }

    @inline(__always)
    private static func butterfly(
        _ real: UnsafeMutableBufferPointer<Float>, _ imaginary: UnsafeMutableBufferPointer<Float>,
        _ a: Int, _ b: Int, _ c: Float, _ s: Float
    ) {
        let br = real[b], bi = imaginary[b]
        let tr = br * c - bi * s
        let ti = br * s + bi * c
        let ar = real[a], ai = imaginary[a]
        real[a] = ar + tr
        imaginary[a] = ai + ti
        real[b] = ar - tr
        imaginary[b] = ai - ti
    }

    /// Turns the half-length complex spectrum Z into the real signal's spectrum X, in place:
    /// X[k] = (Z[k] + Z*[h-k]) / 2 - i e^{-2πik/size} (Z[k] - Z*[h-k]) / 2, with h = size/2.
    private func split(real: UnsafeMutableBufferPointer<Float>, imaginary: UnsafeMutableBufferPointer<Float>) {
        let half = self.half
        let z0r = real[0], z0i = imaginary[0]
        real[0] = z0r + z0i
        imaginary[0] = 0
        real[half] = z0r - z0i
        imaginary[half] = 0
        splitCos.withUnsafeBufferPointer { wr in
            splitSin.withUnsafeBufferPointer { wi in
                var k = 1
                while k <= half / 2 {
                    let m = half - k
                    let zkr = real[k], zki = imaginary[k]
                    let zmr = real[m], zmi = imaginary[m]
                    // Even part E = (Z[k] + conj Z[m]) / 2, odd part O = (Z[k] - conj Z[m]) / (2i).
                    let er = 0.5 * (zkr + zmr), ei = 0.5 * (zki - zmi)
                    let or = 0.5 * (zki + zmi), oi = -0.5 * (zkr - zmr)
                    let c = wr[k], s = wi[k]
                    // X[k] = E + W^k O.
                    let tr = or * c - oi * s, ti = or * s + oi * c
                    real[k] = er + tr
                    imaginary[k] = ei + ti
                    if m != k {
                        // X[m] = conj(E) + W^m conj(O) = conj(E - W^k O), since W^m = -conj(W^k).
                        real[m] = er - tr
                        imaginary[m] = ti - ei
                    }
                    k += 1
                }
            }
        }
    }
}

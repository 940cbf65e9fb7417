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
    /// The twiddles of each stage whose groups hold at least `lanes` butterflies, in the order
    /// its butterflies use them, stage after stage: those stages go `lanes` butterflies at a time.
    private let wideStageCos: [Float]
    private let wideStageSin: [Float]

    /// Butterflies computed together by the vector stages.
    private static let lanes = 8
    private typealias Lanes = SIMD8<Float>

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
        var wideCos: [Float] = [], wideSin: [Float] = []
        var span = Self.lanes
        while span < halfCount {
            let stride = halfCount / (span * 2)
            for offset in 0..<span {
                wideCos.append(stageCos[offset * stride])
                wideSin.append(stageSin[offset * stride])
            }
            span *= 2
        }
        wideStageCos = wideCos
        wideStageSin = wideSin
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
    /// The stages whose groups hold fewer than `lanes` butterflies go one butterfly at a time,
    /// the others `lanes` at a time, each lane computing exactly what the single one would.
    private func transformInPlace(real: UnsafeMutableBufferPointer<Float>, imaginary: UnsafeMutableBufferPointer<Float>) {
        let half = self.half
        var span = 1
        stageCos.withUnsafeBufferPointer { wr in
            stageSin.withUnsafeBufferPointer { wi in
                if half >= 8, let re = real.baseAddress, let im = imaginary.baseAddress {
                    Self.firstThreeStages(re, im, half: half, wr, wi)
                    span = 8
                }
                while span < min(Self.lanes, half) {
                    let stride = half / (span * 2)
                    // Each stage's butterflies are independent, so their order changes no result:
                    // a twiddle is read once and applied down all the groups.
                    for offset in 0..<span {
                        let c = wr[offset * stride], s = wi[offset * stride]
                        var a = offset
                        while a < half {
                            Self.butterfly(real, imaginary, a, a + span, c, s)
                            a += span * 2
                        }
                    }
                    span *= 2
                }
            }
        }
        guard span < half, let re = real.baseAddress, let im = imaginary.baseAddress else { return }
        wideStageCos.withUnsafeBufferPointer { wr in
            wideStageSin.withUnsafeBufferPointer { wi in
                guard let wr = wr.baseAddress, let wi = wi.baseAddress else { return }
                var twiddles = 0
                while span < half {
                    var start = 0
                    while start < half {
                        var offset = 0
                        while offset < span {
                            let a = start + offset, b = a + span
                            let c = Self.load(wr + twiddles + offset), s = Self.load(wi + twiddles + offset)
                            let br = Self.load(re + b), bi = Self.load(im + b)
                            let tr = br * c - bi * s
                            let ti = br * s + bi * c
                            let ar = Self.load(re + a), ai = Self.load(im + a)
                            Self.store(ar + tr, re + a)
                            Self.store(ai + ti, im + a)
                            Self.store(ar - tr, re + b)
                            Self.store(ai - ti, im + b)
                            offset += Self.lanes
                        }
                        start += span * 2
                    }
                    twiddles += span
                    span *= 2
                }
            }
        }
    }

    /// The stages of spans 1, 2 and 4 on each block of 8 values at once, in registers: the values
    /// each butterfly pairs are gathered into the lanes of two vectors (`a`, `b`), in whatever
    /// order the stage leaves them, and put back in place after the third.
    private static func firstThreeStages(
        _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, half: Int,
        _ wr: UnsafeBufferPointer<Float>, _ wi: UnsafeBufferPointer<Float>
    ) {
        typealias Four = SIMD4<Float>
        let second = half / 4, third = half / 8
        let c1 = Four(repeating: wr[0]), s1 = Four(repeating: wi[0])
        let c2 = Four(wr[0], wr[second], wr[0], wr[second]), s2 = Four(wi[0], wi[second], wi[0], wi[second])
        let c3 = Four(wr[0], wr[third], wr[2 * third], wr[3 * third])
        let s3 = Four(wi[0], wi[third], wi[2 * third], wi[3 * third])
        @inline(__always)
        func butterflies(_ ar: inout Four, _ ai: inout Four, _ br: inout Four, _ bi: inout Four, _ c: Four, _ s: Four) {
            let tr = br * c - bi * s
            let ti = br * s + bi * c
            (br, bi) = (ar - tr, ai - ti)
            (ar, ai) = (ar + tr, ai + ti)
        }
        var block = 0
        while block < half {
            let r = load(re + block), i = load(im + block)
            // Span 1: 0-1, 2-3, 4-5, 6-7.
            var ar = r.evenHalf, ai = i.evenHalf, br = r.oddHalf, bi = i.oddHalf
            butterflies(&ar, &ai, &br, &bi, c1, s1)
            // Span 2: 0-2, 1-3, 4-6, 5-7; `a` held 0, 2, 4, 6 and `b` 1, 3, 5, 7.
            var ar2 = Four(ar[0], br[0], ar[2], br[2]), ai2 = Four(ai[0], bi[0], ai[2], bi[2])
            var br2 = Four(ar[1], br[1], ar[3], br[3]), bi2 = Four(ai[1], bi[1], ai[3], bi[3])
            butterflies(&ar2, &ai2, &br2, &bi2, c2, s2)
            // Span 4: 0-4 … 3-7; `a` held 0, 1, 4, 5 and `b` 2, 3, 6, 7.
            var ar3 = Four(ar2[0], ar2[1], br2[0], br2[1]), ai3 = Four(ai2[0], ai2[1], bi2[0], bi2[1])
            var br3 = Four(ar2[2], ar2[3], br2[2], br2[3]), bi3 = Four(ai2[2], ai2[3], bi2[2], bi2[3])
            butterflies(&ar3, &ai3, &br3, &bi3, c3, s3)
            store(Lanes(lowHalf: ar3, highHalf: br3), re + block)
            store(Lanes(lowHalf: ai3, highHalf: bi3), im + block)
            block += 8
        }
    }

    @inline(__always)
    private static func load(_ pointer: UnsafePointer<Float>) -> Lanes {
        UnsafeRawPointer(pointer).loadUnaligned(as: Lanes.self)
    }

    @inline(__always)
    private static func load4(_ pointer: UnsafePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD4<Float>.self)
    }

    @inline(__always)
    private static func store<Vector: SIMD>(_ value: Vector, _ pointer: UnsafeMutablePointer<Float>) where Vector.Scalar == Float {
        UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: Vector.self)
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
                // Four pairs at a time while every k of them stays below every m; the pairs are
                // independent, and each lane computes what the loop below does for its pair.
                if let re = real.baseAddress, let im = imaginary.baseAddress, let cosines = wr.baseAddress, let sines = wi.baseAddress {
                    typealias Four = SIMD4<Float>
                    func reversed(_ v: Four) -> Four { Four(v[3], v[2], v[1], v[0]) }
                    while k + 3 < half - k - 3 {
                        let m = half - k - 3
                        let zkr = Self.load4(re + k), zki = Self.load4(im + k)
                        let zmr = reversed(Self.load4(re + m)), zmi = reversed(Self.load4(im + m))
                        let er = 0.5 * (zkr + zmr), ei = 0.5 * (zki - zmi)
                        let or = 0.5 * (zki + zmi), oi = -0.5 * (zkr - zmr)
                        let c = Self.load4(cosines + k), s = Self.load4(sines + k)
                        let tr = or * c - oi * s, ti = or * s + oi * c
                        Self.store(er + tr, re + k)
                        Self.store(ei + ti, im + k)
                        Self.store(reversed(er - tr), re + m)
                        Self.store(reversed(ti - ei), im + m)
                        k += 4
                    }
                }
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

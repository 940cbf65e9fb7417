#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Mel-frequency cepstral coefficients of a stream of 10 ms frames, one vector per frame, each
/// measured on the 32 ms Hann window ending with that frame. The coefficients leave out c0 (the
/// frame's loudness), so the same words said louder or softer give the same vectors; a floor
/// below the frame's own level keeps steady noise in quiet bands from reshaping a frame of
/// speech. Every buffer is allocated once: a frame costs no allocation.
///
/// Heard live (``tracksNoise``), each band's quietest level since the reset stands for the
/// room's steady noise and is taken out (twice over, as the quietest is below the mean), so
/// speech in a noisy room looks like the same speech enrolled in a quiet one: the stretches the
/// spotter hears begin with the 300 ms before the detector heard speech.
public struct MelCepstrum: Sendable {
    /// Coefficients per frame: c1…c12.
    public static let dimension = 12
    static let filterCount = 24
    static let windowSize = 512
    static let lowestHz = 100.0
    static let highestHz = 7_000.0
    static let absoluteFloor: Float = 1e-9

    /// How far below the frame's loudest band a band counts as no quieter (dB).
    public let floorBelowPeakDB: Float
    private var spectrum = SlidingSpectrum(window: SlidingSpectrum.hann(size: windowSize))
    /// Each filter's first bin and its weights.
    private let filterStart: [Int]
    private let filterWeights: [[Float]]
    /// DCT-II rows for c1…c12.
    private let cosines: [Float]
    private var energies = [Float](repeating: 0, count: filterCount)
    private let relativeFloor: Float
    public let tracksNoise: Bool
    /// How many times its quietest level is taken out of each band.
    static let noiseOverSubtraction: Float = 2
    /// Frames before the window is full of audio heard since the reset (not counted as noise).
    static let warmUpFrames = 3
    private var noise = [Float](repeating: .infinity, count: filterCount)
    private var framesHeard = 0

    public init(floorBelowPeakDB: Float = 20, tracksNoise: Bool = false) {
        self.floorBelowPeakDB = floorBelowPeakDB
        self.tracksNoise = tracksNoise
        relativeFloor = Float(pow(10, -Double(floorBelowPeakDB) / 10))
        let binCount = Self.windowSize / 2 + 1
        func mel(_ hz: Double) -> Double { 2595 * log10(1 + hz / 700) }
        func hz(_ mel: Double) -> Double { 700 * (pow(10, mel / 2595) - 1) }
        let edges = (0...(Self.filterCount + 1)).map { index -> Double in
            let low = mel(Self.lowestHz), high = mel(Self.highestHz)
            return hz(low + (high - low) * Double(index) / Double(Self.filterCount + 1)) * Double(Self.windowSize) / 16_000
        }
        var starts: [Int] = [], weights: [[Float]] = []
        for filter in 0..<Self.filterCount {
            let left = edges[filter], centre = edges[filter + 1], right = edges[filter + 2]
            let first = Int(left.rounded(.up)), last = min(Int(right.rounded(.down)), binCount - 1)
            starts.append(first)
            weights.append((first...max(first, last)).map { bin in
                let position = Double(bin)
                let weight = position <= centre ? (position - left) / (centre - left) : (right - position) / (right - centre)
                return Float(max(0, weight))
            })
        }
        filterStart = starts
        filterWeights = weights
        var table: [Float] = []
        for coefficient in 1...Self.dimension {
            for filter in 0..<Self.filterCount {
                table.append(Float(cos(Double.pi * Double(coefficient) * (Double(filter) + 0.5) / Double(Self.filterCount))))
            }
        }
        cosines = table
    }

    /// Appends `frame` and writes its coefficients to `output` from `offset` (``dimension`` values).
    public mutating func next(_ frame: borrowing [160 of Float], into output: inout [Float], at offset: Int = 0) {
        spectrum.append(frame)
        framesHeard += 1
        let subtractsNoise = tracksNoise && framesHeard > Self.warmUpFrames
        var peak: Float = Self.absoluteFloor
        spectrum.withBins { real, imaginary in
            energies.withUnsafeMutableBufferPointer { energies in
                for filter in 0..<Self.filterCount {
                    var sum: Float = 0
                    let start = filterStart[filter]
                    filterWeights[filter].withUnsafeBufferPointer { weights in
                        for (offset, weight) in weights.enumerated() {
                            let bin = start + offset
                            sum += weight * (real[bin] * real[bin] + imaginary[bin] * imaginary[bin])
                        }
                    }
                    if subtractsNoise {
                        noise[filter] = min(noise[filter], sum)
                        sum -= Self.noiseOverSubtraction * noise[filter]
                    }
                    energies[filter] = sum
                    peak = max(peak, sum)
                }
                let floor = max(peak * relativeFloor, Self.absoluteFloor)
                for filter in 0..<Self.filterCount { energies[filter] = log10(max(energies[filter], floor)) }
            }
        }
        energies.withUnsafeBufferPointer { energies in
            cosines.withUnsafeBufferPointer { cosines in
                for coefficient in 0..<Self.dimension {
                    var sum: Float = 0
                    for filter in 0..<Self.filterCount { sum += cosines[coefficient * Self.filterCount + filter] * energies[filter] }
                    output[offset + coefficient] = sum
                }
            }
        }
    }

    /// Forgets the audio heard, as if silence had come before.
    public mutating func reset() {
        spectrum.reset()
        framesHeard = 0
        for filter in noise.indices { noise[filter] = .infinity }
    }

    /// The coefficients of every frame of `samples` (16 kHz), heard from silence: ``dimension``
    /// values a frame, frame after frame.
    public static func features(of samples: [Float], floorBelowPeakDB: Float = 20) -> [Float] {
        var cepstrum = MelCepstrum(floorBelowPeakDB: floorBelowPeakDB)
        let clip = AudioClip(samples: samples)
        var features = [Float](repeating: 0, count: clip.frameCount * dimension)
        for frame in clip.frames { cepstrum.next(frame.samples, into: &features, at: frame.index * dimension) }
        return features
    }
}

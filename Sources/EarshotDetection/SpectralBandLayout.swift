import Foundation

/// How `SpectralFeatureExtractor` groups FFT bins into bands: equally spaced on the mel scale
/// from 62.5 Hz to 8 kHz, each at least one bin wide.
struct SpectralBandLayout: Sendable {
    /// Band j covers bins start[j]..<end[j].
    let start: [Int]
    let end: [Int]
    let width: [Float]
    /// Centre frequency of each band, Hz.
    let centre: [Float]
    /// The band each bin takes its noise estimate from (bins below the first band use the first).
    let bandOfBin: [Int]
    /// Bands centred in 200–4000 Hz, where speech carries most of its energy.
    let speechBands: [Int]
    /// Bands grouped into 60–500, 500–1500, 1500–3500 and 3500–8000 Hz, for sub-band modulation.
    let subbands: [[Int]]

    init(bandCount: Int, binCount: Int, sampleRate: Double) {
        func mel(_ hz: Double) -> Double { 2595 * log10(1 + hz / 700) }
        func hz(_ mel: Double) -> Double { 700 * (pow(10, mel / 2595) - 1) }
        let binHz = sampleRate / Double(2 * (binCount - 1))
        var edges: [Int] = []
        for i in 0...bandCount {
            let f = hz(mel(62.5) + (mel(8000) - mel(62.5)) * Double(i) / Double(bandCount))
            var bin = Int((f / binHz).rounded())
            if let last = edges.last, bin <= last { bin = last + 1 }
            edges.append(min(bin, binCount - 1))
        }
        start = Array(edges.dropLast())
        end = Array(edges.dropFirst())
        width = (0..<bandCount).map { Float(edges[$0 + 1] - edges[$0]) }
        let centre = (0..<bandCount).map { Float(Double(edges[$0] + edges[$0 + 1] - 1) * 0.5 * binHz) }
        self.centre = centre
        var bandOfBin = [Int](repeating: 0, count: binCount)
        for j in 0..<bandCount {
            for k in edges[j]..<edges[j + 1] { bandOfBin[k] = j }
        }
        for k in edges[bandCount]..<binCount { bandOfBin[k] = bandCount - 1 }
        self.bandOfBin = bandOfBin
        func bands(from low: Float, to high: Float) -> [Int] {
            (0..<bandCount).filter { centre[$0] >= low && centre[$0] < high }
        }
        speechBands = bands(from: 200, to: 4000)
        subbands = [bands(from: 60, to: 500), bands(from: 500, to: 1500), bands(from: 1500, to: 3500), bands(from: 3500, to: 8000)]
    }
}

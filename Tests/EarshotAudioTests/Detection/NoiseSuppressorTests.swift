@testable import EarshotAudio
import Foundation
import Testing

@Suite struct NoiseSuppressorTests {
    /// 0.3 s of white noise, then the noise with a 1 kHz tone 12 dB above it, as 16-bit samples.
    static func toneInNoise(seconds: Double = 1.3) -> [Int16] {
        let count = Int(seconds * 16_000), toneStart = 4_800
        let noise = VADTestSupport.noise(count: count, amplitude: 0.02, seed: 3)
        return (0..<count).map { n in
            let tone = n >= toneStart ? 0.066 * sin(2 * Double.pi * 1_000 * Double(n) / 16_000) : 0
            return Int16((Double(noise[n]) + tone) * 32_768)
        }
    }

    static func cleaned(_ samples: [Int16], by suppressor: inout NoiseSuppressor, frameSize: Int = 160) -> [Int16] {
        var output: [Int16] = []
        var start = 0
        suppressor.begin()
        while start < samples.count {
            let end = min(start + frameSize, samples.count)
            samples[start..<end].withUnsafeBufferPointer { suppressor.process($0, into: &output) }
            start = end
        }
        return output
    }

    static func power(_ samples: ArraySlice<Int16>) -> Double {
        samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
    }

    @Test func takesOutTheNoiseAndKeepsTheTone() {
        let input = Self.toneInNoise()
        var suppressor = NoiseSuppressor()
        let output = Self.cleaned(input, by: &suppressor)
        // One frame late: output sample n is input sample n + 160 less the frame before the stretch.
        #expect(output.count == input.count - 160)
        let noiseBefore = Self.power(input[800..<4_800]), noiseAfter = Self.power(output[640..<4_640])
        // The gain floor (0.2) allows at most 14 dB; following rises quickly lets some of the
        // noise's own random peaks through (about 11 dB).
        #expect(10 * log10(noiseBefore / noiseAfter) > 10)
        // The tone's stretch keeps its loudness within 1 dB.
        let toneBefore = Self.power(input[8_000..<20_000]), toneAfter = Self.power(output[7_840..<19_840])
        #expect(abs(10 * log10(toneBefore / toneAfter)) < 1)
    }

    /// A stop's burst: 20 ms of broadband sound 10 dB above the noise, in the middle of noise alone.
    @Test func keepsAShortBurstRisingOutOfTheNoise() {
        let count = 16_000, burstStart = 8_000, burstLength = 320
        let noise = VADTestSupport.noise(count: count, amplitude: 0.02, seed: 5)
        let burst = VADTestSupport.noise(count: burstLength, amplitude: 0.063, seed: 6)
        let input = (0..<count).map { n in
            let added = (burstStart..<burstStart + burstLength).contains(n) ? burst[n - burstStart] : 0
            return Int16((noise[n] + added) * 32_768)
        }
        var tuned = NoiseSuppressor(), textbook = NoiseSuppressor(smoothing: 0.98)
        let kept = Self.power(Self.cleaned(input, by: &tuned)[burstStart - 160..<burstStart - 160 + burstLength])
        let keptByTextbook = Self.power(Self.cleaned(input, by: &textbook)[burstStart - 160..<burstStart - 160 + burstLength])
        // Its first frame has only the noise before it to go by, so some is lost either way;
        // the textbook smoothing holds the burst down for most of its length (0.95 keeps about
        // twice its power).
        #expect(kept > 1.5 * keptByTextbook, "kept \(kept), by the textbook smoothing \(keptByTextbook)")
    }

    @Test func theSameAudioInAnyPiecesGivesTheSameSamples() {
        let input = Self.toneInNoise(seconds: 0.6)
        var first = NoiseSuppressor(), second = NoiseSuppressor()
        let whole = Self.cleaned(input, by: &first, frameSize: 160)
        let pieces = Self.cleaned(input, by: &second, frameSize: 97)
        #expect(whole == pieces)
        // A new stretch measures its noise anew and gives the same again.
        #expect(Self.cleaned(input, by: &first) == whole)
    }

    @Test func aStretchShorterThanTheNoiseMeasureGivesNothingYet() {
        var suppressor = NoiseSuppressor()
        let output = Self.cleaned(Array(Self.toneInNoise()[0..<(NoiseSuppressor.estimateFrames - 1) * 160]), by: &suppressor)
        #expect(output.isEmpty)
    }
}

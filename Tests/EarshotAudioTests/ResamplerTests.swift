@testable import EarshotAudio
import Testing

struct ResamplerTests {
    static let sourceRates = [44_100, 48_000, 8_000, 22_050, 11_025, 32_000, 96_000, 44_101]

    @Test(arguments: sourceRates)
    func sineKeepsAmplitudeAndTiming(sourceRate: Int) {
        let phase = 0.7
        let input = TestSignal.sine(frequency: 1_000, sampleRate: sourceRate, seconds: 1, phase: phase)
        let output = Resampler.resample(input, from: sourceRate, to: 16_000)
        #expect(output.count == 16_000)
        // Away from the edges, where the signal's own start and end are steps.
        let fit = TestSignal.component(of: output, frequency: 1_000, sampleRate: 16_000, range: 1_600..<14_400)
        let gain = TestSignal.decibels(fit.amplitude / 0.5)
        let offsetInOutputSamples = (fit.phase - phase) / (2 * .pi * 1_000) * 16_000
        #expect(abs(gain) < 0.5, "gain \(gain) dB")
        #expect(abs(offsetInOutputSamples) < 1, "offset \(offsetInOutputSamples) samples")
        // Far tighter than required, which guards the delay compensation itself.
        #expect(abs(gain) < 0.01 && abs(offsetInOutputSamples) < 0.01)
    }

    @Test(arguments: [8_500.0, 10_000, 15_000, 23_000])
    func toneAboveTheOutputNyquistIsRemoved(frequency: Double) {
        let input = TestSignal.sine(frequency: frequency, sampleRate: 48_000, seconds: 1)
        let output = Resampler.resample(input, from: 48_000, to: 16_000)
        let attenuation = TestSignal.decibels(TestSignal.rms(output[1_600..<14_400]) / TestSignal.rms(input[...]))
        #expect(attenuation <= -60, "\(frequency) Hz only \(attenuation) dB down")
    }

    @Test func upsamplingLeavesNoImage() {
        let input = TestSignal.sine(frequency: 3_400, sampleRate: 8_000, seconds: 1)
        let output = Resampler.resample(input, from: 8_000, to: 16_000)
        let image = TestSignal.component(of: output, frequency: 4_600, sampleRate: 16_000, range: 1_600..<14_400)
        let tone = TestSignal.component(of: output, frequency: 3_400, sampleRate: 16_000, range: 1_600..<14_400)
        #expect(TestSignal.decibels(image.amplitude / tone.amplitude) <= -60)
        #expect(abs(TestSignal.decibels(tone.amplitude / 0.5)) < 0.5)
    }

    @Test func sameRatePassesThroughBitExactly() {
        let input = TestSignal.noise(count: 12_345)
        #expect(Resampler.resample(input, from: 16_000, to: 16_000) == input)
        var resampler = Resampler(from: 16_000, to: 16_000)
        #expect(resampler.process(input[0..<100]) == Array(input[0..<100]))
        #expect(resampler.flush().isEmpty)
        #expect(resampler.lookahead == 0)
    }

    @Test func sameRateFileDecodesBitExactly() throws {
        let samples = TestSignal.noise(count: 4_000)
        let bytes = WAVFile.encode(samples: samples, sampleRate: 16_000, encoding: .float32)
        #expect(try WAVFile.decode(bytes, path: "exact.wav").samples == samples)
    }

    @Test(arguments: [(44_100, 16_000), (8_000, 16_000), (11_025, 16_000), (48_000, 16_000), (44_101, 16_000), (16_000, 44_100)])
    func streamingInOddChunksEqualsOneShot(from inputRate: Int, to outputRate: Int) {
        let input = TestSignal.noise(count: 30_011)
        let oneShot = Resampler.resample(input, from: inputRate, to: outputRate)
        var resampler = Resampler(from: inputRate, to: outputRate)
        var streamed: [Float] = []
        let chunkSizes = [1, 7, 0, 13, 441, 1_000, 3, 160, 2_047]
        var start = 0
        var turn = 0
        while start < input.count {
            let end = min(input.count, start + chunkSizes[turn % chunkSizes.count])
            streamed += resampler.process(input[start..<end])
            start = end
            turn += 1
        }
        streamed += resampler.flush()
        #expect(streamed == oneShot)
        #expect(streamed.count == resampler.outputCount(forInputCount: input.count))
    }

    @Test func flushStartsAFreshStream() {
        let input = TestSignal.noise(count: 5_000)
        var resampler = Resampler(from: 22_050, to: 16_000)
        let first = resampler.process(input) + resampler.flush()
        let second = resampler.process(input) + resampler.flush()
        #expect(first == second)
    }

    @Test(arguments: [0, 1, 2, 3, 440, 441, 442, 100_000])
    func outputCountCoversTheInputDuration(inputCount: Int) {
        let output = Resampler.resample([Float](repeating: 0.25, count: inputCount), from: 44_100, to: 16_000)
        // ceil(n * 160 / 441): the outputs whose times fall inside the input's duration.
        #expect(output.count == (inputCount * 160 + 440) / 441)
    }

    @Test(arguments: sourceRates)
    func impulseStaysAtItsTime(sourceRate: Int) {
        // A click near 0.25 s, at an instant that is also an output sample time, must peak at that
        // output sample with the ringing symmetric around it.
        let inputStep = sourceRate / greatestCommonDivisor(sourceRate, 16_000)
        let clickIndex = max(1, sourceRate / 4 / inputStep) * inputStep
        let peakIndex = clickIndex * 16_000 / sourceRate
        var input = [Float](repeating: 0, count: 2 * clickIndex)
        input[clickIndex] = 1
        let output = Resampler.resample(input, from: sourceRate, to: 16_000)
        let peak = output.indices.max { output[$0] < output[$1] }
        #expect(peak == peakIndex)
        for distance in 1...20 {
            #expect(abs(output[peakIndex - distance] - output[peakIndex + distance]) < 1e-6)
        }
    }

    @Test func constantSignalKeepsItsLevel() {
        let output = Resampler.resample([Float](repeating: 0.5, count: 44_100), from: 44_100, to: 16_000)
        #expect(output[1_000..<15_000].allSatisfy { abs($0 - 0.5) < 1e-5 })
    }

    @Test func latencyIsReportedInSeconds() {
        let resampler = Resampler(from: 48_000, to: 16_000)
        #expect(resampler.lookahead > 0)
        #expect(resampler.latency == Double(resampler.lookahead) / 48_000)
        #expect(resampler.latency < 0.01)
    }

    private func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        b == 0 ? a : greatestCommonDivisor(b, a % b)
    }
}

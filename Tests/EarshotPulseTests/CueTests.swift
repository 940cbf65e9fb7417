import EarshotAudio
import Testing

@Suite("Voice-mode cues")
struct CueTests {
    /// Zero crossings per second in `samples` at 16 kHz: twice the pitch of a pure tone.
    static func crossingRate(_ samples: ArraySlice<Float>) -> Double {
        let crossings = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) * 16_000 / Double(samples.count)
    }

    @Test(arguments: [Cue.enter, Cue.leave])
    func shortSoftAndClickFree(cue: [Float]) {
        let seconds = Double(cue.count) / 16_000
        #expect(seconds > 0.12 && seconds < 0.18, "\(seconds) s")
        let peak = cue.map(abs).max() ?? 0
        #expect(abs(peak - Cue.peak) < 0.001)
        // Soft attack and release: no step at either end.
        #expect(abs(cue.first!) < 0.001 && abs(cue.last!) < 0.001)
        #expect(cue.prefix(16).map(abs).max()! < 0.05)
        let largestStep = zip(cue, cue.dropFirst()).map { abs($1 - $0) }.max()!
        #expect(largestStep < 0.2)
    }

    @Test func enterRisesAndLeaveFalls() {
        let half = Cue.enter.count / 2
        #expect(Self.crossingRate(Cue.enter[..<half]) < Self.crossingRate(Cue.enter[half...]))
        #expect(Self.crossingRate(Cue.leave[..<half]) > Self.crossingRate(Cue.leave[half...]))
        #expect(Cue.enter != Cue.leave)
    }
}

import EarshotAudio
import Testing

@Suite struct VADScoreTests {
    private func bools(_ text: String) -> [Bool] { text.map { $0 == "1" } }

    @Test func countsFramesAndOnsetLatency() {
        var score = VADScore()
        score.add(decisions: bools("0001111000"), labels: bools("0011110000"), lookaheadFrames: 3)
        #expect(score.truePositives == 3)
        #expect(score.falsePositives == 1)
        #expect(score.falseNegatives == 1)
        #expect(score.trueNegatives == 5)
        #expect(score.f1 == 0.75)
        // Segment starts at frame 2, first detected at frame 3, known 3 frames later: (3 + 3 + 1 - 2) × 10 ms.
        #expect(score.onsetLatenciesMs == [50])
        #expect(score.missedSegments == 0)
    }

    @Test func missedSegmentsHaveNoLatency() {
        var score = VADScore()
        score.add(decisions: bools("00000000"), labels: bools("01100110"), lookaheadFrames: 3)
        #expect(score.segments == 2)
        #expect(score.missedSegments == 2)
        #expect(score.medianOnsetLatencyMs == nil)
        #expect(score.f1 == 0)
    }

    @Test func poolingAddsCounts() {
        var a = VADScore(), b = VADScore()
        a.add(decisions: bools("0110"), labels: bools("0110"), lookaheadFrames: 0)
        b.add(decisions: bools("1100"), labels: bools("0110"), lookaheadFrames: 0)
        let pooled = a + b
        #expect(pooled.truePositives == 3 && pooled.falsePositives == 1 && pooled.falseNegatives == 1)
        #expect(pooled.onsetLatenciesMs.sorted() == [10, 10])
    }
}

import Testing

struct WordErrorRateTests {
    @Test func countsSubstitutionsDeletionsAndInsertions() {
        #expect(WordErrorRate.of(reference: "Turn on the lights.", hypothesis: "turn on the lights") == 0)
        #expect(WordErrorRate.of(reference: "turn on the lights", hypothesis: "turn off the lights") == 0.25)
        #expect(WordErrorRate.of(reference: "turn on the lights", hypothesis: "turn the lights") == 0.25)
        #expect(WordErrorRate.of(reference: "turn on the lights", hypothesis: "turn on all the lights now") == 0.5)
        #expect(WordErrorRate.of(reference: "what's up", hypothesis: "") == 1)
    }
}

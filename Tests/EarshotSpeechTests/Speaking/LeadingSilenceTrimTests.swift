import EarshotSpeech
import Testing

@Suite("A reply begins at its first sound")
struct LeadingSilenceTrimTests {
    /// `count` samples of a floor at `level`, alternating in sign like a faint hiss.
    static func floor(_ count: Int, level: Float = 0.002) -> [Float] {
        (0..<count).map { $0 % 2 == 0 ? level : -level }
    }

    static func sound(_ count: Int) -> [Float] {
        (0..<count).map { Float($0 % 8 + 1) * 0.05 }
    }

    @Test func silenceBeforeTheFirstSoundIsDroppedButTheLeadIn() {
        var trim = LeadingSilenceTrim(leadIn: 160)
        let silence = Self.floor(3_000), speech = Self.sound(500)
        #expect(trim.trim(silence + speech) == Array(silence.suffix(160)) + speech)
        #expect(trim.hasPassedSound)
    }

    @Test func aPieceOfSilenceAloneGivesNothing() {
        var trim = LeadingSilenceTrim()
        #expect(trim.trim(Self.floor(1_040)).isEmpty)
        #expect(trim.trim(Self.floor(1_040)).isEmpty)
        #expect(!trim.hasPassedSound)
    }

    @Test func theLeadInComesFromEarlierPiecesWhenTheSoundBeginsAPiece() {
        var trim = LeadingSilenceTrim(leadIn: 160)
        let first = Self.floor(1_000, level: 0.001), second = Self.floor(100, level: 0.003), speech = Self.sound(300)
        #expect(trim.trim(first).isEmpty)
        #expect(trim.trim(second).isEmpty)
        #expect(trim.trim(speech) == Array(first.suffix(60)) + second + speech)
    }

    @Test func theLeadInSpansThePieceAndTheOneBefore() {
        var trim = LeadingSilenceTrim(leadIn: 160)
        let before = Self.floor(1_000), start = Self.floor(100), speech = Self.sound(200)
        #expect(trim.trim(before).isEmpty)
        #expect(trim.trim(start + speech) == Array(before.suffix(60)) + start + speech)
    }

    @Test func afterTheFirstSoundEveryPiecePassesWhole() {
        var trim = LeadingSilenceTrim()
        _ = trim.trim(Self.sound(100))
        let pause = Self.floor(3_000)
        #expect(trim.trim(pause) == pause)
        #expect(trim.trim(Self.sound(10)) == Self.sound(10))
    }

    @Test func soundAtTheVeryStartLosesNothing() {
        var trim = LeadingSilenceTrim()
        let speech = Self.sound(400)
        #expect(trim.trim(speech) == speech)
    }

    @Test func aSoftOnsetAboveTheThresholdCounts() {
        var trim = LeadingSilenceTrim()
        let breath = [Float](repeating: 0.01, count: 50)
        #expect(trim.trim(Self.floor(2_000) + breath).suffix(50) == breath[...])
        #expect(trim.hasPassedSound)
    }
}

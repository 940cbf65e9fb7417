import EarshotAudio
import Testing

/// The endpointer says when a turn may be over, before the silence that ends it has passed, and
/// when the person goes on after all; the end itself is decided as without it.
@Suite("Eager end and resumed speech")
struct EagerEndTests {
    @Test func aSilenceReportsAnEagerEndBeforeTheEnd() {
        // No cues, no words: 600 ms end the turn; 150 ms make it possibly over.
        #expect(
            EndpointerScript.events("100- 50# 100-", eager: true) == [
                100: .onsetSuspected(onsetFrame: 100),
                114: .speechStarted(onsetFrame: 100, audioStartFrame: 70),
                164: .eagerEnd(onsetFrame: 100, endFrame: 150),
                209: .speechEnded(onsetFrame: 100, endFrame: 150, reason: .silence),
            ])
    }

    @Test func speechAfterAnEagerEndResumesTheSameUtterance() {
        #expect(
            EndpointerScript.events("100- 50# 20- 30# 100-", eager: true) == [
                100: .onsetSuspected(onsetFrame: 100),
                114: .speechStarted(onsetFrame: 100, audioStartFrame: 70),
                164: .eagerEnd(onsetFrame: 100, endFrame: 150),
                170: .speechResumed(onsetFrame: 100, frame: 170),
                214: .eagerEnd(onsetFrame: 100, endFrame: 200),
                259: .speechEnded(onsetFrame: 100, endFrame: 200, reason: .silence),
            ])
    }

    @Test func aPauseShorterThanTheEagerSilenceIsNothing() {
        let events = EndpointerScript.events("100- 50# 14- 30# 100-", eager: true)
        #expect(events.values.filter { !$0.isBoundary } == [.eagerEnd(onsetFrame: 100, endFrame: 194)])
        #expect(events[253] == .speechEnded(onsetFrame: 100, endFrame: 194, reason: .silence))
    }

    @Test func theBoundariesAreTheSameWithOrWithoutEagerEnds() {
        let runs = "100- 50# 20- 30# 45- 40# 100- 20# 16- 3# 100-"
        let all = EndpointerScript.events(runs, finish: true, eager: true)
        #expect(all.filter { $0.value.isBoundary } == EndpointerScript.events(runs, finish: true))
        #expect(all.values.contains { !$0.isBoundary })
    }

    @Test func noEagerEndWhenTheEndComesNoLater() {
        let configuration = Endpointer.Configuration(endOfTurnSilenceMilliseconds: 150)
        let events = EndpointerScript.events("100- 50# 100-", configuration: configuration, eager: true)
        #expect(events[164] == .speechEnded(onsetFrame: 100, endFrame: 150, reason: .silence))
        #expect(events.values.allSatisfy { $0.isBoundary })
    }

    @Test func eagernessScalesTheEagerSilence() {
        let high = Endpointer.Configuration(eagerness: .high)
        #expect(EndpointerScript.events("100- 50# 100-", configuration: high, eager: true)[158] == .eagerEnd(onsetFrame: 100, endFrame: 150))
        let low = Endpointer.Configuration(eagerness: .low)
        #expect(EndpointerScript.events("100- 50# 100-", configuration: low, eager: true)[173] == .eagerEnd(onsetFrame: 100, endFrame: 150))
    }

    @Test func aStreamEndingAfterAnEagerEndEndsTheUtterance() {
        let events = EndpointerScript.events("100- 50# 30-", finish: true, eager: true)
        #expect(events[164] == .eagerEnd(onsetFrame: 100, endFrame: 150))
        #expect(events[180] == .speechEnded(onsetFrame: 100, endFrame: 150, reason: .streamEnd))
    }
}

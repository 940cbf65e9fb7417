import EarshotTurns
import Testing

@Suite("The wake gate: waiting, a conversation, back to waiting")
struct WakeGateTests {
    static let configuration = WakeGate.Configuration(phrase: "hey computer", idleAfter: 5)

    @Test func startsWaitingAndWakesOnThePhrase() {
        var gate = WakeGate(configuration: Self.configuration)
        #expect(gate.isWaiting)
        #expect(gate.frame(speech: true, turnsResting: true, at: 1) == .none)
        #expect(gate.isWaiting)
        #expect(gate.phraseHeard(at: 2.5) == .wake(phrase: "hey computer", time: 2.5))
        #expect(gate.state == .awake(lastActivity: 2.5))
        #expect(!gate.isWaiting)
    }

    @Test func aKeyOrAReplySaidOpensItWithoutThePhrase() {
        var gate = WakeGate(configuration: Self.configuration)
        #expect(gate.open(at: 3) == .open(time: 3))
        #expect(gate.state == .awake(lastActivity: 3))
        #expect(gate.open(at: 4) == .none, "already open: nothing more")
        #expect(gate.phraseHeard(at: 4.5) == .none)
        #expect(gate.frame(speech: false, turnsResting: true, at: 8) == .sleep(time: 8))
    }

    @Test func thePhraseAgainWhileAwakeChangesNothing() {
        var gate = WakeGate(configuration: Self.configuration)
        _ = gate.phraseHeard(at: 1)
        #expect(gate.phraseHeard(at: 2) == .none)
        #expect(gate.state == .awake(lastActivity: 1))
    }

    @Test func sleepsAfterIdleAfterSecondsWithoutSpeech() {
        var gate = WakeGate(configuration: Self.configuration)
        _ = gate.phraseHeard(at: 1)
        #expect(gate.frame(speech: false, turnsResting: true, at: 5.99) == .none)
        #expect(gate.frame(speech: false, turnsResting: true, at: 6) == .sleep(time: 6))
        #expect(gate.isWaiting)
        // Waiting, quiet goes on without another action.
        #expect(gate.frame(speech: false, turnsResting: true, at: 20) == .none)
    }

    @Test func speechKeepsTheConversationGoing() {
        var gate = WakeGate(configuration: Self.configuration)
        _ = gate.phraseHeard(at: 1)
        #expect(gate.frame(speech: true, turnsResting: true, at: 4) == .none)
        #expect(gate.frame(speech: false, turnsResting: true, at: 8.5) == .none)
        #expect(gate.frame(speech: false, turnsResting: true, at: 9) == .sleep(time: 9))
    }

    @Test func aTurnUnderWayIsNeverIdle() {
        var gate = WakeGate(configuration: Self.configuration)
        _ = gate.phraseHeard(at: 1)
        // Thinking and speaking for a long time: the idle time counts from the reply's end.
        #expect(gate.frame(speech: false, turnsResting: false, at: 30) == .none)
        #expect(gate.frame(speech: false, turnsResting: true, at: 34.9) == .none)
        #expect(gate.frame(speech: false, turnsResting: true, at: 35) == .sleep(time: 35))
    }

    @Test func leavingVoiceModeEndsTheConversation() {
        var gate = WakeGate(configuration: Self.configuration)
        _ = gate.phraseHeard(at: 1)
        #expect(gate.voiceModeChanged() == .none)
        #expect(gate.isWaiting)
        #expect(gate.phraseHeard(at: 3) == .wake(phrase: "hey computer", time: 3))
    }

    @Test func aNewIdleTimeAppliesToTheConversationUnderWay() {
        var gate = WakeGate(configuration: Self.configuration)
        _ = gate.phraseHeard(at: 1)
        gate.reconfigure(.init(phrase: "hello there", idleAfter: 2))
        #expect(gate.frame(speech: false, turnsResting: true, at: 3) == .sleep(time: 3))
        #expect(gate.phraseHeard(at: 4) == .wake(phrase: "hello there", time: 4))
    }
}

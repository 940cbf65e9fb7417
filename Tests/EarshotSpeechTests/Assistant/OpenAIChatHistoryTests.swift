import EarshotSpeech
import Testing

@Suite struct OpenAIChatHistoryTests {
    @Test func theRequestHoldsInstructionsTheExchangesAndTheQuestion() {
        var history = OpenAIChatHistory(maximumTurns: 5)
        history.asked(turn: 1, "What is the time")
        history.heard(turn: 1, "It is noon.")
        #expect(history.messages(instructions: "Be brief.", asking: "And the date") == [
            .init(.system, "Be brief."), .init(.user, "What is the time"), .init(.assistant, "It is noon."), .init(.user, "And the date"),
        ])
    }

    @Test func aReplyNotHeardAtAllKeepsOnlyTheQuestion() {
        var history = OpenAIChatHistory(maximumTurns: 5)
        history.asked(turn: 3, "Tell me a story")
        #expect(history.messages(instructions: nil, asking: "Stop") == [.init(.user, "Tell me a story"), .init(.user, "Stop")])
    }

    @Test func aQuestionThePersonWentOnFromIsWithdrawn() {
        // Asked at an eager end of turn 2; the person went on, and turn 3 holds the whole question.
        var history = OpenAIChatHistory(maximumTurns: 5)
        history.asked(turn: 1, "What is the time")
        history.heard(turn: 1, "It is noon.")
        history.asked(turn: 2, "Move my dentist appointment")
        history.withdraw(turn: 2)
        #expect(history.messages(instructions: nil, asking: "Move my dentist appointment to next Tuesday").map(\.content) == [
            "What is the time", "It is noon.", "Move my dentist appointment to next Tuesday",
        ])
    }

    @Test func onlyTheLastTurnsAreKeptAndForgetClearsThem() {
        var history = OpenAIChatHistory(maximumTurns: 2)
        for turn in 1...4 {
            history.asked(turn: turn, "q\(turn)")
            history.heard(turn: turn, "a\(turn)")
        }
        #expect(history.count == 2)
        #expect(history.messages(instructions: nil, asking: "q5").map(\.content) == ["q3", "a3", "q4", "a4", "q5"])
        history.heard(turn: 1, "late")
        #expect(history.messages(instructions: nil, asking: "q5").map(\.content) == ["q3", "a3", "q4", "a4", "q5"])
        history.forget()
        #expect(history.messages(instructions: nil, asking: "q5").map(\.content) == ["q5"])
    }

    @Test func noMemoryMeansEachTurnStandsAlone() {
        var history = OpenAIChatHistory(maximumTurns: 0)
        history.asked(turn: 1, "q1")
        #expect(history.messages(instructions: nil, asking: "q2").map(\.content) == ["q2"])
    }
}

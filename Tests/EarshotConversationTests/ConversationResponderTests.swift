import EarshotConversation
import Testing

/// `Tests/Fixtures/conversation/responder.sh`, run as `earshotd --responder` runs it: it answers
/// the fixture's requests as the fixture's script does, so the live demo says what replay says.
@Suite struct ConversationResponderTests {
    static func answer(_ transcript: String) async throws -> String {
        let responder = Responder(command: "'\(ConversationFixture.path("conversation/responder.sh"))'", timeout: .seconds(10))
        var pieces: [String] = []
        for try await piece in responder.respond(turn: 1, transcript: transcript) { pieces.append(piece) }
        return pieces.joined(separator: " ")
    }

    @Test func itAnswersTheRecordedRequestsWithTheScriptsReplies() async throws {
        let script = try ConversationFixture.script("conversation/barge_in.conversation.toml")
        #expect(try await Self.answer("what is the weather like tomorrow") == script.replies[0].text)
        #expect(try await Self.answer("turn on the kitchen lights") == script.replies[1].text)
    }

    @Test func itAnswersOtherRequestsByKeyword() async throws {
        #expect(try await Self.answer("turn off the lights") == "Okay, the kitchen lights are off.")
        #expect(try await Self.answer("what time is it").hasPrefix("It is "))
        #expect(try await Self.answer("play some music") == "Sorry, I can only help with the weather, the lights, and the time.")
    }
}

import EarshotConversation
import EarshotSpeech
import Foundation
import Testing

/// Reading conversation scripts: what they say, and problems named by file, line and key.
@Suite struct ConversationScriptTests {
    static func parse(_ text: String) throws(ConversationScriptError) -> ConversationScript {
        let voices = ConversationFixture.voices
        return try ConversationScript.parse(text, file: "talk.conversation.toml", voices: voices.voices, defaultVoice: voices.defaultVoice)
    }

    /// The problems a script has, as a person reads them.
    static func problems(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func aScriptSaysWhatIsSaidWhenAndInWhichVoice() throws {
        let script = try Self.parse("""
            voice = "Cove"
            echo_gain = 0.25
            echo_delay_ms = 80

            [[reply]]
            after_turn = 1
            delay_ms = 200
            text = "Sunny tomorrow."

            [[reply]]
            at = 12.5
            text = "Your timer is done."
            voice = "sky"
            """)
        #expect(script.echoGain == 0.25)
        #expect(script.echoDelayMilliseconds == 80)
        #expect(script.replies.map(\.cue) == [.afterTurn(1, delayMilliseconds: 200), .at(seconds: 12.5)])
        #expect(script.replies.map(\.text) == ["Sunny tomorrow.", "Your timer is done."])
        #expect(script.replies.map(\.voice.id) == ["cove", "sky"])
        #expect(script.replies.map(\.line) == [5, 10])
        #expect(script.replies.map(\.turn) == [1, nil])
    }

    @Test func withoutSettingsRepliesUseTheDefaultVoiceWithoutEcho() throws {
        let script = try Self.parse("[[reply]]\nafter_turn = 2\ntext = \"Hello.\"\n")
        #expect(script.replies.map(\.voice.id) == ["breeze"])
        #expect(script.replies.map(\.cue) == [.afterTurn(2, delayMilliseconds: 0)])
        #expect(script.echoGain == 0)
    }

    @Test func theBundledScriptsRead() throws {
        for name in ["barge_in", "barge_in_echo", "lights_echo"] {
            let script = try ConversationFixture.script("conversation/\(name).conversation.toml")
            #expect(!script.replies.isEmpty, "\(name)")
        }
    }

    @Test func invalidTOMLIsReportedWithItsLine() {
        let problems = Self.problems("voice = \"cove\"\n\n[[reply]]\ntext = \"unterminated\n")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("talk.conversation.toml:4: invalid TOML: ") == true, "\(problems)")
    }

    @Test func everyBadValueIsNamedByLineReplyAndKeyAtOnce() {
        let problems = Self.problems("""
            voice = "nova"
            echo_gain = 3

            [[reply]]
            after_turn = 1
            text = "Fine."

            [[reply]]
            text = "Again."
            after_turn = 0
            delay_ms = "soon"
            pitch = 3
            """)
        #expect(problems == [
            #"talk.conversation.toml:1: there is no voice called "nova" (voices: breeze, cove, ember, juniper, sky)"#,
            "talk.conversation.toml:2: `echo_gain` must be a gain from 0 (no echo) to 1 (as loud as played), not 3",
            "talk.conversation.toml:12: reply 2: unknown key `pitch` (known: after_turn, delay_ms, at, text, voice)",
            "talk.conversation.toml:10: reply 2: `after_turn` must be the number of the person's turn it answers, from 1 up, not 0",
            "talk.conversation.toml:11: reply 2: `delay_ms` must be milliseconds from 0 to 60000, not a string",
        ])
    }

    @Test func aReplyNeedsTextAndExactlyOneCue() {
        let problems = Self.problems("""
            [[reply]]
            after_turn = 1
            at = 2.0

            [[reply]]
            text = "When?"

            [[reply]]
            at = 4.0
            delay_ms = 100
            text = "Late."
            """)
        #expect(problems == [
            "talk.conversation.toml:1: reply 1: missing required key `text`",
            "talk.conversation.toml:3: reply 1: give either `after_turn` (the turn it answers) or `at` (when to say it unprompted), not both",
            "talk.conversation.toml:5: reply 2: say when: `after_turn = N` answers the person's turn N, `at = SECONDS` speaks unprompted",
            "talk.conversation.toml:10: reply 3: `delay_ms` goes with `after_turn`; with `at`, put the time in `at`",
        ])
    }

    @Test func aTurnGetsOneReply() {
        let problems = Self.problems("""
            [[reply]]
            after_turn = 1
            text = "One."

            [[reply]]
            after_turn = 1
            text = "Two."
            """)
        #expect(problems == ["talk.conversation.toml:6: reply 2: turn 1 already has a reply (reply 1); a turn gets one reply"])
    }

    @Test func repliesMustBeAnArrayOfTables() {
        let problems = Self.problems("""
            # one reply, written as a plain table
            [reply]
            after_turn = 1
            text = "Hello."
            """)
        #expect(problems == [
            "talk.conversation.toml:2: `reply` must be an array of tables: write each reply under its own [[reply]] header, not [reply]"
        ])
    }

    @Test func anUnreadableScriptSaysWhy() {
        let voices = ConversationFixture.voices
        #expect {
            try ConversationScript.read(path: "/nonexistent/talk.conversation.toml", voices: voices.voices, defaultVoice: voices.defaultVoice)
        } throws: { error in
            (error as? ConversationScriptError)?.description
                == "/nonexistent/talk.conversation.toml: cannot read the conversation script: there is no such file"
        }
    }

    @Test func aRecordingsOwnScriptSitsBesideIt() {
        #expect(ConversationScript.companionPath(forRecording: "talks/barge_in.wav") == "talks/barge_in.conversation.toml")
        #expect(ConversationScript.companionPath(forRecording: "/a.b/take.opus") == "/a.b/take.conversation.toml")
        #expect(ConversationScript.companionPath(forRecording: "noext") == "noext.conversation.toml")
    }
}

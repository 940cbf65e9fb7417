import EarshotConversation
import Foundation
import Testing

/// Replies from real commands: what they read, what they print, and when it arrives.
@Suite struct ResponderTests {
    typealias Harness = ResponderHarness

    @Test func anEchoingResponderIsSpokenSentenceBySentence() async {
        let (pieces, error) = await Harness.collect(#"read line; echo "You said: $line. Anything else?""#, transcript: "turn on the lights")
        #expect(error == nil)
        #expect(pieces == ["You said: turn on the lights.", "Anything else?"])
    }

    @Test func eachLineIsSpokenAsItArrivesWhileTheCommandStillRuns() async throws {
        let directory = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("second").path
        let responder = Responder(command: "sh '\(Harness.fixture("streaming.sh"))' '\(directory.path)'", timeout: .seconds(10))
        var pieces: [String] = []
        var markedBeforeFirst: Bool?
        for try await piece in responder.respond(turn: 1, transcript: "tell me two things") {
            if pieces.isEmpty { markedBeforeFirst = FileManager.default.fileExists(atPath: marker) }
            pieces.append(piece)
        }
        #expect(pieces == ["The first line.", "The second line."])
        #expect(markedBeforeFirst == false, "the first line came only after the second was printed")
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    /// The transcript arrives on stdin exactly, with one newline after it, and is not touched by
    /// the shell; the turn is in EARSHOT_TURN.
    @Test func theCommandReadsTheTranscriptAndItsTurn() async throws {
        let directory = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = #"It's "$HOME" and `date`; café \n 東京"#
        let (pieces, error) = await Harness.collect(
            #"printf '%s' "$EARSHOT_TURN" > '\#(directory.path)/turn'; cat > '\#(directory.path)/stdin'; echo Done."#,
            transcript: transcript, turn: 42
        )
        #expect(error == nil)
        #expect(pieces == ["Done."])
        #expect(try String(contentsOf: directory.appendingPathComponent("turn"), encoding: .utf8) == "42")
        #expect(try Data(contentsOf: directory.appendingPathComponent("stdin")) == Data((transcript + "\n").utf8))
    }

    @Test func theEnvironmentGivenReplacesTheDaemonsButKeepsTheTurn() async throws {
        let responder = Responder(command: #"echo "[$EARSHOT_TURN] [$GREETING] [$HOME]""#, environment: ["GREETING": "hi"], timeout: .seconds(10))
        var pieces: [String] = []
        for try await piece in responder.respond(turn: 7, transcript: "") { pieces.append(piece) }
        #expect(pieces == ["[7] [hi] []"])
    }

    @Test(arguments: ["true", "cat > /dev/null", "echo", "printf '\\n\\n'"])
    func printingNothingIsNoReplyAndNoError(command: String) async {
        let (pieces, error) = await Harness.collect(command)
        #expect(pieces == [])
        #expect(error == nil)
    }

    @Test func aLastLineWithoutANewlineIsSpokenAndInvalidUTF8IsReplaced() async {
        let (pieces, error) = await Harness.collect(#"printf 'Caf\351 ok.\nAnd the end'"#)
        #expect(error == nil)
        #expect(pieces == ["Caf\u{FFFD} ok.", "And the end"])
    }

    @Test func aLongLineIsSplitIntoSentences() async {
        let (pieces, error) = await Harness.collect("echo 'One. Two! Three? Four.'")
        #expect(error == nil)
        #expect(pieces == ["One.", "Two!", "Three?", "Four."])
    }

    @Test func aLineWithoutEndIsCutRatherThanBufferedWhole() async {
        // 300 000 bytes, no newline: cut at 64 KiB, then into speakable lengths.
        let (pieces, error) = await Harness.collect("head -c 300000 /dev/zero | tr '\\0' 'a'")
        #expect(error == nil)
        #expect(pieces.count > 1)
        #expect(pieces.map(\.count).reduce(0, +) == 300_000)
        #expect(pieces.allSatisfy { $0.allSatisfy { $0 == "a" } })
    }

    /// A command that never reads a long transcript makes writing it fail with EPIPE; the
    /// SIGPIPE that comes with it must not end the daemon.
    @Test func aCommandIgnoringALongTranscriptStillReplies() async {
        let transcript = String(repeating: "la ", count: 400_000)
        let (pieces, error) = await Harness.collect("echo 'Not listening.'", transcript: transcript)
        #expect(error == nil)
        #expect(pieces == ["Not listening."])
    }

    /// Not even one the daemon opened without close-on-exec.
    @Test func theCommandGetsNoDescriptorsButItsStandardStreams() async {
        let inheritable = open("/dev/null", O_RDONLY)
        defer { close(inheritable) }
        #expect(inheritable > 2)
        // The shell lists its own descriptors ("; true" keeps it from exec'ing ls).
        let (pieces, error) = await Harness.collect("ls /proc/$$/fd; true")
        #expect(error == nil)
        #expect(pieces == ["0", "1", "2"])
    }
}

@testable import EarshotConversation
import Testing

/// The responder's byte handling, without a process: lines, cuts, and the stderr tail.
@Suite struct ResponderLineBufferTests {
    @Test func linesEndAtNewlinesAndCarriageReturnsAreDropped() {
        var buffer = ResponderLineBuffer()
        #expect(buffer.append(Array("one\r\ntw".utf8)) == ["one"])
        #expect(buffer.append(Array("o\n\nthree".utf8)) == ["two", ""])
        #expect(buffer.finish() == "three")
        #expect(buffer.finish() == nil)
    }

    @Test func aLineLongerThanTheLimitIsCutBetweenCharacters() {
        var buffer = ResponderLineBuffer(limit: 4)
        // "a" then three two-byte "é": the first cut would fall inside the second "é".
        #expect(buffer.append(Array("aééé".utf8)) == ["aé", "éé"])
        #expect(buffer.finish() == nil)
        var large = ResponderLineBuffer()
        let lines = large.append([UInt8](repeating: UInt8(ascii: "x"), count: 150_000))
        #expect(lines.map(\.utf8.count) == [65_536, 65_536])
        #expect(large.finish()?.utf8.count == 150_000 - 131_072)
    }

    @Test func theStderrTailKeepsTheLastBytesFromALineStart() {
        var tail = ResponderOutputTail(limit: 16)
        tail.append(Array("  short  \n".utf8))
        #expect(tail.text == "short")
        tail.append(Array("first line\nlast line\n".utf8))
        #expect(tail.text == "last line")
        var unbroken = ResponderOutputTail(limit: 4)
        unbroken.append(Array("abcdéfg".utf8))
        #expect(unbroken.text == "éfg")
        var halfCharacter = ResponderOutputTail(limit: 3)
        halfCharacter.append(Array("abcdéfg".utf8))
        #expect(halfCharacter.text == "fg")
    }

    @Test func messagesNameALongCommandShortly() {
        let name = ResponderError.displayName(of: "python3 -c '\n" + String(repeating: "x", count: 100) + "'")
        #expect(name.count == 62)
        #expect(name.hasPrefix("`python3 -c ' xxx"))
        #expect(name.hasSuffix("x…`"))
        #expect(ResponderError.timedOut(command: "bot", after: .seconds(1)).message == "The responder `bot` printed nothing for 1 second and was stopped.")
        #expect(ResponderError.timedOut(command: "bot", after: .seconds(30)).message == "The responder `bot` printed nothing for 30 seconds and was stopped.")
    }
}

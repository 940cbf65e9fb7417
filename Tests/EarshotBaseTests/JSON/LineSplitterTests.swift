import EarshotBase
import Testing

/// How a byte stream becomes lines: partial tails, long lines refused or cut, blocks between lines.
@Suite struct LineSplitterTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func text(_ line: LineSplitter.Line?) -> String? {
        guard case .line(let bytes)? = line else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func linesEndAtNewlinesAndAPartialTailWaits() {
        var splitter = LineSplitter(maximumLength: 16)
        splitter.append(Self.bytes("one\r\ntw"))
        #expect(Self.text(splitter.next()) == "one\r")
        #expect(splitter.next() == nil)
        #expect(splitter.bufferedByteCount == 2)
        splitter.append(Self.bytes("o\n\nthree"))
        #expect(Self.text(splitter.next()) == "two")
        #expect(Self.text(splitter.next()) == "")
        #expect(splitter.next() == nil)
        #expect(splitter.finish().map { String(decoding: $0, as: UTF8.self) } == "three")
        #expect(splitter.finish() == nil)
    }

    @Test func aLineArrivingByteByByteIsWhole() {
        var splitter = LineSplitter(maximumLength: 100)
        var lines: [String] = []
        for byte in Self.bytes("{\"id\":1}\n{\"id\":2}\n") {
            splitter.append([byte])
            while let line = splitter.next() { lines.append(Self.text(line) ?? "?") }
        }
        #expect(lines == [#"{"id":1}"#, #"{"id":2}"#])
    }

    @Test func aLineOfTheLimitIsALineAndOneByteMoreIsRefusedBeforeItsNewline() {
        var splitter = LineSplitter(maximumLength: 4)
        splitter.append(Self.bytes("abcd\nabcd"))
        #expect(Self.text(splitter.next()) == "abcd")
        #expect(splitter.next() == nil)
        splitter.append(Self.bytes("e"))
        #expect(splitter.next() == .tooLong)
        #expect(splitter.next() == nil)
        // The rest of the refused line is dropped as it arrives, then lines are read again.
        splitter.append(Self.bytes("fghijklmnop"))
        #expect(splitter.next() == nil)
        #expect(splitter.bufferedByteCount == 0)
        splitter.append(Self.bytes("q\nok\n"))
        #expect(Self.text(splitter.next()) == "ok")
        #expect(splitter.next() == nil)
    }

    @Test func aLongLineWithItsNewlineIsRefusedOnceAndTheNextLinesStay() {
        var splitter = LineSplitter(maximumLength: 4)
        splitter.append(Self.bytes("abcdefgh\nok\nlast"))
        #expect(splitter.next() == .tooLong)
        #expect(Self.text(splitter.next()) == "ok")
        #expect(splitter.next() == nil)
        #expect(splitter.finish().map { String(decoding: $0, as: UTF8.self) } == "last")
    }

    @Test func aRefusedLineLeavesNoTailAtTheEnd() {
        var splitter = LineSplitter(maximumLength: 4)
        splitter.append(Self.bytes("abcdefgh"))
        #expect(splitter.next() == .tooLong)
        #expect(splitter.next() == nil)
        #expect(splitter.finish() == nil)
    }

    @Test func cutLinesNeverSplitACharacter() {
        var splitter = LineSplitter(maximumLength: 4, longLines: .cut)
        // "a" then three two-byte "é": the first cut would fall inside the second "é".
        splitter.append(Self.bytes("aééé"))
        #expect(Self.text(splitter.next()) == "aé")
        #expect(Self.text(splitter.next()) == "éé")
        #expect(splitter.next() == nil)
        #expect(splitter.finish() == nil)
    }

    @Test func blocksBetweenLinesAreTakenAsTheyAre() {
        var splitter = LineSplitter(maximumLength: 100)
        splitter.append(Self.bytes("header\n") + [0, 10, 255])
        #expect(Self.text(splitter.next()) == "header")
        #expect(splitter.take(4) == nil)
        splitter.append(Self.bytes("Xnext\n"))
        #expect(splitter.take(4).map(Array.init) == [0, 10, 255, UInt8(ascii: "X")])
        #expect(Self.text(splitter.next()) == "next")
        #expect(splitter.bufferedBytes.isEmpty)
    }

    @Test func noLimitReadsAnyLength() {
        var splitter = LineSplitter(maximumLength: .max)
        splitter.append([UInt8](repeating: UInt8(ascii: "x"), count: 100_000) + [UInt8(ascii: "\n")])
        guard case .line(let line)? = splitter.next() else {
            Issue.record("no line")
            return
        }
        #expect(line.count == 100_000)
    }
}

import EarshotBase
import Testing

/// Reading expected keys from a table: typed values, and every problem at once with its place.
@Suite struct TOMLTableReaderTests {
    static func reader(_ text: String) throws -> TOMLTableReader<TOMLTableProblem> {
        TOMLTableReader(try TOMLParser.parse(text)) { $0 }
    }

    @Test func readsWhatIsThere() throws {
        var reader = try Self.reader("name = \"Sky\"\nrate = 188\nstretch = 1\npitch = 0.5\n")
        #expect(reader.text("name", required: true) == "Sky")
        #expect(reader.integer("rate", in: 80...450) == 188)
        #expect(reader.number("stretch", in: 0.5...2.5) == 1)
        #expect(reader.number("pitch", in: 0...1) == 0.5)
        #expect(reader.text("absent") == nil)
        #expect(reader.integer("absent", in: 0...1) == nil)
        #expect(reader.has("rate"))
        #expect(!reader.has("absent"))
        #expect(reader.problems.isEmpty)
    }

    @Test func problemsArePlacedAtTheirKeysOrTables() throws {
        var reader = try Self.reader("""
            colour = "blue"
            name = "  "

            [flite]
            rate = "fast"
            pitch = 500
            stretch = 3
            """)
        reader.rejectUnknownKeys(allowed: ["name", "flite"])
        #expect(reader.text("name", required: true) == nil)
        #expect(reader.text("language", required: true) == nil)
        let section = reader.section("flite")
        var flite = try #require(section)
        #expect(flite.integer("rate", in: 80...450) == nil)
        #expect(flite.integer("pitch", in: 0...100, expected: "a pitch from 0 to 100") == nil)
        #expect(flite.number("stretch", in: 0.5...2.5) == nil)
        #expect(flite.text("voice", required: true) == nil)
        reader.problems += flite.problems
        #expect(reader.problems.map { "\($0.position.map(String.init(describing:)) ?? "-") \($0.message(naming: $0.keyPath))" } == [
            "1:1 unknown key `colour` (known: name, flite)",
            "2:1 `name` must not be empty",
            "- missing required key `language`",
            "5:1 `flite.rate` must be an integer, not a string",
            "6:1 `flite.pitch` must be a pitch from 0 to 100, not 500",
            "7:1 `flite.stretch` must be within 0.5...2.5, not 3",
            "4:1 missing required key `flite.voice`",
        ])
    }

    @Test func aSectionThatIsNotATableIsAProblem() throws {
        var reader = try Self.reader("wyoming = \"amy\"\n")
        let wyoming = reader.section("wyoming")
        let flite = reader.section("flite")
        #expect(wyoming == nil)
        #expect(flite == nil)
        #expect(reader.problems == [TOMLTableProblem(
            path: [], key: "wyoming", position: TOMLPosition(line: 1, column: 1), kind: .wrongType(expected: "a table", found: "a string")
        )])
    }

    @Test func problemsAreTheCallersOwn() throws {
        var reader = TOMLTableReader(try TOMLParser.parse("[[reply]]\nat = true\n")) { "line \($0.position?.line ?? 0): \($0.kind)" }
        let replies = try #require(reader.table["reply"]?.array)
        var reply = TOMLTableReader(try #require(replies[0].table), path: ["reply"], position: replies[0].position) { "\($0.position?.line ?? 0)" }
        #expect(reply.number("at", in: 0...10) == nil)
        #expect(reply.problems == ["2"])
        reader.report(nil, .empty)
        reader.problems.append("mine")
        #expect(reader.problems == ["line 0: empty", "mine"])
    }
}

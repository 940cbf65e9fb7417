import EarshotBase
import Testing

/// Valid documents, one feature of TOML 1.0 at a time: what each says, and where.
@Suite struct TOMLParserTests {
    static func parse(_ text: String) throws -> TOMLTable {
        try TOMLParser.parse(text)
    }

    /// The value at a dotted path of plain keys.
    static func value(_ text: String, _ path: String) throws -> TOMLValue {
        var table = try parse(text)
        let keys = path.split(separator: ".").map(String.init)
        for key in keys.dropLast() { table = try #require(table[key]?.table, "no table \(key)") }
        return try #require(table[keys[keys.count - 1]], "no key \(path)")
    }

    @Test func commentsAndBlankLinesSayNothing() throws {
        let table = try Self.parse("# a comment\n\n  # indented\na = 1 # after a value\n\t\n[t] # after a header\n")
        #expect(table.keys == ["a", "t"])
        #expect(table["a"]?.integer == 1)
        #expect(table["t"]?.table?.isEmpty == true)
        #expect(try Self.parse("").isEmpty)
        #expect(try Self.parse("\u{FEFF}a = 1\r\nb = 2\r\n").keys == ["a", "b"])
    }

    @Test func keysBareQuotedAndDotted() throws {
        let table = try Self.parse(#"""
            bare_key-1 = 1
            1234 = 2
            "quoted key" = 3
            'literal "key"' = 4
            "" = 5
            "\u00e9" = 6
            site . "google.com" . visits = 7
            """#)
        #expect(table.keys == ["bare_key-1", "1234", "quoted key", #"literal "key""#, "", "é", "site"])
        #expect(table["site"]?.table?["google.com"]?.table?["visits"]?.integer == 7)
    }

    @Test func everyKeyAndValueKeepsItsPlace() throws {
        let table = try Self.parse("a = 1\n  b.c = \"x\"\n[t]\nd = [1,\n  2]\ne = { f = true }\n")
        #expect(table.position(of: "a") == TOMLPosition(line: 1, column: 1))
        #expect(table["a"]?.position == TOMLPosition(line: 1, column: 5))
        #expect(table.position(of: "b") == TOMLPosition(line: 2, column: 3))
        #expect(table["b"]?.table?.position(of: "c") == TOMLPosition(line: 2, column: 3))
        #expect(table["b"]?.table?["c"]?.position == TOMLPosition(line: 2, column: 9))
        #expect(table.position(of: "t") == TOMLPosition(line: 3, column: 1))
        let t = try #require(table["t"]?.table)
        #expect(t["d"]?.array?.map(\.position) == [TOMLPosition(line: 4, column: 6), TOMLPosition(line: 5, column: 3)])
        #expect(t["e"]?.position == TOMLPosition(line: 6, column: 5))
        #expect(t["e"]?.table?.position(of: "f") == TOMLPosition(line: 6, column: 7))
    }

    @Test func basicStringsAndTheirEscapes() throws {
        let value = try Self.value(#"s = "tab\t nl\n cr\r bs\b ff\f q\" bsl\\ \u00E9 \U0001F600 lit'""#, "s")
        #expect(value.string == "tab\t nl\n cr\r bs\u{8} ff\u{C} q\" bsl\\ é 😀 lit'")
    }

    @Test func literalStringsAreAsWritten() throws {
        #expect(try Self.value(#"p = 'C:\Users\nodejs\templates'"#, "p").string == #"C:\Users\nodejs\templates"#)
        #expect(try Self.value("e = ''", "e").string == "")
    }

    @Test func multilineBasicStrings() throws {
        let text = "s = \"\"\"\nRoses are red\n  Violets are blue\"\"\"\n"
        #expect(try Self.value(text, "s").string == "Roses are red\n  Violets are blue")
        let joined = "s = \"\"\"\nThe quick brown \\\n\n    fox jumps \\   \n  over.\"\"\""
        #expect(try Self.value(joined, "s").string == "The quick brown fox jumps over.")
        #expect(try Self.value(##"s = """Here are two quotes: "". Simple.""""##, "s").string == #"Here are two quotes: "". Simple."#)
        #expect(try Self.value(##"s = """"This," she said, "is just a pointless statement."""""##, "s").string
            == #""This," she said, "is just a pointless statement.""#)
        #expect(try Self.value("s = \"\"\"a\r\nb\\tc\"\"\"", "s").string == "a\nb\tc")
    }

    @Test func multilineLiteralStrings() throws {
        let text = "re = '''\nI [dw]on't need \\d{2} apples\n'''"
        #expect(try Self.value(text, "re").string == "I [dw]on't need \\d{2} apples\n")
        #expect(try Self.value("q = '''Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\"'''", "q").string
            == "Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\"")
        #expect(try Self.value("a = ''''That,' she said, 'is still pointless.''''", "a").string == "'That,' she said, 'is still pointless.'")
    }

    @Test(arguments: [
        ("+99", 99), ("42", 42), ("0", 0), ("-17", -17), ("+0", 0), ("-0", 0),
        ("1_000", 1000), ("5_349_221", 5_349_221), ("1_2_3_4_5", 12345),
        ("0xDEADBEEF", 0xDEAD_BEEF), ("0xdead_beef", 0xDEAD_BEEF), ("0o01234567", 0o01234567), ("0o755", 0o755),
        ("0b11010110", 0b11010110), ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min),
    ])
    func integers(_ literal: String, _ expected: Int) throws {
        #expect(try Self.value("n = \(literal)", "n").integer == expected)
    }

    @Test(arguments: [
        ("+1.0", 1.0), ("3.1415", 3.1415), ("-0.01", -0.01), ("5e+22", 5e22), ("1e06", 1e6), ("-2E-2", -0.02),
        ("6.626e-34", 6.626e-34), ("224_617.445_991_228", 224_617.445_991_228), ("0.0", 0), ("-0.0", -0.0),
        ("0e0", 0), ("inf", .infinity), ("+inf", .infinity), ("-inf", -.infinity),
    ])
    func floats(_ literal: String, _ expected: Double) throws {
        #expect(try Self.value("x = \(literal)", "x").float == expected)
    }

    @Test func notANumber() throws {
        for literal in ["nan", "+nan", "-nan"] {
            #expect(try Self.value("x = \(literal)", "x").float?.isNaN == true)
        }
    }

    @Test func integersAreNumbersButNotFloats() throws {
        let value = try Self.value("n = 3", "n")
        #expect(value.float == nil)
        #expect(value.number == 3)
        #expect(value.phrase == "an integer")
    }

    @Test func booleans() throws {
        let table = try Self.parse("yes = true\nno = false")
        #expect(table["yes"]?.boolean == true)
        #expect(table["no"]?.boolean == false)
    }

    @Test(arguments: [
        ("1979-05-27T07:32:00Z", "1979-05-27T07:32:00Z", "a date-time"),
        ("1979-05-27T00:32:00-07:00", "1979-05-27T00:32:00-07:00", "a date-time"),
        ("1979-05-27T00:32:00.999999+05:30", "1979-05-27T00:32:00.999999+05:30", "a date-time"),
        ("1979-05-27 07:32:00z", "1979-05-27T07:32:00Z", "a date-time"),
        ("1979-05-27t07:32:00", "1979-05-27T07:32:00", "a date-time"),
        ("1979-05-27", "1979-05-27", "a date"),
        ("2000-02-29", "2000-02-29", "a date"),
        ("07:32:00", "07:32:00", "a time"),
        ("00:32:00.1234567891", "00:32:00.123456789", "a time"),
        ("23:59:60", "23:59:60", "a time"),
    ])
    func datesAndTimes(_ literal: String, _ written: String, _ phrase: String) throws {
        let value = try Self.value("d = \(literal) # c", "d")
        #expect(value.dateTime?.description == written)
        #expect(value.phrase == phrase)
    }

    @Test func theFieldsOfADateTime() throws {
        let value = try #require(try Self.value("d = 1979-05-27T00:32:00.5-07:30", "d").dateTime)
        #expect(value.date == TOMLDateTime.Date(year: 1979, month: 5, day: 27))
        #expect(value.time == TOMLDateTime.Time(hour: 0, minute: 32, second: 0, nanosecond: 500_000_000))
        #expect(value.offsetMinutes == -450)
    }

    @Test func arraysMixedNestedAndOverLines() throws {
        let table = try Self.parse("""
            integers = [ 1, 2, 3 ]
            nested = [ [ 1, 2 ], ["a", 'b'] ]
            mixed = [ 0.1, "x", { a = 1 }, true ]
            empty = []
            long = [
              1,  # one
              # a comment line
              2,
            ]
            """)
        #expect(table["integers"]?.array?.compactMap(\.integer) == [1, 2, 3])
        #expect(table["nested"]?.array?.last?.array?.compactMap(\.string) == ["a", "b"])
        #expect(table["mixed"]?.array?.map(\.phrase) == ["a floating-point number", "a string", "a table", "a boolean"])
        #expect(table["empty"]?.array?.isEmpty == true)
        #expect(table["long"]?.array?.compactMap(\.integer) == [1, 2])
    }

    @Test func inlineTables() throws {
        let table = try Self.parse(#"name = { first = "Tom", "last" = 'Preston', a.b = 1, a.c = 2 }"# + "\nempty = {}\n")
        let name = try #require(table["name"]?.table)
        #expect(name.keys == ["first", "last", "a"])
        #expect(name["a"]?.table?.keys == ["b", "c"])
        #expect(table["empty"]?.table?.isEmpty == true)
    }

    @Test func tablesAndSubTables() throws {
        let table = try Self.parse("""
            top = 0
            [a]
            x = 1
            [a.b.c]
            y = 2
            [ d . "e f" ]
            z = 3
            [a.b]
            w = 4
            """)
        #expect(table.keys == ["top", "a", "d"])
        #expect(try Self.value("[a.b.c]\ny = 2\n[a]\nx = 1", "a.b.c.y").integer == 2)
        let b = try #require(table["a"]?.table?["b"]?.table)
        #expect(b.keys == ["c", "w"])
        #expect(b["c"]?.table?["y"]?.integer == 2)
        #expect(table["d"]?.table?["e f"]?.table?["z"]?.integer == 3)
        #expect(table.position(of: "d") == TOMLPosition(line: 6, column: 1))
    }

    @Test func dottedKeysMakeTablesThatHeadersMayGoBelow() throws {
        let table = try Self.parse("""
            [fruit]
            apple.color = "red"
            apple.taste.sweet = true
            orange = 2
            [fruit.apple.texture]
            smooth = true
            """)
        let apple = try #require(table["fruit"]?.table?["apple"]?.table)
        #expect(apple.keys == ["color", "taste", "texture"])
        #expect(apple["texture"]?.table?["smooth"]?.boolean == true)
    }

    @Test func arraysOfTables() throws {
        let table = try Self.parse("""
            [[fruits]]
            name = "apple"
            [fruits.physical]
            color = "red"
            [[fruits.varieties]]
            name = "red delicious"
            [[fruits.varieties]]
            name = "granny smith"

            [[fruits]]
            name = "banana"
            [[fruits.varieties]]
            name = "plantain"
            """)
        let fruits = try #require(table["fruits"]?.array)
        #expect(fruits.compactMap { $0.table?["name"]?.string } == ["apple", "banana"])
        #expect(fruits.map(\.position.line) == [1, 10])
        #expect(fruits[0].table?["physical"]?.table?["color"]?.string == "red")
        #expect(fruits[0].table?["varieties"]?.array?.compactMap { $0.table?["name"]?.string } == ["red delicious", "granny smith"])
        #expect(fruits[1].table?["varieties"]?.array?.count == 1)
        #expect(table["fruits"]?.position == TOMLPosition(line: 1, column: 1))
    }

    @Test func tablesCompareByWhatTheySay() throws {
        #expect(try Self.parse("a.b = 1\nc = 2") == Self.parse("c = 2\n[a]\nb = 1"))
        #expect(try Self.parse("a = { b = [1, 2] }") == Self.parse("[a]\nb = [\n1,\n2,\n]"))
        #expect(try Self.parse("a = 1") != Self.parse("a = 1.0"))
        #expect(try Self.parse("a = 1") != Self.parse("a = 1\nb = 2"))
    }
}

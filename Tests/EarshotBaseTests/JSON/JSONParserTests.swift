import EarshotBase
import Testing

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    private func failure(_ text: String) -> JSONParseError? {
        do {
            _ = try JSONParser.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func keepsMemberOrderAndDuplicates() throws {
        let value = try parse(#" { "b" : 1, "a" : [true, false, null], "b" : "two" } "#)
        #expect(value.objectValue?.members.map(\.key) == ["b", "a", "b"])
        #expect(value["b"] == "two")
        #expect(value.jsonText == #"{"b":1,"a":[true,false,null],"b":"two"}"#)
    }

    @Test(arguments: ["0", "-0", "1.50", "-12.5e-3", "1E3", "1e+30", "123456789012345678901234567890"])
    func keepsNumberLiterals(_ literal: String) throws {
        #expect(try parse(literal).numberValue?.text == literal)
        #expect(try parse(literal).jsonText == literal)
    }

    @Test func decodesEscapes() throws {
        let value = try parse(#""q\" b\\ s\/ \b\f\n\r\t \u00e9 \ud83d\ude00""#)
        #expect(value == .string("q\" b\\ s/ \u{8}\u{c}\n\r\t é 😀"))
        #expect(value.jsonText == #""q\" b\\ s/ \u0008\u000c\n\r\t é 😀""#)
    }

    @Test(arguments: [
        ("", "the line is empty", 1),
        ("   ", "the line holds only whitespace", 4),
        (#"{"cmd" "status"}"#, "expected ':' after the member name \"cmd\"", 8),
        (#"{"cmd":}"#, "expected a value", 8),
        (#"{"cmd":"status""#, "expected ',' or '}' after the value of \"cmd\"", 16),
        (#"{"cmd":"status"} x"#, "unexpected text after the JSON value", 18),
        (#"{cmd:1}"#, "expected a member name in double quotes", 2),
        ("[1 2]", "expected ',' or ']' after an array element", 4),
        (#""abc"#, "the line ends inside the string that starts", 1),
        ("\"a\tb\"", "a control character in a string must be escaped", 3),
        (#""\x""#, "unknown escape sequence", 2),
        (#""\u12"#, "the line ends inside a \\u escape", 6),
        (#""\ud800""#, "a high surrogate escape must be followed by a low one", 2),
        (#""\udc00""#, "a low surrogate escape without a high one before it", 2),
        ("01", "unexpected text after the JSON value", 2),
        ("1.", "expected a digit after the decimal point", 3),
        ("-", "expected a digit in a number", 2),
        ("1e", "expected a digit in the exponent", 3),
        ("+1", "expected a value", 1),
        ("tru", "expected a value", 1),
        (#"{"é":x}"#, "expected a value", 6),
    ])
    func reportsWhereParsingFailed(_ text: String, _ reason: String, _ column: Int) throws {
        let error = try #require(failure(text))
        #expect(error.reason.hasPrefix(reason))
        #expect(error.column == column)
    }

    @Test func refusesDeepNestingInsteadOfOverflowingTheStack() throws {
        let deep = String(repeating: "[", count: 60_000)
        let error = try #require(failure(deep))
        #expect(error.reason.contains("nesting deeper than \(JSONParser.maximumDepth)"))
        let allowed = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(try parse(allowed).arrayValue?.count == 1)
    }

    @Test func readsWholeNumbersForIntegerArguments() throws {
        #expect(try parse("30").numberValue?.integerValue == 30)
        #expect(try parse("30.0").numberValue?.integerValue == 30)
        #expect(try parse("3e1").numberValue?.integerValue == 30)
        #expect(try parse("30.5").numberValue?.integerValue == nil)
        #expect(try parse("1e300").numberValue?.integerValue == nil)
    }
}

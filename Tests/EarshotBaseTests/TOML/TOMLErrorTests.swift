import EarshotBase
import Testing

/// Texts that are not TOML: each refused at the right place, in words a person can act on.
@Suite struct TOMLErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let line: Int
        let column: Int
        let message: String

        init(_ text: String, _ line: Int, _ column: Int, _ message: String) {
            self.text = text
            self.line = line
            self.column = column
            self.message = message
        }

        var testDescription: String { text.debugDescription }
    }

    @Test(arguments: [
        // Keys and lines
        Case("= 1", 1, 1, #"expected a key (letters, digits, "_" and "-", or a quoted string), found "=""#),
        Case("a b = 1", 1, 3, #"expected "=" after the key `a`, found "b""#),
        Case("a.= 1", 1, 3, #"expected a key (letters, digits, "_" and "-", or a quoted string), found "=""#),
        Case("a = 1 b = 2", 1, 7, #"expected the end of the line after the value of `a`, found "b" (each key = value goes on its own line)"#),
        Case("a =\n1", 1, 4, "expected a value (a quoted string, a number, true or false, a date, an array [ ] or an inline table { }), found the end of the line"),
        Case("a = ", 1, 5, "expected a value (a quoted string, a number, true or false, a date, an array [ ] or an inline table { }), found the end of the file"),
        Case("x = = 1", 1, 5, #"expected a value (a quoted string, a number, true or false, a date, an array [ ] or an inline table { }), found "=""#),
        Case("voice = cove", 1, 9, #"expected a value (a quoted string, a number, true or false, a date, an array [ ] or an inline table { }), found cove; text is written in quotes: "cove""#),
        Case("flag = True", 1, 8, "expected a value (a quoted string, a number, true or false, a date, an array [ ] or an inline table { }), found True; true and false are written in lower case"),
        Case("\"\"\"k\"\"\" = 1", 1, 1, "a key cannot be a multi-line string"),
        Case("a = 1\rb = 2", 1, 6, "a carriage return must be followed by a line feed"),
        Case("# bell \u{7}\n", 1, 8, "the control character U+0007 is not allowed in a comment"),
        // Headers
        Case("[a\nb = 1", 1, 3, #"expected "]" to close the table header [a, found the end of the line"#),
        Case("[[a]\n", 1, 4, #"expected "]]" to close the table header [[a, found "]""#),
        Case("[]", 1, 2, #"expected a key (letters, digits, "_" and "-", or a quoted string), found "]""#),
        Case("[a] b = 1", 1, 5, #"expected the end of the line after the table header, found "b" (each key = value goes on its own line)"#),
        // Strings
        Case("voice = \"cove\ntext = 1", 1, 14, "the string that starts at 1:9 has no closing \" on its line (text over several lines goes between \"\"\" and \"\"\")"),
        Case("p = 'C:\\", 1, 9, "the string that starts at 1:5 has no closing ' on its line (text over several lines goes between ''' and ''')"),
        Case("s = \"\"\"\nabc", 2, 4, "the string that starts at 1:5 has no closing \"\"\""),
        Case("s = '''abc''''''", 1, 11, "6 quotes in a row: a multi-line string may hold at most two together"),
        Case(#"s = "C:\Pictures""#, 1, 8, #"\P is not an escape TOML knows (\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX); write \\ for a backslash, or use a 'literal string'"#),
        Case(#"s = "\x41""#, 1, 6, #"\x is not an escape TOML knows (\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX); write \\ for a backslash, or use a 'literal string'"#),
        Case(#"s = "\u00g1""#, 1, 10, "expected 4 hexadecimal digits after \\u, found \"g\""),
        Case(#"s = "\uD800""#, 1, 6, "\\uD800 is not a Unicode scalar value (a surrogate, or above 10FFFF)"),
        Case("s = \"tab\tok, bell \u{7}\"", 1, 19, "the control character U+0007 is not allowed in a string: write it as \\u0007"),
        // Numbers
        Case("n = 007", 1, 5, "007: a decimal number cannot start with 0 (write 0o… for an octal one)"),
        Case("n = 1__000", 1, 5, #"1__000 is not a number (digits, with an "_" only between two)"#),
        Case("n = _1", 1, 5, #"expected a value (a quoted string, a number, true or false, a date, an array [ ] or an inline table { }), found _1; text is written in quotes: "_1""#),
        Case("n = 1_", 1, 5, #"1_ is not a number (digits, with an "_" only between two)"#),
        Case("n = 12abc", 1, 5, #"12abc is not a number (digits, with an "_" only between two)"#),
        Case("n = 9223372036854775808", 1, 5, "9223372036854775808 does not fit in a 64-bit integer"),
        Case("n = 0xG", 1, 5, #"0xG is not a valid hexadecimal integer (digits 0 to F, an "_" only between two)"#),
        Case("n = -0x1", 1, 5, "-0x1: a hexadecimal, octal or binary integer cannot have a sign"),
        Case("n = 0o8", 1, 5, #"0o8 is not a valid octal integer (digits 0 to 7, an "_" only between two)"#),
        Case("x = 1.", 1, 5, "1.: expected digits after the decimal point"),
        Case("x = .5", 1, 5, #"expected a value (a quoted string, a number, true or false, a date, an array [ ] or an inline table { }), found ".""#),
        Case("x = 1e", 1, 5, "1e: expected digits in the exponent"),
        Case("x = 1e400", 1, 5, "1e400 is too large for a 64-bit floating-point number"),
        // Dates and times
        Case("d = 1979-13-01", 1, 5, "1979-13-01 is not a valid date or time: the month must be 1 to 12"),
        Case("d = 1979-02-29", 1, 5, "1979-02-29 is not a valid date or time: month 2 of 1979 has no day 29"),
        Case("d = 1979-5-27", 1, 5, "1979-5-27 is not a valid date or time: expected 2 digits for the month"),
        Case("t = 07:32", 1, 5, #"07:32 is not a valid date or time: expected ":" after the minute (a time needs its seconds: 07:32:00)"#),
        Case("t = 24:00:00", 1, 5, "24:00:00 is not a valid date or time: the hour must be 0 to 23"),
        Case("t = 07:32:00Z", 1, 5, "07:32:00Z is not a valid date or time: a time without a date cannot have a time zone offset"),
        Case("d = 1979-05-27T07:32:00+7", 1, 5, "1979-05-27T07:32:00+7 is not a valid date or time: expected 2 digits for the offset's hours"),
        // Arrays and inline tables
        Case("a = [1 2]", 1, 8, #"expected "," or "]" after an element of the array, found "2""#),
        Case("a = [1,\n2", 2, 2, #"the array that starts at 1:5 has no closing "]""#),
        Case("a = [,]", 1, 6, #"expected a value (a quoted string, a number, true or false, a date, an array [ ] or an inline table { }), found ",""#),
        Case("t = { a = 1,\n b = 2 }", 1, 13, "an inline table must close on the line it starts (1:5); a longer table goes under a [header]"),
        Case("t = { a = 1, }", 1, 14, "an inline table cannot end with a comma (TOML 1.0)"),
        Case("t = { a = 1 b = 2 }", 1, 13, #"expected "," or "}" after a value in the inline table, found "b""#),
        Case("t = { a = 1", 1, 12, #"the inline table that starts at 1:5 has no closing "}""#),
        Case(String(repeating: "[", count: 200), 1, 3, #"expected a key (letters, digits, "_" and "-", or a quoted string), found "[""#),
        Case("a = " + String(repeating: "[", count: 200), 1, 133, "arrays and inline tables are nested deeper than 128 levels"),
    ])
    func refusesWhereTheProblemIs(_ row: Case) {
        #expect(throws: TOMLError(row.message, at: TOMLPosition(line: row.line, column: row.column))) {
            try TOMLParser.parse(row.text)
        }
    }

    @Test(arguments: [
        Case("a = 1\na = 2", 2, 1, "`a` is already defined on line 1; a key is set once"),
        Case("a = 1\n\"a\" = 2", 2, 1, "`a` is already defined on line 1; a key is set once"),
        Case("[t]\nx = 1\nx = 2", 3, 1, "`t.x` is already defined on line 2; a key is set once"),
        Case("a.b = 1\na.b = 2", 2, 1, "`a.b` is already defined on line 1; a key is set once"),
        Case("t = { x = 1, x = 2 }", 1, 14, "`t.x` is already defined on line 1; a key is set once"),
        Case("[a]\n[a]", 2, 1, "the table [a] is already defined on line 1; a table is defined once"),
        Case("[a.b]\n[a]\n[a.b]", 3, 1, "the table [a.b] is already defined on line 1; a table is defined once"),
        Case("[fruit]\napple.color = 1\n[fruit.apple]", 3, 1, "the table [fruit.apple] is already defined by dotted keys on line 2; a table is defined once"),
        Case("a = 1\n[a]", 2, 1, "`a` is already an integer (line 1), so [a] cannot define it as a table"),
        Case("a = {}\n[a]", 2, 1, "`a` is an inline table (line 1), complete as written, so [a] cannot define it as a table"),
        Case("a = {}\n[a.b]", 2, 1, "`a` is an inline table (line 1), complete as written, so [a.b] cannot be a table inside it"),
        Case("a = { b = 1 }\na.c = 2", 2, 1, "`a` is an inline table (line 1), complete as written, so it cannot hold the key `a.c`"),
        Case("a = 1\na.b = 2", 2, 1, "`a` is already an integer (line 1), so it cannot hold the key `a.b`"),
        Case("[a.b]\nx = 1\n[a]\nb.y = 2", 4, 1, "the table [a.b] is defined by its header on line 1; add keys to it there, not with a dotted key"),
        Case("[a.b.c]\n[a]\nb.y = 2", 3, 1, "the table [a.b] is made by a header on line 1; give it its own [a.b] header to add keys to it"),
        Case("[[a]]\n[a]", 2, 1, "`a` is an array of tables (line 1): [[a]] adds a table to it, [a] cannot define it"),
        Case("[[t.a]]\n[t]\na.x = 1", 3, 1, "`t.a` is an array of tables (line 1); add keys to its tables under their [[t.a]] headers"),
        Case("a = []\n[[a]]", 2, 1, "`a` is an array written with [ ] on line 1; [[a]] adds only to an array of tables begun by [[a]]"),
        Case("[a]\n[[a]]", 2, 1, "`a` is already a table (line 1), not an array of tables"),
        Case("a = 'x'\n[[a]]", 2, 1, "`a` is already a string (line 1), not an array of tables"),
    ])
    func refusesKeysAndTablesDefinedTwice(_ row: Case) {
        #expect(throws: TOMLError(row.message, at: TOMLPosition(line: row.line, column: row.column))) {
            try TOMLParser.parse(row.text)
        }
    }

    @Test func anErrorSaysWhereAndWhat() {
        let error = TOMLError("expected a value", at: TOMLPosition(line: 8, column: 18))
        #expect(error.description == "8:18: expected a value")
        #expect(error.line == 8)
        #expect(error.column == 18)
    }
}

import EarshotBase
import Testing

@Suite struct JSONLineWriterTests {
    func render(_ body: (inout JSONLineWriter) -> Void) -> String {
        var json = JSONLineWriter()
        body(&json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        (1.234, 2, "1.23"), (1.235, 2, "1.24"), (-0.5, 1, "-0.5"), (0, 2, "0.00"), (-0.001, 2, "0.00"),
        (0.05, 3, "0.050"), (12345.6789, 0, "12346"), (-100, 1, "-100.0"), (Double.nan, 2, "0.00"),
        (Double.infinity, 1, "0.0"), (0.001, 3, "0.001"),
    ])
    func numbersHaveAFixedFormat(value: Double, decimals: Int, expected: String) {
        #expect(render { $0.number(value, decimals: decimals) } == expected)
    }

    @Test func stringsAreEscaped() {
        let text = render { $0.string("say \"hi\"\n\\ \u{1}é") }
        #expect(text == #""say \"hi\"\n\\ \u0001é""#)
    }

    @Test func objectsAndArraysGetCommasOnlyBetweenMembers() {
        let text = render { json in
            json.beginObject()
            json.key("a"); json.integer(1)
            json.key("b"); json.beginArray()
            for x in [1, 2, 3] { json.element(); json.integer(x) }
            json.endArray()
            json.key("c"); json.bool(false)
            json.endObject()
            json.endLine()
        }
        #expect(text == "{\"a\":1,\"b\":[1,2,3],\"c\":false}\n")
    }

    @Test func valuesAndMembersContinueTheObjectBeingWritten() {
        let text = render { json in
            json.beginObject()
            json.key("event"); json.string("x")
            json.members(["a": 1, "b": [true, nil], "c": ["d": "e"]])
            json.key("f"); json.optionalString(nil)
            json.key("g"); json.optionalString("h")
            json.key("i"); json.value(.number(1.5, decimals: 2))
            json.endObject()
        }
        #expect(text == #"{"event":"x","a":1,"b":[true,null],"c":{"d":"e"},"f":null,"g":"h","i":1.50}"#)
        #expect(render { $0.beginObject(); $0.members(["only": "one"]); $0.endObject() } == #"{"only":"one"}"#)
    }
}

@testable import EarshotClient
import Testing

@Suite struct ClientJSONTests {
    @Test func parsingTellsBooleansFromNumbers() throws {
        let value = try #require(JSON(parsing: #"{"a":true,"b":1,"c":0,"d":false,"e":null,"f":[1.5,"x"],"g":{"h":-2}}"#))
        #expect(value["a"] == .bool(true))
        #expect(value["b"] == .number(1))
        #expect(value["c"]?.int == 0)
        #expect(value["d"]?.bool == false)
        #expect(value["e"]?.isNull == true)
        #expect(value["f"] == [1.5, "x"])
        #expect(value["g"]?["h"]?.int == -2)
        #expect(value["missing"] == nil)
    }

    @Test func textThatIsNotJSONParsesToNil() {
        #expect(JSON(parsing: #"{"a":1,"#) == nil)
        #expect(JSON(parsing: "") == nil)
    }

    @Test func encodingIsCompactWithSortedKeysAndEscapes() {
        let value: JSON = ["b": [1, 2.5, true, nil], "a": "quote \" back \\ line \n tab \t bell \u{7}"]
        #expect(value.jsonText == #"{"a":"quote \" back \\ line \n tab \t bell \u0007","b":[1,2.5,true,null]}"#)
        #expect(JSON(parsing: value.jsonText) == value)
    }

    @Test func aRequestLineStartsWithIdAndCommand() {
        #expect(DaemonConnection.requestLine(id: 7, command: "status", arguments: [:]) == #"{"id":7,"cmd":"status"}"#)
        #expect(DaemonConnection.requestLine(id: 8, command: "set-source", arguments: ["name": nil])
            == #"{"id":8,"cmd":"set-source","name":null}"#)
    }

    @Test func linesAreCutAtNewlinesAndOverlongOnesRefused() throws {
        var buffer = LineBuffer(maximumLineLength: 16)
        buffer.append(Array("one\r\ntw".utf8))
        #expect(try buffer.nextLine() == "one")
        #expect(try buffer.nextLine() == nil)
        buffer.append(Array("o\nthree\n".utf8))
        #expect(try buffer.nextLine() == "two")
        #expect(try buffer.nextLine() == "three")
        #expect(buffer.isEmpty)
        buffer.append(Array(repeating: UInt8(ascii: "x"), count: 17))
        #expect(throws: ClientError.self) { try buffer.nextLine() }
    }
}

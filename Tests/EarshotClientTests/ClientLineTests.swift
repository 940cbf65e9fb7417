import EarshotBase
@testable import EarshotClient
import EarshotProtocol
import Testing

/// How the client cuts the daemon's bytes into lines and reads each with the protocol's types.
@Suite struct ClientLineTests {
    @Test func aResponseIsReadAsTheProtocolsResponse() throws {
        let line = #"{"id":3,"ok":true,"state":{"state":"idle","turn":0,"muted":false,"controls":[]},"uptime":1.50}"#
        guard case .response(let response) = try DaemonMessage(line: line) else {
            Issue.record("a response was not read as one")
            return
        }
        #expect(response.line == line)
        #expect(response.ok)
        #expect(response.id == 3)
        #expect(response["uptime"]?.doubleValue == 1.5)
        #expect(response.results["state"]?["controls"] == [])
        #expect(response.response.result == .success(JSONObject(response.fields.members)))
    }

    @Test func aFailureCarriesTheProtocolsError() throws {
        let line = #"{"id":null,"ok":false,"error":{"code":"invalid_json","message":"Bad."}}"#
        guard case .response(let response) = try DaemonMessage(line: line) else {
            Issue.record("a failure was not read as a response")
            return
        }
        #expect(!response.ok)
        #expect(response.error == ProtocolError(code: "invalid_json", message: "Bad."))
        #expect(response.fields.isEmpty)
    }

    @Test func anEventNamesItsTopic() throws {
        guard case .event(let event) = try DaemonMessage(line: #"{"event":"speaker","phase":"end","reply":2,"t":8.27}"#) else {
            Issue.record("an event was not read as one")
            return
        }
        #expect(event.kind == "speaker")
        #expect(event.topic == .speaker)
        #expect(event["reply"]?.integerValue == 2)
        let unknown = DaemonEvent(line: "", body: ["event": "weather"])
        #expect(unknown.topic == nil)
    }

    @Test func aFailureWithoutItsErrorIsAProtocolViolation() {
        #expect(throws: ClientError.self) { try DaemonMessage(line: #"{"id":1,"ok":false}"#) }
        #expect(throws: ClientError.self) { try DaemonMessage(line: #"{"id":1,"#) }
        #expect(throws: ClientError.self) { try DaemonMessage(line: #"{"id":1}"#) }
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

import EarshotBase
import EarshotProtocol
import EarshotTestSupport
import Testing

@Suite struct ProtocolRequestDecoderTests {
    static let everyCommand: [Command] = [
        .status, .start, .dismiss, .stop, .cancel, .mute, .unmute, .hold, .release, .talk, .toggle,
        .subscribe(topics: Set(EventTopic.allCases), levelHz: 30),
        .subscribe(topics: [.level], levelHz: 1),
        .subscribe(topics: [.state, .device], levelHz: 60),
        .subscribe(topics: [], levelHz: 12),
        .unsubscribe, .devices,
        .setSource("alsa_input.usb-mic"), .setSource(nil),
        .setSink("alsa_output.speakers \"front\""), .setSink(nil),
    ]

    private func decode(_ line: String) -> Result<Request, InvalidRequest> {
        RequestDecoder.decode(Array(line.utf8))
    }

    private func invalid(_ line: some Collection<UInt8>) throws -> InvalidRequest {
        switch RequestDecoder.decode(line) {
        case .success(let request): throw RequestUnexpectedlyDecoded(request: request)
        case .failure(let invalid): return invalid
        }
    }

    private func invalid(_ line: String) throws -> InvalidRequest {
        try invalid(Array(line.utf8))
    }

    struct RequestUnexpectedlyDecoded: Error {
        var request: Request
    }

    @Test(arguments: everyCommand)
    func everyCommandRoundTrips(_ command: Command) throws {
        for id: JSONValue in [.null, 42, "abc", ["nested": [1, 2]]] {
            let request = Request(id: id, command: command)
            var line = request.jsonLine()
            #expect(line.removeLast() == UInt8(ascii: "\n"))
            #expect(RequestDecoder.decode(line) == .success(request))
        }
    }

    @Test func writesRequestsAsDocumented() {
        #expect(String(decoding: Request(id: 1, command: .status).jsonLine(), as: UTF8.self) == "{\"id\":1,\"cmd\":\"status\"}\n")
        let subscribe = Request(id: "s", command: .subscribe(topics: [.level, .state], levelHz: 20))
        #expect(
            String(decoding: subscribe.jsonLine(), as: UTF8.self)
                == "{\"id\":\"s\",\"cmd\":\"subscribe\",\"topics\":[\"state\",\"level\"],\"level_hz\":20}\n"
        )
        #expect(
            String(decoding: Request(command: .setSink(nil)).jsonLine(), as: UTF8.self)
                == "{\"cmd\":\"set-sink\",\"name\":null}\n"
        )
    }

    @Test func subscribeDefaultsToEveryTopicAt30Hz() {
        #expect(
            decode(#"{"cmd":"subscribe"}"#)
                == .success(Request(command: .subscribe(topics: Set(EventTopic.allCases), levelHz: 30)))
        )
        #expect(
            decode(#"{"cmd":"subscribe","topics":["level","level"],"level_hz":6e1}"#)
                == .success(Request(command: .subscribe(topics: [.level], levelHz: 60)))
        )
    }

    @Test func ignoresArgumentsACommandDoesNotTake() {
        #expect(decode(#"{"id":3,"cmd":"mute","verbose":true}"#) == .success(Request(id: 3, command: .mute)))
    }

    @Test(arguments: RequestIDSamples.everyKind)
    func echoesEveryKindOfIDUnchanged(_ idText: String) throws {
        let request = try decode(#"{"id":\#(idText),"cmd":"status"}"#).get()
        #expect(request.id.jsonText == idText)
        let invalid = try invalid(#"{"id":\#(idText),"cmd":"fly"}"#)
        #expect(invalid.id.jsonText == idText)
        let line = String(decoding: invalid.response.jsonLine(), as: UTF8.self)
        #expect(line.hasPrefix(#"{"id":\#(idText),"ok":false,"#))
    }

    @Test func absentIDIsNull() throws {
        #expect(try decode(#"{"cmd":"status"}"#).get().id == .null)
    }

    @Test(arguments: [
        ([0x7B, 0xFF, 0x7D], 2),  // a byte that never occurs in UTF-8
        ([0x22, 0xC0, 0xAF, 0x22], 2),  // an overlong "/"
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 2),  // an encoded surrogate
        ([0x22, 0xC3, 0xA9, 0xE2, 0x82], 4),  // "é", then a truncated sequence
    ] as [([UInt8], Int)])
    func invalidUTF8(_ bytes: [UInt8], _ bytePosition: Int) throws {
        let invalid = try invalid(bytes)
        #expect(invalid.error.code == "invalid_utf8")
        #expect(invalid.error.message.contains("from byte \(bytePosition)"))
        #expect(invalid.id == .null)
    }

    @Test(arguments: [
        (#"{"id":1,"cmd":"status""#, "column 23"),
        (#"{"id":1 "cmd":"status"}"#, "column 9"),
        ("", "empty"),
        ("status", "column 1"),
    ])
    func invalidJSONSaysWhere(_ line: String, _ place: String) throws {
        let invalid = try invalid(line)
        #expect(invalid.error.code == "invalid_json")
        #expect(invalid.error.message.contains(place))
        #expect(invalid.id == .null)
    }

    @Test(arguments: [("[1,2]", "an array"), (#""status""#, "a string"), ("42", "a number"), ("null", "null"), ("true", "a boolean")])
    func notAnObject(_ line: String, _ typeName: String) throws {
        let invalid = try invalid(line)
        #expect(invalid.error.code == "not_an_object")
        #expect(invalid.error.message.contains(typeName))
        #expect(invalid.id == .null)
    }

    @Test(arguments: [(#"{"id":7}"#, "no \"cmd\""), (#"{"id":7,"cmd":3}"#, "a number"), (#"{"id":7,"cmd":null}"#, "null")])
    func missingCommand(_ line: String, _ problem: String) throws {
        let invalid = try invalid(line)
        #expect(invalid.error.code == "missing_cmd")
        #expect(invalid.error.message.contains(problem))
        #expect(invalid.id == 7)
    }

    @Test func unknownCommandListsTheKnownOnes() throws {
        let invalid = try invalid(#"{"id":"x","cmd":"reboot"}"#)
        #expect(invalid.error.code == "unknown_cmd")
        #expect(invalid.error.message.contains("\"reboot\""))
        for name in Command.names { #expect(invalid.error.message.contains(name)) }
        #expect(invalid.id == "x")
    }

    @Test(arguments: [
        (#"{"id":1,"cmd":"subscribe","topics":"state"}"#, "topics", "\"state\""),
        (#"{"id":1,"cmd":"subscribe","topics":["state","weather"]}"#, "topics", "weather"),
        (#"{"id":1,"cmd":"subscribe","topics":[1]}"#, "topics", "[1]"),
        (#"{"id":1,"cmd":"subscribe","level_hz":0}"#, "level_hz", "not 0"),
        (#"{"id":1,"cmd":"subscribe","level_hz":61}"#, "level_hz", "not 61"),
        (#"{"id":1,"cmd":"subscribe","level_hz":30.5}"#, "level_hz", "not 30.5"),
        (#"{"id":1,"cmd":"subscribe","level_hz":"30"}"#, "level_hz", "not \"30\""),
        (#"{"id":1,"cmd":"subscribe","level_hz":true}"#, "level_hz", "not true"),
        (#"{"id":1,"cmd":"set-source"}"#, "name", "source name"),
        (#"{"id":1,"cmd":"set-source","name":3}"#, "name", "not 3"),
        (#"{"id":1,"cmd":"set-sink","name":""}"#, "name", "sink name"),
        (#"{"id":1,"cmd":"set-sink","name":["a"]}"#, "name", "not [\"a\"]"),
    ])
    func invalidArgumentNamesTheArgument(_ line: String, _ argument: String, _ detail: String) throws {
        let invalid = try invalid(line)
        #expect(invalid.error.code == "invalid_argument")
        #expect(invalid.error.message.contains("\"\(argument)\""))
        #expect(invalid.error.message.contains(detail))
        #expect(invalid.id == 1)
    }
}

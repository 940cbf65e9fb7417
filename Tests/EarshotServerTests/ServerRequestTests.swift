import EarshotBase
import EarshotProtocol
import EarshotServer
import EarshotTestSupport
import Testing

@Suite struct ServerRequestTests {
    /// A bad line, the code it must get, and the id its response must carry.
    struct BadLine: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var code: String
        var id: JSONValue = .null

        var testDescription: String { name }
    }

    static let badLines: [BadLine] = [
        BadLine(name: "invalid UTF-8", bytes: [0x7B, 0x22, 0xFF, 0x22, 0x7D], code: "invalid_utf8"),
        BadLine(name: "not JSON", bytes: Array(#"{"id":1,"cmd":"status""#.utf8), code: "invalid_json"),
        BadLine(name: "empty line", bytes: [], code: "invalid_json"),
        BadLine(name: "an array", bytes: Array(#"[{"id":1,"cmd":"status"}]"#.utf8), code: "not_an_object"),
        BadLine(name: "no cmd", bytes: Array(#"{"id":5}"#.utf8), code: "missing_cmd", id: 5),
        BadLine(name: "cmd not a string", bytes: Array(#"{"id":"x","cmd":["status"]}"#.utf8), code: "missing_cmd", id: "x"),
        BadLine(name: "unknown cmd", bytes: Array(#"{"id":6,"cmd":"reboot"}"#.utf8), code: "unknown_cmd", id: 6),
        BadLine(
            name: "bad level_hz",
            bytes: Array(#"{"id":7,"cmd":"subscribe","level_hz":90}"#.utf8),
            code: "invalid_argument",
            id: 7
        ),
        BadLine(
            name: "bad topic",
            bytes: Array(#"{"id":8,"cmd":"subscribe","topics":["weather"]}"#.utf8),
            code: "invalid_argument",
            id: 8
        ),
        BadLine(name: "bad name", bytes: Array(#"{"id":9,"cmd":"set-sink","name":false}"#.utf8), code: "invalid_argument", id: 9),
        BadLine(name: "line too long", bytes: Array(repeating: UInt8(ascii: "x"), count: 70_000), code: "line_too_long"),
    ]

    private func expectFailure(_ response: JSONValue, code: String, id: JSONValue) {
        #expect(response["ok"] == false)
        #expect(response["id"] == id)
        #expect(response["error"]?["code"] == .string(code))
        #expect(response["error"]?["message"]?.stringValue?.isEmpty == false)
    }

    @Test func everyBadLineGetsItsErrorAndTheConnectionStaysUsable() async throws {
        try await ServerHarness.withServer { _, path in
            let client = try SocketTestClient(path: path)
            for badLine in Self.badLines {
                try await client.send(bytes: badLine.bytes + [UInt8(ascii: "\n")])
                expectFailure(try await client.readJSON(), code: badLine.code, id: badLine.id)
                let after = try await client.request(#"{"id":"after","cmd":"status"}"#)
                #expect(after["id"] == "after", "after \(badLine.name)")
                #expect(after["ok"] == true, "after \(badLine.name)")
            }
        }
    }

    @Test func lineLimitIs64KiBBeforeTheNewline() async throws {
        try await ServerHarness.withServer { _, path in
            let client = try SocketTestClient(path: path)
            func request(length: Int) -> String {
                let frame = #"{"id":"","cmd":"status"}"#
                let padding = String(repeating: "p", count: length - frame.utf8.count)
                return #"{"id":"\#(padding)","cmd":"status"}"#
            }
            #expect(try await client.request(request(length: 65_536))["ok"] == true)
            expectFailure(try await client.request(request(length: 65_537)), code: "line_too_long", id: .null)
            #expect(try await client.request(#"{"id":2,"cmd":"status"}"#)["id"] == 2)
        }
    }

    @Test func anOverlongLineArrivingInPiecesIsAnsweredOnceAndSkipped() async throws {
        try await ServerHarness.withServer { _, path in
            let client = try SocketTestClient(path: path)
            let piece = [UInt8](repeating: UInt8(ascii: "{"), count: 20_000)
            for _ in 0..<10 {
                try await client.send(bytes: piece)
                try await Task.sleep(for: .milliseconds(5))
            }
            try await client.send(#"still the same line"# + "\n" + #"{"id":3,"cmd":"status"}"# + "\n")
            expectFailure(try await client.readJSON(), code: "line_too_long", id: .null)
            let next = try await client.readJSON()
            #expect(next["id"] == 3)
            #expect(next["ok"] == true)
        }
    }

    @Test(arguments: RequestIDSamples.everyKind)
    func echoesEveryKindOfID(_ idText: String) async throws {
        try await ServerHarness.withServer { _, path in
            let client = try SocketTestClient(path: path)
            let good = try await client.request(#"{"id":\#(idText),"cmd":"status"}"#)
            #expect(good["id"]?.jsonText == idText)
            let bad = try await client.request(#"{"id":\#(idText),"cmd":"status","cmd":"fly"}"#)
            #expect(bad["id"]?.jsonText == idText)
            let subscribed = try await client.request(#"{"id":\#(idText),"cmd":"subscribe","topics":[]}"#)
            #expect(subscribed["id"]?.jsonText == idText)
        }
    }

    @Test func turnCommandsDriveTheTurnMachine() async throws {
        try await ServerHarness.withServer { _, path in
            let client = try SocketTestClient(path: path)
            func state(_ command: String) async throws -> JSONValue? {
                let response = try await client.request(#"{"id":"\#(command)","cmd":"\#(command)"}"#)
                #expect(response["ok"] == true, "\(command)")
                return response["state"]
            }
            func failure(_ command: String) async throws -> JSONValue? {
                let response = try await client.request(#"{"id":"\#(command)","cmd":"\#(command)"}"#)
                #expect(response["ok"] == false, "\(command)")
                return response["error"]?["code"]
            }
            #expect(try await state("status") == ["state": "idle", "turn": 0, "muted": false, "controls": []])
            #expect(try await failure("stop") == "voice_mode_off")
            #expect(try await state("start") == ["state": "listening", "turn": 0, "muted": false, "controls": ["dismiss", "mute"]])
            #expect(try await failure("start") == "voice_mode_already_on")
            #expect(try await failure("unmute") == "not_muted")
            #expect(try await state("mute")?["controls"] == ["dismiss", "unmute"])
            #expect(try await failure("mute") == "already_muted")
            #expect(try await state("unmute")?["muted"] == false)
            #expect(try await failure("cancel") == "nothing_to_cancel")
            #expect(try await failure("stop") == "nothing_playing")
            #expect(try await state("dismiss")?["state"] == "idle")
        }
    }

    @Test func deviceCommandsReachTheHandler() async throws {
        try await ServerHarness.withServer { _, path in
            let client = try SocketTestClient(path: path)
            let devices = try await client.request(#"{"id":1,"cmd":"devices"}"#)
            #expect(devices["sources"]?.arrayValue?.count == TestTurnHandler.sources.count)
            let chosen = try await client.request(#"{"id":2,"cmd":"set-source","name":"alsa_input.builtin"}"#)
            #expect(chosen["source"] == "alsa_input.builtin")
            let unknown = try await client.request(#"{"id":3,"cmd":"set-sink","name":"hdmi"}"#)
            #expect(unknown["error"]?["code"] == "unknown_device")
            let followDefault = try await client.request(#"{"id":4,"cmd":"set-source","name":null}"#)
            #expect(followDefault["source"] == nil as JSONValue)
        }
    }

    @Test func responsesKeepRequestOrderWhateverEachTakes() async throws {
        let handler = TestTurnHandler(delays: ["devices": .milliseconds(150), "start": .milliseconds(50)])
        try await ServerHarness.withServer(handler: handler) { _, path in
            let client = try SocketTestClient(path: path)
            let lines = [
                #"{"id":1,"cmd":"devices"}"#, #"{"id":2,"cmd":"status"}"#, "oops", #"{"id":4,"cmd":"subscribe","topics":[]}"#,
                #"{"id":5,"cmd":"start"}"#, #"{"id":6,"cmd":"unsubscribe"}"#, #"{"id":7,"cmd":"status"}"#,
            ]
            try await client.send(lines.joined(separator: "\n") + "\n")
            var ids: [JSONValue?] = []
            for _ in lines { ids.append(try await client.readJSON()["id"]) }
            #expect(ids == [1, 2, nil as JSONValue, 4, 5, 6, 7])
        }
    }

    @Test func answersAClientThatStopsSendingThenCloses() async throws {
        try await ServerHarness.withServer { _, path in
            let client = try SocketTestClient(path: path)
            // The last request has no newline: the end of input ends it.
            try await client.send(#"{"id":1,"cmd":"devices"}"# + "\n" + #"{"id":2,"cmd":"status"}"#)
            client.shutdownWrite()
            #expect(try await client.readJSON()["id"] == 1)
            #expect(try await client.readJSON()["id"] == 2)
            #expect(try await client.waitUntilClosedByServer(timeout: .seconds(2)))
        }
    }

    @Test func aSubscriberThatStopsSendingKeepsReceiving() async throws {
        try await ServerHarness.withServer { server, path in
            let client = try SocketTestClient(path: path)
            _ = try await client.request(#"{"id":1,"cmd":"subscribe","topics":["state"]}"#)
            client.shutdownWrite()
            try await Task.sleep(for: .milliseconds(50))
            server.publish(ServerTestEvents.state(turn: 4, time: 1))
            #expect(try await client.readJSON()["turn"] == 4)
        }
    }

    @Test func servesSixtyFourClientsAtOnce() async throws {
        try await ServerHarness.withServer { server, path in
            let clients = try (0..<64).map { _ in try SocketTestClient(path: path) }
            for (index, client) in clients.enumerated() {
                let requests = (0..<5).map { #"{"id":[\#(index),\#($0)],"cmd":"status"}"# }
                try await client.send(requests.joined(separator: "\n") + "\n")
            }
            for (index, client) in clients.enumerated() {
                for request in 0..<5 {
                    let response = try await client.readJSON()
                    #expect(response["id"] == [.integer(index), .integer(request)])
                    #expect(response["ok"] == true)
                }
            }
            #expect(server.counters.clients == 64)
        }
    }
}

import EarshotBase
import EarshotProtocol
import Testing

@Suite struct ProtocolResponseTests {
    static let everyError: [ProtocolError] = [
        .lineTooLong(limit: 65_536), .invalidUTF8(offset: 3),
        .invalidJSON(JSONParseError(reason: "expected a value", offset: 7, column: 8)),
        .notAnObject([1]), .missingCommand(found: nil), .missingCommand(found: 3), .unknownCommand("fly"),
        .invalidArgument("level_hz", must: "a whole number from 1 to 60", found: 0), .permissionDenied,
        ProtocolError(code: "nothing_playing", message: "Nothing is playing, so there is nothing to stop."),
        ProtocolError(code: "unknown_device", message: "There is no sink \"hdmi\"."),
    ]

    private func text(_ response: Response) -> String {
        String(decoding: response.jsonLine(), as: UTF8.self)
    }

    @Test func successPutsIDAndOKFirst() {
        let state = VoiceState(phase: .hearing, turn: 1, muted: false, controls: [.cancel, .dismiss, .mute])
        let response = Response(id: 1, result: .success(["state": .object(state.fields)]))
        #expect(
            text(response)
                == #"{"id":1,"ok":true,"state":{"state":"hearing","turn":1,"muted":false,"controls":["cancel","dismiss","mute"]}}"#
                + "\n"
        )
        #expect(text(Response(id: .null, result: .success([:]))) == "{\"id\":null,\"ok\":true}\n")
    }

    @Test func failureCarriesCodeAndMessage() {
        let nothingPlaying = ProtocolError(code: "nothing_playing", message: "Nothing is playing, so there is nothing to stop.")
        let response = Response(id: ["n": 1], result: .failure(nothingPlaying))
        #expect(
            text(response)
                == #"{"id":{"n":1},"ok":false,"error":{"code":"nothing_playing","message":"Nothing is playing, so there is nothing to stop."}}"#
                + "\n"
        )
    }

    @Test func stateShowsTheErrorOnlyWhenThereIsOne() {
        let failed = VoiceState(phase: .listening, turn: 2, muted: true, controls: [.dismiss, .unmute], error: "reply_timeout")
        #expect(
            JSONValue.object(failed.fields).jsonText
                == #"{"state":"listening","turn":2,"muted":true,"controls":["dismiss","unmute"],"error":"reply_timeout"}"#
        )
    }

    @Test(arguments: everyError)
    func everyErrorRoundTrips(_ error: ProtocolError) throws {
        for id: JSONValue in [.null, 5, "five", [5]] {
            let response = Response(id: id, result: .failure(error))
            #expect(try Response(jsonLine: response.jsonLine()) == response)
        }
        #expect(!error.message.isEmpty)
        #expect(error.code.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" })
    }

    @Test func successRoundTrips() throws {
        let response = Response(
            id: "devices-1",
            result: .success([
                "sources": [["name": "mic", "description": "USB \"Mic\"", "default": true]], "source": nil,
                "uptime": .number(12.25, decimals: 2),
            ])
        )
        #expect(try Response(jsonLine: response.jsonLine()) == response)
    }
}
